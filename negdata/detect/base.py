"""The Detector interface and how the evidence of several sources is combined."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

from negdata.records import Box, Evidence, LabelScore


@dataclass(frozen=True)
class ImageItem:
    """One decoded image with its sample metadata (key, url, caption)."""

    key: str
    url: str
    caption: str
    image: Image.Image


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
