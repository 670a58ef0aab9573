"""Image encoders: one unit-length embedding per image, computed in the detect stage on the pixels
the decode pool already made for the detectors (``detect.encoder``), for NegPairs' look-alike
measure. An encoder sees each image letterboxed whole to its input size, as a detector does: a
centre crop could cut away the very object a pair differs by."""

from __future__ import annotations

import importlib
import threading
from typing import Any, Protocol, runtime_checkable

import numpy as np

from negdata.config import DetectConfig, EncoderConfig, OpenClipEncoder
from negdata.detect.base import on_device


@runtime_checkable
class ImageEncoder(Protocol):
    """``embed_pixels`` takes letterboxed RGB uint8 images, shape (n, imgsz, imgsz, 3), ``batch``
    at a time at most, and returns their embeddings, shape (n, dim), which negdata scales to
    unit length. ``name`` is recorded with the embeddings."""

    name: str
    imgsz: int
    dim: int
    batch: int

    def embed_pixels(self, pixels: np.ndarray) -> np.ndarray: ...


RANDOM_INIT_SEED = 0


class OpenClipImageEncoder:
    """An open_clip model's image tower, normalised as the model's own eval transform does."""

    def __init__(self, cfg: OpenClipEncoder, device: str) -> None:
        import torch

        from negdata.clip_models import load_clip

        checkpoint = str(cfg.checkpoint) if cfg.checkpoint is not None else None
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(RANDOM_INIT_SEED)  # random weights: the same in every process
            clip = load_clip(cfg.model, checkpoint, device)
        visual = clip.model.visual
        size = visual.image_size
        self.imgsz = int(size if isinstance(size, int) else size[0])
        self.dim = int(visual.output_dim)
        self.batch = cfg.batch
        self.name = f"open_clip:{clip.name}:{cfg.checkpoint or 'random'}"
        self._model, self._device = clip.model, device
        shape = (1, 3, 1, 1)
        self._mean = torch.tensor(visual.preprocess_cfg["mean"], device=device).view(shape)
        self._std = torch.tensor(visual.preprocess_cfg["std"], device=device).view(shape)

    def embed_pixels(self, pixels: np.ndarray) -> np.ndarray:
        import torch

        images = torch.from_numpy(pixels).to(self._device).permute(0, 3, 1, 2).float() / 255
        with torch.inference_mode():
            features = self._model.encode_image((images - self._mean) / self._std)
        embedded: np.ndarray = features.float().cpu().numpy()
        return embedded


_loaded: dict[str, ImageEncoder] = {}
_loading = threading.Lock()


def build_encoder(cfg: DetectConfig, device: str = "auto") -> ImageEncoder | None:
    """``detect.encoder`` loaded once per process and device (None when unset); left to
    ``auto``, it runs on ``device``."""
    if cfg.encoder is None:
        return None
    source: EncoderConfig = on_device(cfg.encoder, device)
    key = source.model_dump_json()
    with _loading:
        if key not in _loaded:
            _loaded[key] = _load(source)
        return _loaded[key]


def _load(cfg: EncoderConfig) -> ImageEncoder:
    if isinstance(cfg, OpenClipEncoder):
        return OpenClipImageEncoder(cfg, cfg.device)
    module, _, name = cfg.factory.partition(":")
    try:
        factory: Any = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"detect.encoder.factory {cfg.factory}: {exc}") from exc
    encoder = factory(cfg.device)
    if not isinstance(encoder, ImageEncoder):
        raise ValueError(
            f"detect.encoder.factory {cfg.factory} returned a {type(encoder).__name__}, which "
            "lacks name, imgsz, dim, batch or embed_pixels"
        )
    return encoder


def embed(encoder: ImageEncoder, pixels: np.ndarray) -> np.ndarray:
    """Every image's embedding at unit length, ``encoder.batch`` at a time; an error if one is
    not a finite, non-zero vector of length ``dim`` (a wrong vector would pair images that are not
    alike)."""
    parts = [
        np.asarray(encoder.embed_pixels(pixels[start : start + encoder.batch]), np.float32)
        for start in range(0, len(pixels), encoder.batch)
    ]
    out = np.concatenate(parts) if parts else np.zeros((0, encoder.dim), np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True) if out.ndim == 2 else out
    if out.shape != (len(pixels), encoder.dim) or not (np.isfinite(norms) & (norms > 0)).all():
        raise RuntimeError(
            f"{encoder.name} gave embeddings of shape {out.shape} for {len(pixels)} images of "
            f"dim {encoder.dim}, or a zero or non-finite one"
        )
    unit: np.ndarray = out / norms
    return unit
