"""Ground-truth labels: 1.0 for listed labels, 0.0 for the rest of the vocabulary, silence else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from negdata.config import LabelsSource
from negdata.detect.base import ImageItem
from negdata.detect.labels import LabelsDetector
from negdata.detect.vocab import COCO80
from negdata.sample import build_sample

VOCAB = frozenset({"person", "bus", "cat", "cup"})


def _item(url: str) -> ImageItem:
    return ImageItem(key="000000000", url=url, caption="", image=Image.new("RGB", (8, 8)))


def _detector(tmp_path: Path, labels: object, vocabulary: frozenset[str] = VOCAB) -> LabelsDetector:
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(labels))
    return LabelsDetector(LabelsSource(kind="labels", path=path), vocabulary, 0)


def test_listed_labels_score_one_and_other_vocabulary_labels_zero(tmp_path: Path) -> None:
    detector = _detector(tmp_path, {"file:///bus.jpg": ["bus", "person"]})
    (det,) = detector.detect([_item("file:///bus.jpg")])
    assert det.scores == {"bus": 1.0, "person": 1.0, "cat": 0.0, "cup": 0.0}
    assert det.boxes == []


def test_an_image_listed_with_no_labels_rules_out_the_whole_vocabulary(tmp_path: Path) -> None:
    (det,) = _detector(tmp_path, {"file:///sky.jpg": []}).detect([_item("file:///sky.jpg")])
    assert det.scores == dict.fromkeys(VOCAB, 0.0)


def test_an_unknown_url_covers_nothing(tmp_path: Path) -> None:
    detector = _detector(tmp_path, {"file:///bus.jpg": ["bus"]})
    (det,) = detector.detect([_item("https://example.com/other.jpg")])
    assert det.scores == {} and det.boxes == []


def test_labels_are_the_vocabulary_and_the_name_is_the_file(tmp_path: Path) -> None:
    detector = _detector(tmp_path, {})
    assert detector.labels == VOCAB
    assert detector.name == "labels:labels.json"


def test_a_missing_file_names_the_config_key(tmp_path: Path) -> None:
    cfg = LabelsSource(kind="labels", path=tmp_path / "nope.json")
    with pytest.raises(FileNotFoundError, match=r"detect\.sources\[2\]\.path.*nope\.json"):
        LabelsDetector(cfg, VOCAB, 2)


def test_a_label_outside_the_vocabulary_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"outside the vocabulary: \['dinning table'\]"):
        _detector(tmp_path, {"file:///a.jpg": ["dinning table"]})


def test_the_sample_labels_load_against_coco(tmp_path: Path) -> None:
    files = build_sample(tmp_path / "sample")
    detector = LabelsDetector(LabelsSource(kind="labels", path=files.labels), frozenset(COCO80), 0)
    url = next(u for u in json.loads(files.labels.read_text()) if u.endswith("/chelsea.png"))
    (det,) = detector.detect([_item(url)])
    assert det.scores["cat"] == 1.0
    assert det.scores["dog"] == 0.0
