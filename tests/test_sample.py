"""The bundled sample builds from installed packages into CC12M-format input with labels."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
import yaml
from PIL import Image

from negdata.sample import SampleFiles, build_sample, load_manifest, package_file


def _coco_names() -> set[str]:
    coco = yaml.safe_load(package_file("ultralytics", "cfg/datasets/coco.yaml").read_text())
    return set(coco["names"].values())


def _path(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(url2pathname(parsed.path))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> SampleFiles:
    return build_sample(tmp_path_factory.mktemp("sample"))


def test_tsv_has_one_url_and_caption_per_image_in_manifest_order(sample: SampleFiles) -> None:
    rows = [line.split("\t") for line in sample.tsv.read_text().splitlines()]
    assert len(rows) == 14
    assert all(len(row) == 2 and row[1].strip() for row in rows)
    assert [_path(url).stem for url, _ in rows] == [image.id for image in load_manifest()]


def test_every_url_is_an_absolute_file_url_to_a_readable_image(sample: SampleFiles) -> None:
    for line in sample.tsv.read_text().splitlines():
        path = _path(line.split("\t")[0])
        assert path.is_absolute()
        with Image.open(path) as image:
            image.load()
            assert image.width > 0 and image.height > 0


def test_images_keep_their_original_bytes_and_format(sample: SampleFiles) -> None:
    images = sample.tsv.parent / "images"
    for entry in load_manifest():
        source = package_file(entry.package, entry.path)
        assert (images / f"{entry.id}{source.suffix}").read_bytes() == source.read_bytes()


def test_labels_are_sorted_coco_names_keyed_by_tsv_url(sample: SampleFiles) -> None:
    labels = json.loads(sample.labels.read_text())
    urls = [line.split("\t")[0] for line in sample.tsv.read_text().splitlines()]
    assert list(labels) == urls
    coco = _coco_names()
    for names in labels.values():
        assert names == sorted(names)
        assert set(names) <= coco
    by_id = {_path(url).stem: set(names) for url, names in labels.items()}
    assert by_id["bus"] >= {"bus", "person"}
    assert by_id["chelsea"] == {"cat"}
    assert by_id["hubble_deep_field"] == set()


def test_a_second_build_rewrites_nothing(tmp_path: Path) -> None:
    build_sample(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    build_sample(tmp_path)
    after = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    assert after == before


def test_a_missing_package_is_named_in_the_error() -> None:
    with pytest.raises(FileNotFoundError, match="'no_such_package_xyz' is not installed"):
        package_file("no_such_package_xyz", "data/x.png")


def test_a_missing_file_is_named_with_its_package() -> None:
    with pytest.raises(FileNotFoundError, match=r"data/nope\.png is missing .* 'skimage'"):
        package_file("skimage", "data/nope.png")
