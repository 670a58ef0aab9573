"""Stages write and read a shard a row group at a time (``records.parquet_sink``,
``records.iter_parquet``): what they hold does not grow with the shard, and what they write does
not depend on where the row groups fall."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from negdata import records
from negdata.compose.captions import run_compose
from negdata.compose.plan import run_plan
from negdata.config import load_config
from negdata.publish.stage import run_publish
from negdata.records import (
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


def _written(out: Path) -> dict[str, object]:
    """Shard 0's outputs from plan on: records of its Parquet files, bytes of its tars, and
    publish's counts."""
    files: dict[str, object] = {}
    for path in sorted(out.rglob("00000*")):
        name = path.relative_to(out).as_posix()
        if path.suffix == ".parquet" and not name.startswith(("shards", "evidence")):
            files[name] = pq.read_table(path).to_pylist()
        elif path.suffix == ".tar" and not name.startswith("shards"):
            files[name] = path.read_bytes()
    stats = json.loads((out / "publish/00000_stats.json").read_text())
    files["publish"] = {k: v for k, v in stats.items() if k != "duration_s"}
    return files


def test_the_stages_a_record_at_a_time_write_what_the_whole_shard_did(
    sample_run: SampleRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's run planned, composed and published shard 0 (4 images) in one row group;
    run again one image at a time, from the copied response cache, they write the same records,
    tars and counts. What is the shard's, not a row group's, stays so: the plan's vocabulary
    fill is ranked by the whole shard's co-occurrence, compose's MCQ positions are dealt across
    the shard, publish copies every image of ingest's tar once."""
    config, out = copy_sample_run(sample_run, tmp_path)
    cfg = load_config(config)
    before = _written(out)
    forget(out, ("plan", "compose", "publish"), [0])
    monkeypatch.setattr(records, "ROW_GROUP", 1)

    planned = run_plan(cfg, 0, stage_hash(cfg, STAGES[2]))
    composed = run_compose(cfg, 0, stage_hash(cfg, STAGES[3]))
    run_publish(cfg, 0, stage_hash(cfg, STAGES[4]))

    assert pq.ParquetFile(out / "objects/00000.parquet").num_row_groups == planned["planned"] > 1
    assert any(name.endswith(".tar") for name in before) and _written(out) == before
    for stats in (planned, composed):
        assert stats["llm_requests"] == 0 and stats["llm_cache_hits"] > 0
