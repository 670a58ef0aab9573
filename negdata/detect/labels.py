"""Known labels as an evidence source: an oracle for images whose objects were listed by hand.

The file maps an image URL to the labels present in it (the sample's ``labels.json``). For a
listed image every vocabulary label is covered: 1.0 if listed, else 0.0. An image the file does
not list gets an empty detection, so the oracle never claims absence for an image it never saw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from negdata.config import LabelsSource
from negdata.detect.base import Detection, ImageItem


def _parse(raw: Any, vocabulary: frozenset[str], where: str) -> dict[str, frozenset[str]]:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: expected a JSON object mapping image URL -> list of labels")
    parsed: dict[str, frozenset[str]] = {}
    for url, labels in raw.items():
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise ValueError(f"{where}: labels of {url} must be a list of strings")
        unknown = sorted(set(labels) - vocabulary)
        if unknown:
            raise ValueError(f"{where}: {url} lists labels outside the vocabulary: {unknown}")
        parsed[url] = frozenset(labels)
    return parsed


class LabelsDetector:
    """Ground truth from a ``{url: [label, ...]}`` JSON file, over the given vocabulary."""

    def __init__(self, config: LabelsSource, vocabulary: frozenset[str], index: int) -> None:
        key = f"detect.sources[{index}].path"
        path = config.path.expanduser()
        try:
            raw = json.loads(path.read_text())
        except FileNotFoundError:
            raise FileNotFoundError(f"{key}: labels file not found: {path}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{key}: {path} is not valid JSON: {exc}") from None
        self._present = _parse(raw, vocabulary, f"{key} ({path})")
        self._vocabulary = vocabulary
        self.name = f"labels:{path.name}"

    @property
    def labels(self) -> frozenset[str]:
        return self._vocabulary

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        return [self._detection(item.url) for item in items]

    def _detection(self, url: str) -> Detection:
        present = self._present.get(url)
        if present is None:
            return Detection()
        return Detection(scores={label: float(label in present) for label in self._vocabulary})
