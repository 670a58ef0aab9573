"""The detect stage end to end on a real ingested shard: labels + a yaml-built YOLO model."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from negdata.cli import PERSON_WEIGHTS
from negdata.config import Config, DetectConfig
from negdata.detect.base import Detection, ImageItem
from negdata.detect.decode import RawSample
from negdata.detect.detectors import build_detectors, detect_batches
from negdata.detect.stage import run_detect
from negdata.ingest.stage import run_ingest
from negdata.records import Evidence, read_parquet
from negdata.sample import package_file


def test_yaml_built_model_and_labels_run_through_the_detect_stage(tmp_path: Path) -> None:
    bus = package_file("ultralytics", "assets/bus.jpg")
    coffee = package_file("skimage", "data/coffee.png")
    (tmp_path / "in.tsv").write_text(f"{bus.as_uri()}\ta bus\n{coffee.as_uri()}\tcoffee\n")
    (tmp_path / "labels.json").write_text(json.dumps({bus.as_uri(): ["bus", "person"]}))
    coco = yaml.safe_load(package_file("ultralytics", "cfg/datasets/coco.yaml").read_text())
    cfg = Config.model_validate(
        {
            "run": {"output_dir": str(tmp_path / "out")},
            "input": {
                "path": str(tmp_path / "in.tsv"),
                "files_root": os.path.commonpath([bus, coffee]),  # both photos, in site-packages
            },
            "ingest": {"allow_file_urls": True},
            "detect": {
                "sources": [
                    {"kind": "labels", "path": str(tmp_path / "labels.json")},
                    {
                        "kind": "yolo",
                        "weights": "yolo11n.yaml",
                        "imgsz": 320,
                        "class_map": {str(k): v for k, v in coco["names"].items()},
                    },
                ]
            },
        }
    )
    run_ingest(cfg, 0, "h")

    stats = run_detect(cfg.detect, cfg.run.output_dir, 0, "h")

    assert stats["count"] == 2 and stats["sources"] == ["labels:labels.json", "yolo:yolo11n.yaml"]
    bus_ev, coffee_ev = read_parquet(cfg.run.output_dir / "evidence/00000.parquet", Evidence)
    assert bus_ev.key == "000000000" and coffee_ev.key == "000000001"
    bus_scores = bus_ev.score_map()
    assert len(bus_scores) == 80  # the labels oracle and the model both cover COCO
    assert bus_scores["bus"] == 1.0 and bus_scores["person"] == 1.0
    # The coffee photo is not in the labels file: only the (random-weight) model covers it.
    assert set(coffee_ev.score_map()) == set(coco["names"].values())
    assert (cfg.run.output_dir / "evidence/00000_stats.json").exists()


def test_shards_that_start_detecting_together_load_the_model_once() -> None:
    """The flow detects several shards at once, in threads: they share one load. (The conf is
    one no other test uses, so this process has not loaded this model yet.)"""
    cfg = DetectConfig.model_validate(
        {
            "sources": [
                {
                    "kind": "yolo",
                    "weights": str(package_file(*PERSON_WEIGHTS)),
                    "class_map": {"Normal": "person", "Fall": "person"},
                    "conf": 0.0421,
                }
            ]
        }
    )
    with ThreadPoolExecutor(4) as pool:
        loaded = list(pool.map(lambda _: build_detectors(cfg), range(4)))

    assert all(detectors is loaded[0] for detectors in loaded)


class _Short:
    """A source that leaves the last image of every batch out (a stand-in: no real source
    does so now that NMS has no time limit)."""

    name = "short"
    labels = frozenset({"cat"})

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        return [Detection(boxes=[], scores={"cat": 0.0}) for _ in items[:-1]]


def test_a_batch_a_source_answered_in_part_fails_in_one_line() -> None:
    samples = [
        RawSample(key=f"{n:09d}", url="file:///a.jpg", caption="", jpg=b"") for n in range(3)
    ]
    with pytest.raises(RuntimeError, match="short gave 2 detections for a batch of 3 images"):
        list(detect_batches([_Short()], [samples], decode_workers=1))
