"""A COCO instances file as ground truth: present and absent per category, boxes on the
ingested image, silence for images the file does not have, one-line errors for bad files."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from negdata.config import CocoSource, Config
from negdata.detect.base import ImageItem
from negdata.detect.oracles.coco import CocoDetector
from negdata.detect.stage import run_detect
from negdata.detect.vocab import COCO80
from negdata.records import Evidence, read_parquet
from tests.detect.conftest import BUS, COFFEE, IngestTwoPhotos

VOCAB = frozenset(COCO80)
URL = "http://images.cocodataset.org/val2017/000000000139.jpg"
FLICKR = "http://farm9.staticflickr.com/8035/8024364858_9c41dc1666_z.jpg"


def _coco() -> dict[str, Any]:
    """Two images in COCO's own layout: a 640x480 one with a dog and a crowd of people, and an
    empty 400x200 one (annotated, with no objects)."""
    return {
        "info": {"description": "test"},
        "images": [
            {"id": 139, "file_name": "000000000139.jpg", "width": 640, "height": 480,
             "coco_url": URL, "flickr_url": FLICKR},
            {"id": 7, "file_name": "val2017/empty photo.jpg", "width": 400, "height": 200,
             "coco_url": "http://images.cocodataset.org/val2017/empty.jpg"},
        ],
        "annotations": [
            {"id": 1, "image_id": 139, "category_id": 18, "bbox": [10, 20, 100, 50],
             "iscrowd": 0, "area": 5000},
            {"id": 2, "image_id": 139, "category_id": 1, "bbox": [200, 100, 300, 200],
             "iscrowd": 1, "area": 60000},
        ],
        "categories": [
            {"id": 1, "name": "person", "supercategory": "person"},
            {"id": 17, "name": "cat", "supercategory": "animal"},
            {"id": 18, "name": "dog", "supercategory": "animal"},
        ],
    }  # fmt: skip


def _item(url: str, size: tuple[int, int] = (320, 240)) -> ImageItem:
    return ImageItem(key="000000000", url=url, caption="", image=Image.new("RGB", size))


def _write(tmp_path: Path, coco: object) -> Path:
    path = tmp_path / "instances_val2017.json"
    path.write_text(json.dumps(coco))
    return path


def _detector(tmp_path: Path, coco: object, **options: Any) -> CocoDetector:
    source = CocoSource(kind="coco", path=_write(tmp_path, coco), **options)
    return CocoDetector(source, VOCAB, 0)


def test_annotated_categories_score_one_the_others_zero_and_boxes_are_scaled(
    tmp_path: Path,
) -> None:
    detector = _detector(tmp_path, _coco())
    (det,) = detector.detect([_item(URL)])  # ingested at half the original size
    assert det.scores == {"person": 1.0, "dog": 1.0, "cat": 0.0}
    (box,) = det.boxes  # the crowd region marks person present but gives no box
    assert (box.label, box.score, box.source) == ("dog", 1.0, "coco:instances_val2017.json")
    assert (box.x0, box.y0, box.x1, box.y1) == (5.0, 10.0, 55.0, 35.0)


def test_the_labels_are_the_files_categories_and_an_unknown_image_gets_nothing(
    tmp_path: Path,
) -> None:
    detector = _detector(tmp_path, _coco())
    assert detector.labels == {"person", "cat", "dog"}
    (det,) = detector.detect([_item("http://images.cocodataset.org/val2017/000000999999.jpg")])
    assert det.scores == {} and det.boxes == []


def test_an_image_without_annotations_rules_out_every_category(tmp_path: Path) -> None:
    (det,) = _detector(tmp_path, _coco()).detect(
        [_item("http://images.cocodataset.org/val2017/empty.jpg")]
    )
    assert det.scores == {"person": 0.0, "cat": 0.0, "dog": 0.0} and det.boxes == []


def test_match_url_tries_coco_url_then_flickr_url(tmp_path: Path) -> None:
    detector = _detector(tmp_path, _coco())
    by_coco, by_flickr, by_name = detector.detect(
        [_item(URL), _item(FLICKR), _item("file:///photos/000000000139.jpg")]
    )
    assert by_coco.scores == by_flickr.scores and by_flickr.scores["dog"] == 1.0
    assert by_name.scores == {}


def test_match_file_name_compares_the_last_path_segment(tmp_path: Path) -> None:
    detector = _detector(tmp_path, _coco(), match="file_name")
    named, quoted = detector.detect(
        [
            _item("file:///data/coco/val2017/000000000139.jpg"),
            _item("https://mirror.example/x/empty%20photo.jpg?sig=1", (100, 50)),
        ]
    )
    assert named.scores["dog"] == 1.0
    assert quoted.scores == {"person": 0.0, "cat": 0.0, "dog": 0.0}


def test_a_centre_cropped_image_gets_shifted_boxes_and_loses_those_cropped_out(
    tmp_path: Path,
) -> None:
    coco = _coco()
    coco["annotations"] = [
        {"id": 1, "image_id": 7, "category_id": 17, "bbox": [0, 0, 50, 50]},  # left edge
        {"id": 2, "image_id": 7, "category_id": 18, "bbox": [150, 50, 100, 100]},  # centre
    ]
    # 400x200 -> a 100x100 centre crop: scale 0.5, the crop starts 50 px in from the left.
    (det,) = _detector(tmp_path, coco).detect(
        [_item("http://images.cocodataset.org/val2017/empty.jpg", (100, 100))]
    )
    assert det.scores == {"person": 0.0, "cat": 1.0, "dog": 1.0}  # cropped out: still present
    assert [(b.label, b.x0, b.y0, b.x1, b.y1) for b in det.boxes] == [
        ("dog", 25.0, 25.0, 75.0, 75.0)
    ]


def test_class_map_takes_other_category_names_into_the_vocabulary(tmp_path: Path) -> None:
    coco = _coco()
    coco["categories"] = [
        {"id": 1, "name": "pedestrian"},
        {"id": 17, "name": "Cat"},
        {"id": 18, "name": "puppy"},
    ]
    detector = _detector(
        tmp_path, coco, class_map={"pedestrian": "person", "Cat": "cat", "puppy": "dog"}
    )
    (det,) = detector.detect([_item(URL)])
    assert det.scores == {"person": 1.0, "dog": 1.0, "cat": 0.0}
    assert [b.label for b in det.boxes] == ["dog"]


_DELETE = object()


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change to the COCO dict at a dotted path (list indices as numbers)."""

    def change(coco: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = coco
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is _DELETE:
            del target[int(last) if last.isdigit() else last]
        else:
            target[int(last) if last.isdigit() else last] = value

    return change


HOSTILE = [
    (_set("annotations.0.category_id", 99),
     r"annotations\[0\] \(id 1\) has category_id 99, not in categories"),
    (_set("annotations.1.image_id", 5), r"annotations\[1\] \(id 2\) has image_id 5, not in images"),
    (_set("annotations.0.bbox", [1, 2, 3]),
     r"annotations\[0\] \(id 1\) has a bad bbox \[1, 2, 3\]"),
    (_set("annotations.0.bbox", [1, 2, -3, 4]), r"annotations\[0\] \(id 1\) has a bad bbox"),
    (_set("annotations.0.bbox", [1, 2, "3", 4]), r"annotations\[0\] \(id 1\) has a bad bbox"),
    (_set("annotations.0.iscrowd", 2), r"annotations\[0\] \(id 1\) has iscrowd 2, not 0 or 1"),
    (_set("annotations.0.bbox", _DELETE), r"annotations\[0\] has no bbox"),
    (_set("annotations", _DELETE), r"no 'annotations' list \(is it a COCO instances file\?\)"),
    (_set("images.1.id", 139), r"images\[1\] \(id 139\) repeats an image id"),
    (_set("images.1.coco_url", URL),
     r"images\[1\] \(id 7\) has .*000000000139\.jpg, as image id 139"),
    (_set("images.1.coco_url", ""),
     r"images\[1\] \(id 7\) has no coco_url or flickr_url \(set match: file_name\)"),
    (_set("images.0.width", 0), r"images\[0\] \(id 139\) has a bad size 0 x 480"),
    (_set("images.0.height", _DELETE), r"images\[0\] has no height"),
    (_set("images.0", "photo.jpg"), r"images\[0\] is not an object"),
    (_set("categories.2.id", 1), r"categories\[2\] repeats category id 1"),
    (_set("categories.2.name", "unicorn"),
     r"categories outside the vocabulary: \['unicorn'\] \(map them"),
    (_set("categories.0.id", "1"), r"categories\[0\] has a non-integer id '1'"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), HOSTILE)
def test_a_bad_file_stops_the_load_naming_the_config_key_and_the_entry(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    coco = copy.deepcopy(_coco())
    change(coco)
    path = _write(tmp_path, coco)
    with pytest.raises(ValueError, match=r"^detect\.sources\[3\]\.path \(.*\): " + message):
        CocoDetector(CocoSource(kind="coco", path=path), VOCAB, 3)


def test_a_repeated_category_id_is_refused_even_for_a_category_outside_the_vocabulary(
    tmp_path: Path,
) -> None:
    coco = _coco()
    coco["categories"][0]["name"] = "unicorn"
    coco["categories"][2]["id"] = 1
    with pytest.raises(ValueError, match=r"categories\[2\] repeats category id 1"):
        CocoDetector(CocoSource(kind="coco", path=_write(tmp_path, coco)), VOCAB, 0)


def test_a_nan_box_is_refused(tmp_path: Path) -> None:
    """JSON has no NaN, but Python's json (and other writers) emit it; it is not a box."""
    path = _write(tmp_path, _coco())
    path.write_text(path.read_text().replace("[10, 20, 100, 50]", "[10, NaN, 100, 50]"))
    with pytest.raises(ValueError, match=r"annotations\[0\] \(id 1\) has a bad bbox \[10, nan"):
        CocoDetector(CocoSource(kind="coco", path=path), VOCAB, 0)


def test_a_truncated_file_is_not_valid_json(tmp_path: Path) -> None:
    path = _write(tmp_path, _coco())
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(ValueError, match=r"^detect\.sources\[0\]\.path \(.*\): not valid JSON"):
        CocoDetector(CocoSource(kind="coco", path=path), VOCAB, 0)


def test_a_missing_file_names_the_config_key(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"^detect\.sources\[1\]\.path: .*nope\.json"):
        CocoDetector(CocoSource(kind="coco", path=tmp_path / "nope.json"), VOCAB, 1)


def test_the_detect_stage_writes_a_coco_and_a_table_oracles_evidence(
    tmp_path: Path, ingest_two_photos: IngestTwoPhotos
) -> None:
    """A real ingested shard of two photos: the COCO file has the bus photo (by its URL), a CSV
    table the coffee one; each covers only its own image."""
    coco = {
        "images": [
            {"id": 1, "file_name": "bus.jpg", "width": 810, "height": 1080,
             "coco_url": BUS.as_uri()}
        ],
        "annotations": [
            {"id": 10, "image_id": 1, "category_id": 6, "bbox": [27.0, 216.0, 783.0, 540.0],
             "iscrowd": 0},
            {"id": 11, "image_id": 1, "category_id": 1, "bbox": [54.0, 405.0, 189.0, 486.0],
             "iscrowd": 0},
            {"id": 12, "image_id": 1, "category_id": 1, "bbox": [0.0, 540.0, 810.0, 540.0],
             "iscrowd": 1},
        ],
        "categories": [
            {"id": 1, "name": "person"}, {"id": 6, "name": "bus"}, {"id": 47, "name": "cup"}
        ],
    }  # fmt: skip
    (tmp_path / "instances_test.json").write_text(json.dumps(coco))
    (tmp_path / "labels.csv").write_text(f"url,label,score\n{COFFEE.as_uri()},cup,1\n")
    cfg = ingest_two_photos(
        {
            "sources": [
                {"kind": "coco", "path": str(tmp_path / "instances_test.json")},
                {"kind": "table", "path": str(tmp_path / "labels.csv")},
            ]
        }
    )

    stats = run_detect(cfg.detect, cfg.run.output_dir, 0, "h")

    assert stats["sources"] == ["coco:instances_test.json", "table:labels.csv"]
    assert stats["count"] == 2 and stats["boxes"] == 2  # the crowd region has no box
    bus_ev, coffee_ev = read_parquet(cfg.run.output_dir / "evidence/00000.parquet", Evidence)
    assert bus_ev.score_map() == {"person": 1.0, "bus": 1.0, "cup": 0.0}
    scale = 512 / 1080
    assert [(b.label, b.score, b.source) for b in bus_ev.boxes] == [
        ("bus", 1.0, "coco:instances_test.json"),
        ("person", 1.0, "coco:instances_test.json"),
    ]
    b = bus_ev.boxes[0]
    assert [b.x0, b.y0, b.x1, b.y1] == pytest.approx(
        [27 * scale, 216 * scale, 810 * scale, 756 * scale]
    ) and bus_ev.boxes[0].x1 <= 384
    coffee_scores = coffee_ev.score_map()
    assert len(coffee_scores) == 80 and coffee_scores["cup"] == 1.0
    assert sum(coffee_scores.values()) == 1.0 and coffee_ev.boxes == []


def test_the_provenance_of_an_oracle_names_its_file_and_hash(tmp_path: Path) -> None:
    from negdata.publish.provenance import detector_sources

    path = _write(tmp_path, _coco())
    table = tmp_path / "labels.csv"
    table.write_text("url,label\nfile:///a.jpg,dog\n")
    cfg = Config.model_validate(
        {
            "input": {"path": "in.tsv"},
            "detect": {
                "sources": [
                    {"kind": "coco", "path": str(path)},
                    {"kind": "table", "path": str(table)},
                ]
            },
        }
    )

    coco, tab = detector_sources(cfg)

    assert (coco.kind, coco.file, tab.kind, tab.file) == ("coco", path.name, "table", "labels.csv")
    assert coco.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert tab.sha256 == hashlib.sha256(table.read_bytes()).hexdigest()
    assert coco.settings["match"] == "url"
