"""The Detector interface and how the evidence of several sources is combined."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
from PIL import Image

from negdata.records import Box, Evidence, LabelScore


class ImageItem:
    """One image with its sample metadata (key, url, caption): given decoded, or as JPEG bytes
    decoded on first use of ``image``, so a source that needs no pixels costs no decoding."""

    def __init__(
        self, key: str, url: str, caption: str, image: Image.Image | None = None, jpg: bytes = b""
    ) -> None:
        self.key, self.url, self.caption = key, url, caption
        self._image, self._jpg = image, jpg

    @property
    def image(self) -> Image.Image:
        if self._image is None:
            with Image.open(io.BytesIO(self._jpg)) as image:
                self._image = image.convert("RGB")
        return self._image


@dataclass
class Detection:
    """One source's view of one image: its boxes and the max score of every label it covers."""

    boxes: list[Box] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)


class Detector(Protocol):
    """An evidence source. ``labels`` are the vocabulary labels it can confirm or rule out."""

    name: str

    @property
    def labels(self) -> frozenset[str]: ...

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]: ...


@runtime_checkable
class PixelDetector(Detector, Protocol):
    """A source that reads pixels: the detect stage decodes and letterboxes its images to
    ``imgsz`` squares in worker processes and hands them over ``batch`` at a time."""

    imgsz: int
    batch: int

    def detect_pixels(
        self, pixels: np.ndarray, shapes: Sequence[tuple[int, int]]
    ) -> list[Callable[[], Detection]]: ...


def on_device(source: Any, device: str) -> Any:
    """``source`` (a source's or the encoder's settings) with its ``device`` set to ``device``
    where it was left to ``auto``."""
    if getattr(source, "device", None) == "auto":
        return source.model_copy(update={"device": device})
    return source


def combine(key: str, names: Sequence[str], detections: Sequence[Detection]) -> Evidence:
    """Per label over the sources that cover it: the max score (any source that sees an object
    blocks its negation) and the min (any that doubts it blocks affirming it unnamed)."""
    scores: dict[str, list[float]] = {}
    boxes: list[Box] = []
    for det in detections:
        boxes.extend(det.boxes)
        for label, score in det.scores.items():
            scores.setdefault(label, []).append(score)
    return Evidence(
        key=key,
        boxes=boxes,
        scores=[
            LabelScore(label=label, score=max(given), lowest=min(given))
            for label, given in sorted(scores.items())
        ],
        sources=list(names),
    )
