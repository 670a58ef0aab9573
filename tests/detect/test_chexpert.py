"""CheXpert-style labels: 1 present, 0 absent, -1 uncertain (neither), blank not covered."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from negdata.config import ChexpertSource, Config, ConfigError, DetectConfig, load_config
from negdata.detect.base import ImageItem, combine
from negdata.detect.chexpert import COLUMNS, ChexpertDetector
from negdata.detect.detectors import build_detectors
from negdata.detect.lexicon import lexicon_for
from negdata.detect.stage import run_detect
from negdata.detect.vocab import CHEXPERT_FINDINGS, vocabulary
from negdata.verify import evidence_verdicts
from tests.detect.conftest import BUS, IngestTwoPhotos

DETECT = DetectConfig.model_validate(
    {"vocabulary": "chexpert", "sources": [{"kind": "chexpert", "path": "unused.csv"}]}
)


def _csv(tmp_path: Path, rows: list[dict[str, str]], columns: tuple[str, ...] = COLUMNS) -> Path:
    header = ("Path", "Sex", *columns)
    lines = [",".join(header)]
    lines += [",".join(row.get(c, "") for c in header) for row in rows]
    path = tmp_path / "labels.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _detector(path: Path, detect: DetectConfig = DETECT, index: int = 0) -> ChexpertDetector:
    return ChexpertDetector(ChexpertSource(kind="chexpert", path=path), detect, index)


def _item(url: str) -> ImageItem:
    return ImageItem(key="000000000", url=url, caption="", image=Image.new("RGB", (8, 8)))


def test_present_absent_uncertain_and_blank_findings(tmp_path: Path) -> None:
    row = {
        "Path": "train/patient1/study1/view1_frontal.jpg",
        "Cardiomegaly": "1.0",
        "Pleural Effusion": "0.0",
        "Pneumonia": "-1.0",
        "Consolidation": "0",
        "Support Devices": "1",
    }
    detector = _detector(_csv(tmp_path, [row]))
    url = "file:///data/chexpert/train/patient1/study1/view1_frontal.jpg"
    (det,) = detector.detect([_item(url)])
    assert det.scores["cardiomegaly"] == 1.0
    assert det.scores["pleural effusion"] == 0.0
    assert DETECT.t_absent < det.scores["pneumonia"] < DETECT.t_present
    assert "edema" not in det.scores  # blank: the report never mentioned it
    verdicts = evidence_verdicts(
        combine("k", [detector.name], [det]), lexicon_for("chexpert"), DETECT
    )
    assert verdicts["cardiomegaly"] == "present"
    assert verdicts["pleural effusion"] == "absent"
    assert verdicts["pneumonia"] == "uncertain"
    assert verdicts["edema"] == "unverifiable"
    # CheXpert's hierarchy: consolidation covers pneumonia, so an uncertain pneumonia keeps
    # "no consolidation" from being said where the report ruled consolidation out.
    assert verdicts["consolidation"] == "uncertain"


def test_uncertain_follows_the_thresholds(tmp_path: Path) -> None:
    detect = DETECT.model_copy(update={"t_absent": 0.3, "t_present": 0.9})
    path = _csv(tmp_path, [{"Path": "a.png", "Edema": "-1"}])
    (det,) = _detector(path, detect).detect([_item("file:///x/a.png")])
    assert det.scores == {"edema": pytest.approx(0.6)}


def test_an_image_the_csv_does_not_list_covers_nothing(tmp_path: Path) -> None:
    path = _csv(tmp_path, [{"Path": "images/a.png", "Edema": "1"}])
    (det,) = _detector(path).detect([_item("file:///x/images/b.png")])
    assert det.scores == {} and det.boxes == []


def test_a_full_url_in_the_csv_matches_exactly(tmp_path: Path) -> None:
    path = _csv(tmp_path, [{"Path": "https://example.org/cxr/1.jpg", "Fracture": "0"}])
    detector = _detector(path)
    (hit, miss) = detector.detect([_item("https://example.org/cxr/1.jpg"), _item("file:///1.jpg")])
    assert hit.scores == {"fracture": 0.0} and miss.scores == {}


def test_labels_and_name(tmp_path: Path) -> None:
    detector = _detector(_csv(tmp_path, []))
    assert (
        detector.labels
        == frozenset(vocabulary("chexpert"))
        == frozenset(CHEXPERT_FINDINGS.values())
    )
    assert detector.name == "chexpert:labels.csv"


@pytest.mark.parametrize("bad", ["2", "yes", "0.5", "positive"])
def test_a_bad_value_names_the_key_the_line_and_the_column(tmp_path: Path, bad: str) -> None:
    rows = [{"Path": "a.png", "Edema": "1"}, {"Path": "b.png", "Edema": bad}]
    with pytest.raises(
        ValueError, match=rf"detect\.sources\[3\]\.path: .*labels\.csv line 3: Edema is '{bad}'"
    ):
        _detector(_csv(tmp_path, rows), index=3)


def test_missing_columns_are_named(tmp_path: Path) -> None:
    columns = tuple(c for c in COLUMNS if c not in {"Fracture", "No Finding"})
    with pytest.raises(
        ValueError,
        match=r"detect\.sources\[0\]\.path: .*lacks the columns \['No Finding', 'Fracture'\]",
    ):
        _detector(_csv(tmp_path, [], columns))


def test_a_missing_path_column_is_named(tmp_path: Path) -> None:
    path = _csv(tmp_path, [])
    source = ChexpertSource(kind="chexpert", path=path, path_column="Image")
    with pytest.raises(ValueError, match=r"lacks the columns \['Image'\]"):
        ChexpertDetector(source, DETECT, 0)


def test_an_empty_path_and_a_repeated_path_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"line 2: Path is empty"):
        _detector(_csv(tmp_path, [{"Path": " ", "Edema": "1"}]))
    rows = [{"Path": "a.png"}, {"Path": "b.png"}, {"Path": "./a.png"}]
    with pytest.raises(ValueError, match=r"line 4: a\.png is labelled again \(first on line 2\)"):
        _detector(_csv(tmp_path, rows))


def test_no_finding_beside_a_finding_contradicts_itself(tmp_path: Path) -> None:
    ok = [{"Path": "a.png", "No Finding": "1", "Support Devices": "1", "Edema": "0"}]
    _detector(_csv(tmp_path, ok))
    bad = [{"Path": "a.png", "No Finding": "1", "Edema": "-1"}]
    with pytest.raises(ValueError, match=r"line 2: No Finding is 1 but \['Edema'\]"):
        _detector(_csv(tmp_path, bad))


def test_a_missing_file_and_a_binary_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"detect\.sources\[0\]\.path.*nope\.csv"):
        _detector(tmp_path / "nope.csv")
    binary = tmp_path / "b.csv"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ValueError, match="not UTF-8"):
        _detector(binary)


def test_the_source_needs_the_chexpert_vocabulary(tmp_path: Path) -> None:
    coco = DETECT.model_copy(update={"vocabulary": "coco"})
    with pytest.raises(
        ValueError,
        match=r"detect\.sources\[0\]: a chexpert source needs detect\.vocabulary: chexpert",
    ):
        _detector(_csv(tmp_path, []), coco)


def test_the_config_loads_a_chexpert_source_and_the_stage_builds_it(tmp_path: Path) -> None:
    csv = _csv(tmp_path, [{"Path": "a.png", "Edema": "1"}])
    config = tmp_path / "c.yaml"
    config.write_text(
        f"input: {{path: x.tsv}}\n"
        f"detect: {{vocabulary: chexpert, sources: [{{kind: chexpert, path: {csv}}}]}}\n"
    )
    cfg: Config = load_config(config)
    (detector,) = build_detectors(cfg.detect)
    assert isinstance(detector, ChexpertDetector)
    config.write_text(
        "input: {path: x.tsv}\n"
        "detect: {vocabulary: chexpert, sources: [{kind: chexpert, path: a.csv, column: P}]}\n"
    )
    with pytest.raises(ConfigError, match=r"detect\.sources\.0\.column: Extra inputs"):
        load_config(config)


def test_images_the_csv_does_not_list_are_counted_as_uncovered_by_the_stage(
    tmp_path: Path, ingest_two_photos: IngestTwoPhotos
) -> None:
    csv = _csv(tmp_path, [{"Path": BUS.name, "Cardiomegaly": "1"}])  # a path tail of the bus
    cfg = ingest_two_photos(
        {"vocabulary": "chexpert", "sources": [{"kind": "chexpert", "path": str(csv)}]}
    )

    stats = run_detect(cfg.detect, cfg.run.output_dir, 0, "h")

    assert stats["count"] == 2 and stats["uncovered"] == 1  # the coffee photo
