"""Labels per image from CSV and JSONL tables: scores per listed image, silence for others,
one-line errors naming the config key and the line for bad files, and a million-row file
streamed in."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from negdata.config import ConfigError, TableSource, load_config
from negdata.detect.base import ImageItem
from negdata.detect.oracles.table import TableDetector

VOCAB = frozenset({"person", "bus", "cat", "cup"})


def _item(url: str) -> ImageItem:
    return ImageItem(key="000000000", url=url, caption="", image=Image.new("RGB", (8, 8)))


def _detector(path: Path, vocabulary: frozenset[str] = VOCAB, **options: Any) -> TableDetector:
    return TableDetector(TableSource(kind="table", path=path, **options), vocabulary, 0)


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "labels.csv"
    path.write_text(text)
    return path


def _jsonl(tmp_path: Path, rows: list[Any]) -> Path:
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_csv_rows_give_their_scores_and_every_other_vocabulary_label_zero(
    tmp_path: Path,
) -> None:
    path = _csv(
        tmp_path,
        "url,label,score,annotator\n"
        "https://x.org/a.jpg,bus,1,ann1\n"
        "https://x.org/b.jpg,cat,0.25,ann2\n"
        "https://x.org/a.jpg,person,,ann1\n",  # no score: present
    )
    detector = _detector(path)
    a, b, other = detector.detect(
        [_item("https://x.org/a.jpg"), _item("https://x.org/b.jpg"), _item("https://x.org/c.jpg")]
    )
    assert a.scores == {"bus": 1.0, "person": 1.0, "cat": 0.0, "cup": 0.0}
    assert b.scores == {"bus": 0.0, "person": 0.0, "cat": 0.25, "cup": 0.0}
    assert other.scores == {} and other.boxes == []
    assert detector.labels == VOCAB and detector.name == "table:labels.csv"


def test_jsonl_rows_read_as_csv_rows_do(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path,
        [
            {"url": "https://x.org/a.jpg", "label": "bus"},
            {"url": "https://x.org/a.jpg", "label": "cup", "score": 0.5},
            {"url": "https://x.org/b.jpg", "label": ""},  # listed, with nothing in it
        ],
    )
    a, b = _detector(path).detect([_item("https://x.org/a.jpg"), _item("https://x.org/b.jpg")])
    assert a.scores == {"bus": 1.0, "cup": 0.5, "cat": 0.0, "person": 0.0}
    assert b.scores == dict.fromkeys(VOCAB, 0.0)


def test_unlisted_unknown_covers_only_the_labels_an_image_has_rows_for(tmp_path: Path) -> None:
    path = _csv(
        tmp_path,
        "url,label,score\nhttps://x.org/a.jpg,cat,0\nhttps://x.org/a.jpg,bus,1\n"
        "https://x.org/b.jpg,cat,1\n",
    )
    detector = _detector(path, unlisted="unknown")
    a, b = detector.detect([_item("https://x.org/a.jpg"), _item("https://x.org/b.jpg")])
    assert a.scores == {"cat": 0.0, "bus": 1.0}  # verified absent, verified present
    assert b.scores == {"cat": 1.0}  # person, bus, cup: unknown, not absent
    assert detector.labels == {"cat", "bus"}


def test_class_map_names_file_labels_and_two_onto_one_label_keep_the_max(
    tmp_path: Path,
) -> None:
    path = _csv(
        tmp_path,
        "url,label,score\nfile:///p/a.jpg,Woman,0.4\nfile:///p/a.jpg,Man,0.9\n"
        "file:///p/a.jpg,Coach,0.2\n",
    )
    detector = _detector(path, class_map={"Woman": "person", "Man": "person", "Coach": "bus"})
    (det,) = detector.detect([_item("file:///p/a.jpg")])
    assert det.scores == {"person": 0.9, "bus": 0.2, "cat": 0.0, "cup": 0.0}


def test_match_file_name_finds_an_image_by_its_last_path_segment(tmp_path: Path) -> None:
    path = _csv(tmp_path, "url,label\nimages/0001.jpg,cat\n")
    (det,) = _detector(path, match="file_name").detect([_item("s3://bucket/crawl/0001.jpg")])
    assert det.scores["cat"] == 1.0


HOSTILE_CSV = [
    ("url,name\nhttps://x.org/a.jpg,cat\n", r"line 1: the header \['url', 'name'\] has no label"),
    ("", r"empty file: expected a header"),
    ("url,label,score\nhttps://x.org/a.jpg,cat,yes\n", r"line 2: score 'yes' is not a number"),
    ("url,label,score\nhttps://x.org/a.jpg,cat,2.0\n", r"line 2: score '2.0' is not a number"),
    ("url,label,score\nhttps://x.org/a.jpg,cat,NaN\n", r"line 2: score 'NaN' is not a number"),
    ("url,label,score\nhttps://x.org/a.jpg,cat,-0.1\n", r"line 2: score '-0.1' is not"),
    ("url,label\nhttps://x.org/a.jpg,dinning table\n",
     r"line 2: label 'dinning table' is not in the vocabulary \(map it with class_map\)"),
    ("url,label\nhttps://x.org/a.jpg,cat\nhttps://x.org/b.jpg,bus\nhttps://x.org/a.jpg,cat\n",
     r"line 4: https://x.org/a.jpg lists 'cat' again"),
    ("url,label,score\nhttps://x.org/a.jpg,cat,1\nhttps://x.org/b.jpg,bu",
     r"line 3: 2 fields, the header has 3"),  # truncated mid-row
    ('url,label\nhttps://x.org/a.jpg,cat\n"https://x.org/b.jpg,bus\n', r"line \d: not valid CSV"),
    ("url,label,score\nhttps://x.org/a.jpg,,1\n", r"line 2: a score without a label"),
    ("url,label\n,cat\n", r"line 2: empty url"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), HOSTILE_CSV)
def test_a_bad_csv_stops_the_load_naming_the_config_key_and_the_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = _csv(tmp_path, text)
    with pytest.raises(
        ValueError, match=r"^detect\.sources\[0\]\.path \(.*labels\.csv\): " + message
    ):
        _detector(path)


HOSTILE_JSONL = [
    ('{"url": "https://x.org/a.jpg", "label": "cat"}\n{"url": "https://x.org/b.jp',
     r"line 2: not valid JSON"),  # truncated
    ('{"url": "https://x.org/a.jpg"}\n', r"line 1: no label"),
    ('["https://x.org/a.jpg", "cat"]\n', r"line 1: expected an object with url and label"),
    ('{"url": "https://x.org/a.jpg", "label": "cat", "score": "yes"}\n',
     r"line 1: score 'yes' is not a number in \[0, 1\]"),
    ('{"url": "https://x.org/a.jpg", "label": "cat", "score": true}\n',
     r"line 1: score True is not a number"),
    ('{"url": "https://x.org/a.jpg", "label": "cat", "score": NaN}\n',
     r"line 1: score nan is not a number"),
    ('{"url": "https://x.org/a.jpg", "label": 3}\n', r"line 1: url and label must be strings"),
    (b'{"url": "https://x.org/\xff.jpg", "label": "cat"}\n', r"line 1: not valid JSON"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), HOSTILE_JSONL)
def test_a_bad_jsonl_line_stops_the_load_naming_the_config_key_and_the_line(
    tmp_path: Path, text: str | bytes, message: str
) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ValueError, match=r"^detect\.sources\[0\]\.path \(.*\): " + message):
        _detector(path)


def test_two_urls_with_one_file_name_are_ambiguous_under_match_file_name(
    tmp_path: Path,
) -> None:
    path = _csv(tmp_path, "url,label\nhttps://a.org/1.jpg,cat\nhttps://b.org/1.jpg,bus\n")
    with pytest.raises(ValueError, match=r"line 3: https://b.org/1.jpg has the file name of"):
        _detector(path, match="file_name")
    assert _detector(path).detect([_item("https://b.org/1.jpg")])[0].scores["bus"] == 1.0


def test_a_file_that_is_neither_csv_nor_jsonl_and_a_missing_one_name_the_key(
    tmp_path: Path,
) -> None:
    (tmp_path / "labels.txt").write_text("url,label\n")
    with pytest.raises(ValueError, match=r"^detect\.sources\[0\]\.path .*a \.csv or \.jsonl"):
        _detector(tmp_path / "labels.txt")
    with pytest.raises(FileNotFoundError, match=r"^detect\.sources\[0\]\.path: .*nope\.csv"):
        _detector(tmp_path / "nope.csv")


def test_a_million_row_csv_streams_in_and_answers_for_its_images(tmp_path: Path) -> None:
    """10^6 rows: 250,000 images with 4 rows each, written and read through real files."""
    labels = sorted(VOCAB)
    path = tmp_path / "big.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["url", "label", "score"])
        for image in range(250_000):
            url = f"https://x.org/{image:06d}.jpg"
            writer.writerows((url, label, (image + j) % 5 / 4) for j, label in enumerate(labels))
    detector = _detector(path)
    picked = [0, 123_457, 249_999]
    detections = detector.detect([_item(f"https://x.org/{image:06d}.jpg") for image in picked])
    for image, det in zip(picked, detections, strict=True):
        assert det.scores == {label: (image + j) % 5 / 4 for j, label in enumerate(labels)}
    assert detector.detect([_item("https://x.org/250000.jpg")])[0].scores == {}


def test_a_bad_option_of_an_oracle_source_is_a_config_error_naming_its_key(
    tmp_path: Path,
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "input": {"path": "in.tsv"},
                "detect": {
                    "sources": [
                        {"kind": "coco", "path": "instances_val2017.json", "match": "file_name"},
                        {"kind": "table", "path": "labels.csv", "unlisted": "maybe"},
                    ]
                },
            }
        )
    )
    with pytest.raises(ConfigError, match=r"detect\.sources\.1\.unlisted: Input should be"):
        load_config(config)
