"""Ultralytics YOLO weights as an evidence source: boxes and the max score of each covered label.

Ultralytics downloads missing weights, fonts and packages on its own; here it runs offline. A
``.pt`` path must exist locally; a ``.yaml`` path builds a random-weight model (plumbing only).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from negdata.config import YoloSource, cache_dir
from negdata.detect.base import Detection, ImageItem
from negdata.records import Box

log = logging.getLogger(__name__)

_MODEL_CONFIG_SUFFIXES = (".yaml", ".yml")


def _ultralytics_offline() -> None:
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


class YoloDetector:
    """One set of YOLO weights; its class names, mapped through ``class_map``, are its labels."""

    def __init__(self, config: YoloSource, index: int) -> None:
        key = f"detect.sources[{index}].weights"
        weights = config.weights.expanduser()
        from_yaml = weights.suffix in _MODEL_CONFIG_SUFFIXES
        if not from_yaml and not weights.is_file():
            raise FileNotFoundError(
                f"{key}: weights file not found: {weights} "
                "(nothing is downloaded; point it at a local .pt file)"
            )
        _ultralytics_offline()
        from ultralytics.models import YOLO

        started = time.monotonic()
        try:
            self._model: Any = YOLO(str(weights))
        except FileNotFoundError as exc:
            raise FileNotFoundError(f"{key}: cannot build a model from {weights}: {exc}") from None
        self.config = config
        self.name = f"yolo:{weights.name}"
        self.device = resolve_device(config.device)
        self.weights_sha256: str | None = None if from_yaml else _sha256(weights)
        self._label_of: dict[int, str] = {
            int(cls): config.class_map.get(name, name) for cls, name in self._model.names.items()
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
    def labels(self) -> frozenset[str]:
        return self._labels

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        detections: list[Detection] = []
        step = self.config.batch
        for start in range(0, len(items), step):
            results = self._model.predict(
                [item.image for item in items[start : start + step]],
                imgsz=self.config.imgsz,
                conf=self.config.conf,
                device=self.device,
                verbose=False,
            )
            detections.extend(self._detection(result) for result in results)
        return detections

    def _detection(self, result: Any) -> Detection:
        scores = dict.fromkeys(self._labels, 0.0)
        boxes: list[Box] = []
        found = result.boxes
        for (x0, y0, x1, y1), score, cls in zip(
            found.xyxy.tolist(), found.conf.tolist(), found.cls.tolist(), strict=True
        ):
            label = self._label_of[int(cls)]
            boxes.append(
                Box(label=label, score=score, x0=x0, y0=y0, x1=x1, y1=y1, source=self.name)
            )
            scores[label] = max(scores[label], float(score))
        return Detection(boxes=boxes, scores=scores)
