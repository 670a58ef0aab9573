"""A COCO instances file (``instances_*.json``, as COCO publishes it) as an evidence source.

An image of the file covers every category the file defines, mapped into the vocabulary: 1.0
when it has an annotation of it, else 0.0 (COCO's annotators labelled every category in every
image). An image the file does not have gets an empty detection: the oracle never claims
absence for an image it never saw. Boxes, COCO's ``[x, y, width, height]`` on the original
image, are scaled (and for a centre crop shifted) onto the ingested image, as ``x0, y0, x1, y1``
with score 1.0. A crowd region (``iscrowd: 1``) marks its label present but gives no box: a box
stands for one object, and a crowd region holds many.

The file is read whole, as COCO's own tools read it (``instances_train2017.json``, 450 MB,
takes a few GB while loading); what is kept is a compact index per image.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from negdata.config import CocoSource
from negdata.detect.base import Detection, ImageItem
from negdata.detect.oracles.matching import OracleFileError, file_name, match_key, vocabulary_label
from negdata.records import Box

log = logging.getLogger(__name__)

URL_KEYS = ("coco_url", "flickr_url")  # tried in this order by match: url


@dataclass
class _Image:
    width: float
    height: float
    present: set[str] = field(default_factory=set)
    boxes: list[tuple[str, float, float, float, float]] = field(default_factory=list)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _list(raw: dict[str, Any], name: str, where: str) -> list[Any]:
    value = raw.get(name)
    if not isinstance(value, list):
        raise OracleFileError(f"{where}: no '{name}' list (is it a COCO instances file?)")
    return value


def _entry(entry: Any, place: str, where: str, keys: Sequence[str]) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise OracleFileError(f"{where}: {place} is not an object")
    missing = [k for k in keys if k not in entry]
    if missing:
        raise OracleFileError(f"{where}: {place} has no {', '.join(missing)}")
    if type(entry["id"]) is not int:
        raise OracleFileError(f"{where}: {place} has a non-integer id {entry['id']!r}")
    return entry


class CocoDetector:
    """Ground truth from a COCO instances file; its categories, mapped, are its labels."""

    def __init__(self, config: CocoSource, vocabulary: frozenset[str], index: int) -> None:
        key = f"detect.sources[{index}].path"
        path = config.path.expanduser()
        where = f"{key} ({path})"
        try:
            with path.open("rb") as fh:
                raw = json.load(fh)
        except FileNotFoundError:
            raise FileNotFoundError(f"{key}: COCO file not found: {path}") from None
        except OSError as exc:
            raise OracleFileError(f"{where}: cannot read it: {exc.strerror or exc}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise OracleFileError(f"{where}: not valid JSON: {exc}") from None
        if not isinstance(raw, dict):
            raise OracleFileError(f"{where}: expected a JSON object with images and annotations")
        self.config = config
        self.name = f"coco:{path.name}"
        self._category = self._categories(raw, config, vocabulary, where)
        self._labels = frozenset(self._category.values())
        by_id, self._images = self._image_index(raw, config, where)
        self._annotate(raw, by_id, where)
        log.info(
            "%s: %d images, %d categories -> %d labels",
            self.name,
            len(by_id),
            len(self._category),
            len(self._labels),
        )

    @staticmethod
    def _categories(
        raw: dict[str, Any], config: CocoSource, vocabulary: frozenset[str], where: str
    ) -> dict[int, str]:
        category: dict[int, str] = {}
        seen: set[int] = set()
        outside: list[str] = []
        for i, entry in enumerate(_list(raw, "categories", where)):
            place = f"categories[{i}]"
            entry = _entry(entry, place, where, ("id", "name"))
            if entry["id"] in seen:
                raise OracleFileError(f"{where}: {place} repeats category id {entry['id']}")
            seen.add(entry["id"])
            if not isinstance(entry["name"], str):
                raise OracleFileError(f"{where}: {place} has a non-string name")
            label = vocabulary_label(entry["name"], config.class_map, vocabulary)
            if label is None:
                outside.append(entry["name"])
            else:
                category[entry["id"]] = label
        if outside:
            raise OracleFileError(
                f"{where}: categories outside the vocabulary: {sorted(outside)} "
                "(map them to vocabulary labels with class_map)"
            )
        return category

    @staticmethod
    def _image_index(
        raw: dict[str, Any], config: CocoSource, where: str
    ) -> tuple[dict[int, _Image], dict[str, _Image]]:
        """The images by id and by match key; a key two images share is an error."""
        by_id: dict[int, _Image] = {}
        by_key: dict[str, _Image] = {}
        owner: dict[str, int] = {}
        for i, entry in enumerate(_list(raw, "images", where)):
            place = f"images[{i}]"
            entry = _entry(entry, place, where, ("id", "width", "height"))
            place = f"images[{i}] (id {entry['id']})"
            if entry["id"] in by_id:
                raise OracleFileError(f"{where}: {place} repeats an image id")
            width, height = entry["width"], entry["height"]
            if not (_number(width) and _number(height) and width > 0 and height > 0):
                raise OracleFileError(f"{where}: {place} has a bad size {width!r} x {height!r}")
            if config.match == "url":
                urls = [u for u in (entry.get(k) for k in URL_KEYS) if isinstance(u, str) and u]
                if not urls:
                    raise OracleFileError(
                        f"{where}: {place} has no {' or '.join(URL_KEYS)} (set match: file_name)"
                    )
            else:
                name = entry.get("file_name")
                if not isinstance(name, str) or not file_name(name):
                    raise OracleFileError(f"{where}: {place} has no file_name")
                urls = [file_name(name)]
            image = _Image(float(width), float(height))
            for url in dict.fromkeys(urls):
                if url in owner:
                    raise OracleFileError(
                        f"{where}: {place} has {url}, as image id {owner[url]} does"
                    )
                owner[url] = entry["id"]
                by_key[url] = image
            by_id[entry["id"]] = image
        return by_id, by_key

    def _annotate(self, raw: dict[str, Any], by_id: dict[int, _Image], where: str) -> None:
        for i, entry in enumerate(_list(raw, "annotations", where)):
            place = f"annotations[{i}]"
            entry = _entry(entry, place, where, ("id", "image_id", "category_id", "bbox"))
            place = f"annotations[{i}] (id {entry['id']})"
            image_id, category_id = entry["image_id"], entry["category_id"]
            if type(image_id) is not int or image_id not in by_id:
                raise OracleFileError(f"{where}: {place} has image_id {image_id!r}, not in images")
            if type(category_id) is not int or category_id not in self._category:
                raise OracleFileError(
                    f"{where}: {place} has category_id {category_id!r}, not in categories"
                )
            bbox = entry["bbox"]
            if not (
                isinstance(bbox, list)
                and len(bbox) == 4
                and all(_number(v) for v in bbox)
                and bbox[2] >= 0
                and bbox[3] >= 0
            ):
                raise OracleFileError(f"{where}: {place} has a bad bbox {bbox!r}")
            crowd = entry.get("iscrowd", 0)
            if crowd not in (0, 1) or isinstance(crowd, bool):
                raise OracleFileError(f"{where}: {place} has iscrowd {crowd!r}, not 0 or 1")
            label = self._category[category_id]
            image = by_id[image_id]
            image.present.add(label)
            if not crowd:
                x, y, w, h = (float(v) for v in bbox)
                image.boxes.append((label, x, y, w, h))

    @property
    def labels(self) -> frozenset[str]:
        return self._labels

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        return [self._detection(item) for item in items]

    def _detection(self, item: ImageItem) -> Detection:
        image = self._images.get(match_key(item.url, self.config.match))
        if image is None:
            return Detection()
        width, height = item.image.size
        scale = max(width / image.width, height / image.height)
        dx, dy = (image.width * scale - width) / 2, (image.height * scale - height) / 2
        boxes = []
        for label, x, y, w, h in image.boxes:
            x0, x1 = (min(max(v * scale - dx, 0.0), width) for v in (x, x + w))
            y0, y1 = (min(max(v * scale - dy, 0.0), height) for v in (y, y + h))
            if x1 > x0 and y1 > y0:  # else cropped out of the ingested image
                boxes.append(
                    Box(label=label, score=1.0, x0=x0, y0=y0, x1=x1, y1=y1, source=self.name)
                )
        return Detection(
            boxes=boxes, scores={label: float(label in image.present) for label in self._labels}
        )
