"""Ultralytics YOLO weights as an evidence source: boxes and the max score of each covered label.

Ultralytics downloads missing weights, fonts and packages on its own; here it runs offline. A
``.pt``, ``.onnx`` or TensorRT ``.engine`` path (as ``negdata detect export`` writes them) must
exist locally; a ``.yaml`` path builds a random-weight model (plumbing only).

The detect stage feeds it batches already decoded and letterboxed by ``negdata.detect.decode``
(``detect_pixels``); ``detect`` takes decoded images and lets Ultralytics' predictor prepare them
the same way; both then run the same model and NMS (``suppress``, with no time limit). Either way
an image is letterboxed to a square of ``imgsz`` whatever its batch-mates, so its evidence does
not depend on the batch it lands in. On CUDA the model runs in fp16 (``half``), on the CPU in
fp32.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from negdata.config import YoloSource, cache_dir
from negdata.detect.base import Detection, ImageItem
from negdata.records import Box

log = logging.getLogger(__name__)

_MODEL_CONFIG_SUFFIXES = (".yaml", ".yml")
MODEL_SUFFIXES = (".pt", ".onnx", ".engine", *_MODEL_CONFIG_SUFFIXES)


def ultralytics_offline() -> None:
    """Keep Ultralytics off the network; takes effect only before ``ultralytics`` is imported."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ.setdefault("YOLO_CONFIG_DIR", str(cache_dir() / "ultralytics"))


def resolve_device(device: str) -> str:
    """``auto`` -> the first GPU when torch sees one, else the CPU; anything else as given."""
    if device != "auto":
        return device
    import torch

    return "cuda:0" if torch.cuda.is_available() else "cpu"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def suppress(prediction: Any, args: Any, end2end: bool = False) -> list[Any]:
    """Ultralytics' NMS with a predictor's arguments, one tensor of boxes per image, and no
    time limit: Ultralytics' own (2 s + 50 ms an image) ends NMS early on a loaded machine and
    returns no boxes for the batch's later images, whose objects would then read as absent."""
    from ultralytics.utils import nms

    found: list[Any] = nms.non_max_suppression(
        prediction,
        args.conf,
        args.iou,
        args.classes,
        args.agnostic_nms,
        max_det=args.max_det,
        nc=0,
        max_time_img=math.inf,
        end2end=end2end,
    )
    return found


class YoloDetector:
    """One set of YOLO weights; its class names, mapped through ``class_map``, are its labels."""

    def __init__(self, config: YoloSource, index: int) -> None:
        key = f"detect.sources[{index}].weights"
        weights = config.weights.expanduser()
        if weights.suffix not in MODEL_SUFFIXES:
            raise ValueError(
                f"{key}: {weights} is not a model file: expected one of {', '.join(MODEL_SUFFIXES)}"
            )
        from_yaml = weights.suffix in _MODEL_CONFIG_SUFFIXES
        if not from_yaml and not weights.is_file():
            raise FileNotFoundError(
                f"{key}: weights file not found: {weights} "
                "(nothing is downloaded; point it at a local .pt, .onnx or .engine file)"
            )
        ultralytics_offline()
        from ultralytics.models import YOLO

        started = time.monotonic()
        try:
            self._model: Any = YOLO(str(weights), task="detect")
        except FileNotFoundError as exc:
            raise FileNotFoundError(f"{key}: cannot build a model from {weights}: {exc}") from None
        self.config = config
        self.name = f"yolo:{weights.name}"
        self.device = resolve_device(config.device)
        self.quantize = 16 if config.half and self.device.startswith("cuda") else None
        self.weights_sha256: str | None = None if from_yaml else _sha256(weights)
        self._predictor = self._pixel_predictor()
        self.imgsz: int = self._predictor.imgsz[0]
        self.batch = config.batch
        self._label_of: dict[int, str] = {
            int(cls): config.class_map.get(name, name)
            for cls, name in self._predictor.model.names.items()
        }
        self._labels = frozenset(self._label_of.values())
        log.info(
            "%s: %d classes -> %d labels on %s, loaded in %.2fs",
            self.name,
            len(self._label_of),
            len(self._labels),
            self.device,
            time.monotonic() - started,
        )

    @property
    def predictor(self) -> Any:
        """Ultralytics' predictor ``detect_pixels`` runs: its model (fused, fp16 on CUDA) and
        its arguments."""
        return self._predictor

    @property
    def labels(self) -> frozenset[str]:
        return self._labels

    def _args(self) -> dict[str, Any]:
        return {
            "imgsz": self.config.imgsz,
            "conf": self.config.conf,
            "device": self.device,
            "quantize": self.quantize,
            "rect": False,
            "verbose": False,
        }

    def _pixel_predictor(self) -> Any:
        """Ultralytics' predictor for this model, set up once, whose model ``detect_pixels``
        runs on batches the decode pool prepared."""
        from ultralytics.utils import checks

        args = {**self._model.overrides, "mode": "predict", "save": False, **self._args()}
        predictor = self._model._smart_load("predictor")(overrides=args)
        predictor.setup_model(self._model.model, verbose=False)
        predictor.imgsz = cast(Any, checks).check_imgsz(
            self.config.imgsz, stride=predictor.model.stride, min_dim=2
        )
        return predictor

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        detections: list[Detection] = []
        step = self.config.batch
        for start in range(0, len(items), step):
            chunk = items[start : start + step]
            images = [np.asarray(item.image.convert("RGB"))[..., ::-1] for item in chunk]  # BGR
            im = self._predictor.preprocess(images)  # letterboxed, on the device, 0-1
            detections.extend(built() for built in self._infer(im, [i.shape[:2] for i in images]))
        return detections

    def detect_pixels(
        self, pixels: np.ndarray, shapes: Sequence[tuple[int, int]]
    ) -> list[Callable[[], Detection]]:
        """Run the model on letterboxed RGB uint8 images of shape (n, imgsz, imgsz, 3) whose
        originals had ``shapes``; as the predictor does: to the device as uint8, then scaled
        to 0-1 in fp16 or fp32. Returns one callable per image that builds its Detection:
        calling it waits for the device, so a caller can hand them to another thread and go on
        with the next batch."""
        import torch

        model = self._predictor.model
        with torch.inference_mode():
            im = torch.from_numpy(pixels).to(model.device).permute(0, 3, 1, 2).contiguous()
            im = (im.half() if model.fp16 else im.float()).div_(255)
        return self._infer(im, shapes)

    def _infer(self, im: Any, shapes: Sequence[tuple[int, int]]) -> list[Callable[[], Detection]]:
        """The model and NMS (``suppress``) on a batch ``im`` (n, 3, imgsz, imgsz) on the
        device, boxes scaled back to each original's shape."""
        import torch
        from ultralytics.utils import ops

        model = self._predictor.model
        with torch.inference_mode():
            found = suppress(model(im), self._predictor.args, getattr(model, "end2end", False))
            for pred, shape in zip(found, shapes, strict=False):
                pred[:, :4] = ops.scale_boxes((im.shape[2], im.shape[3]), pred[:, :4], shape)
        return [
            functools.partial(self._detection, pred[:, :4], pred[:, 4], pred[:, 5])
            for pred in found[: len(shapes)]
        ]

    def _detection(self, xyxy: Any, conf: Any, classes: Any) -> Detection:
        scores = dict.fromkeys(self._labels, 0.0)
        boxes: list[Box] = []
        for (x0, y0, x1, y1), score, cls in zip(
            xyxy.tolist(), conf.tolist(), classes.tolist(), strict=True
        ):
            label = self._label_of[int(cls)]
            boxes.append(
                Box(label=label, score=score, x0=x0, y0=y0, x1=x1, y1=y1, source=self.name)
            )
            scores[label] = max(scores[label], float(score))
        return Detection(boxes=boxes, scores=scores)
