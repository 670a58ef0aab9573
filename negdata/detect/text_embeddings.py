"""Text embeddings of class names for open-vocabulary detectors, computed once and cached.

The text encoder is a local file, never downloaded (Ultralytics' own ``set_classes`` fetches
CLIP or MobileCLIP weights from the internet; this module takes their place):

- ``.ts``: a TorchScript text encoder as Ultralytics ships them for YOLOE (``mobileclip_blt.ts``
  for YOLOE-11 and YOLOE-v8, ``mobileclip2_b.ts`` for YOLOE-26): token ids in, embeddings out;
- ``.pt``: an OpenAI CLIP checkpoint, read by open_clip (``ViT-B-32.pt``, YOLO-World's encoder).

Both take OpenAI CLIP's BPE tokens, 77 per text, as open_clip's tokenizer gives them. The
embeddings (unit length, float32) are cached under ``cache_dir()/text-embeddings``, keyed by the
encoder file's sha256 and the prompts; a load that finds them there never opens the encoder.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch

from negdata.config import cache_dir

log = logging.getLogger(__name__)

ENCODER_SUFFIXES = (".ts", ".pt")
_TEXT_BATCH = 256  # prompts encoded at once

Encode = Callable[[torch.Tensor], torch.Tensor]


def _embeddings_dir() -> Path:
    return cache_dir() / "text-embeddings"


def _atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    write(tmp)
    os.replace(tmp, path)


def _encoder_record(path: Path) -> Path:
    """Where the sha256 last seen at an encoder path is kept, so that cached embeddings stay
    usable on a machine where the encoder file is gone."""
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:16]
    return _embeddings_dir() / "encoders" / f"{digest}.json"


def encoder_sha256(path: Path) -> str | None:
    """The encoder file's sha256 (recorded for its path), else the one last recorded for the
    path; None when neither is known."""
    record = _encoder_record(path)
    if path.is_file():
        with path.open("rb") as fh:
            sha = hashlib.file_digest(fh, "sha256").hexdigest()
        _atomic_write(
            record, lambda tmp: tmp.write_text(json.dumps({"path": str(path), "sha256": sha}))
        )
        return sha
    if record.is_file():
        return str(json.loads(record.read_text())["sha256"])
    return None


def _cache_file(sha: str, prompts: Sequence[str]) -> Path:
    names = hashlib.sha256("\n".join(prompts).encode()).hexdigest()[:16]
    return _embeddings_dir() / f"{sha[:16]}-{names}.pt"


def _cached(file: Path, sha: str, prompts: Sequence[str]) -> torch.Tensor | None:
    if not file.is_file():
        return None
    try:
        saved = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as exc:  # a damaged file can fail anywhere in the unpickler
        log.warning("ignoring the unreadable embeddings cache %s: %s", file, exc)
        return None
    if not isinstance(saved, dict) or saved.get("encoder_sha256") != sha:
        return None
    if list(saved.get("prompts", ())) != list(prompts):
        return None
    embeddings: torch.Tensor = saved["embeddings"]
    return embeddings


def _load_encoder(path: Path, key: str, device: str) -> Encode:
    """The encoder as a function from token ids to embeddings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # torch.jit is deprecated, not gone
        try:
            if path.suffix == ".ts":
                load_scripted: Any = torch.jit.load  # untyped
                scripted = load_scripted(str(path), map_location=device).eval()
                return lambda tokens: scripted(tokens.int())  # as clip.tokenize gives them
            import open_clip

            clip = open_clip.load_openai_model(str(path), precision="fp32", device=device).eval()
            return lambda tokens: clip.encode_text(tokens)
        except (RuntimeError, ValueError, KeyError, OSError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ValueError(f"{key}: cannot load a text encoder from {path}: {first}") from None


@torch.inference_mode()
def _encode(encode: Encode, prompts: Sequence[str], device: str) -> torch.Tensor:
    import open_clip

    parts = []
    for start in range(0, len(prompts), _TEXT_BATCH):
        tokens = open_clip.tokenize(list(prompts[start : start + _TEXT_BATCH])).to(device)
        parts.append(encode(tokens).float())
    embeddings = torch.cat(parts).cpu()
    unit: torch.Tensor = embeddings / embeddings.norm(dim=-1, keepdim=True)
    return unit


def class_embeddings(encoder: Path, prompts: Sequence[str], key: str, device: str) -> torch.Tensor:
    """Unit-length text embeddings of ``prompts``, one row each, from the cache when they are
    there. ``key`` names the config key of ``encoder`` in errors."""
    path = encoder.expanduser().absolute()
    if path.suffix not in ENCODER_SUFFIXES:
        raise ValueError(
            f"{key}: {path.name} is neither a TorchScript text encoder (.ts) nor an OpenAI CLIP "
            "checkpoint (.pt)"
        )
    sha = encoder_sha256(path)
    if sha is None:
        raise FileNotFoundError(
            f"{key}: text encoder not found: {path} (nothing is downloaded; point it at a local "
            "file, e.g. mobileclip_blt.ts for YOLOE or ViT-B-32.pt for YOLO-World)"
        )
    file = _cache_file(sha, prompts)
    cached = _cached(file, sha, prompts)
    if cached is not None:
        log.info("%d class embeddings from the cache %s", len(prompts), file)
        return cached
    if not path.is_file():
        raise FileNotFoundError(
            f"{key}: text encoder not found: {path} (its embeddings of these {len(prompts)} "
            "classes are not cached; nothing is downloaded)"
        )
    started = time.monotonic()
    embeddings = _encode(_load_encoder(path, key, device), prompts, device)
    payload = {"encoder_sha256": sha, "prompts": list(prompts), "embeddings": embeddings}
    _atomic_write(file, lambda tmp: torch.save(payload, tmp))
    log.info(
        "%d class embeddings from %s in %.2fs, cached in %s",
        len(prompts),
        path.name,
        time.monotonic() - started,
        file,
    )
    return embeddings
