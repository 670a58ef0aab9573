"""Stages write and read a shard a row group at a time (``records.parquet_sink``,
``records.iter_parquet``): what they hold does not grow with the shard, and what they write does
not depend on where the row groups fall."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from negdata import records
from negdata.compose.captions import run_compose
from negdata.compose.plan import run_plan
from negdata.config import load_config
from negdata.records import (
    CaptionRecord,
    McqRecord,
    PlanRecord,
    Reject,
    iter_parquet,
    parquet_sink,
    read_parquet,
    write_parquet,
)
from negdata.stages import STAGES, stage_hash
from tests.conftest import SampleRun, copy_sample_run, forget


def _rejects(n: int) -> list[Reject]:
    return [Reject(stage="detect", key=f"{i:09d}", reason="decode_error") for i in range(n)]


def test_a_sink_writes_row_groups_as_records_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "ROW_GROUP", 4)
    path = tmp_path / "r.parquet"
    with parquet_sink(path, Reject) as sink:
        sink.add(_rejects(3))
        sink.add(_rejects(7)[3:])
        assert not path.exists()  # published whole, at the end
    assert sink.rows == 7
    assert [pq.ParquetFile(path).metadata.row_group(i).num_rows for i in range(2)] == [4, 3]
    assert [len(batch) for batch in iter_parquet(path, Reject)] == [4, 3]
    assert read_parquet(path, Reject) == _rejects(7)


def test_a_sink_left_by_an_error_publishes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    with pytest.raises(RuntimeError), parquet_sink(path, Reject) as sink:
        sink.add(_rejects(2))
        raise RuntimeError("the stage failed")
    assert list(tmp_path.iterdir()) == []


def test_an_empty_file_keeps_its_schema(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    assert write_parquet(path, Reject, []) == 0
    assert pq.read_schema(path).names == list(Reject.model_fields)
    assert read_parquet(path, Reject) == []


def test_plan_and_compose_a_record_at_a_time_write_what_the_whole_shard_did(
    sample_run: SampleRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's run planned and composed shard 0 (4 images) in one row group; run again
    one image at a time, from the copied response cache, they make the same records. What is
    the shard's, not a row group's, stays so: the plan's vocabulary fill is ranked by the whole
    shard's co-occurrence, compose's MCQ positions are dealt across the shard."""
    config, out = copy_sample_run(sample_run, tmp_path)
    cfg = load_config(config)
    files = {
        "objects/00000.parquet": PlanRecord,
        "captions/00000.parquet": CaptionRecord,
        "captions/00000_mcq.parquet": McqRecord,
        "captions/00000_rejects.parquet": Reject,
    }
    before = {name: read_parquet(out / name, model) for name, model in files.items()}
    forget(out, ("plan", "compose"), [0])
    monkeypatch.setattr(records, "ROW_GROUP", 1)

    planned = run_plan(cfg, 0, stage_hash(cfg, STAGES[2]))
    composed = run_compose(cfg, 0, stage_hash(cfg, STAGES[3]))

    assert pq.ParquetFile(out / "objects/00000.parquet").num_row_groups == planned["planned"] > 1
    assert {name: read_parquet(out / name, model) for name, model in files.items()} == before
    for stats in (planned, composed):
        assert stats["llm_requests"] == 0 and stats["llm_cache_hits"] > 0
