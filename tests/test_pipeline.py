"""Stage hashes (what invalidates a done marker and what does not) and shard selection."""

from __future__ import annotations

from pathlib import Path

import pytest

from negdata.config import Config, load_config
from negdata.pipeline import leased, select_shards
from negdata.shards import ShardError
from negdata.stages import STAGES, stage_hash

BY_NAME = {stage.name: stage for stage in STAGES}


def _with_llm(cfg: Config, **changes: object) -> Config:
    return cfg.model_copy(update={"llm": cfg.llm.model_copy(update=changes)})


def test_llm_sampling_settings_invalidate_the_llm_stages_only() -> None:
    cfg = load_config(Path("configs/sample.yaml"))
    hotter = _with_llm(cfg, temperature=1.0)

    for name in ("plan", "compose", "publish"):
        assert stage_hash(hotter, BY_NAME[name]) != stage_hash(cfg, BY_NAME[name])
    for name in ("ingest", "detect"):
        assert stage_hash(hotter, BY_NAME[name]) == stage_hash(cfg, BY_NAME[name])


def test_where_the_server_is_and_how_hard_it_is_pushed_invalidate_nothing() -> None:
    cfg = load_config(Path("configs/sample.yaml"))
    moved = _with_llm(cfg, endpoint="http://127.0.0.1:9000/v1", max_concurrency=512)
    more = moved.model_copy(update={"run": cfg.run.model_copy(update={"shards_in_flight": 8})})

    assert [stage_hash(more, s) for s in STAGES] == [stage_hash(cfg, s) for s in STAGES]


def _webdataset(pattern: str, per_shard: int) -> Config:
    return Config.model_validate(
        {
            "input": {"path": pattern, "format": "webdataset", "samples_per_shard": per_shard},
            "detect": {"sources": [{"kind": "labels", "path": "labels.json"}]},
        }
    )


def test_shards_past_the_input_are_refused_naming_the_last_one(webdataset_crawl: Path) -> None:
    cfg = _webdataset(f"{webdataset_crawl}/{{00000..00001}}.tar", per_shard=2)  # 5 samples

    assert select_shards(cfg, "0-2") == [0, 1, 2]
    with pytest.raises(ShardError, match=r"shard 99999999 is past the input's last shard, 2"):
        select_shards(cfg, "0-99999999")


def test_checking_a_selection_opens_only_the_tars_it_needs(webdataset_crawl: Path) -> None:
    # Tars 00002..00009 do not exist: counting every tar would fail, shards 0-2 need none of them.
    cfg = _webdataset(f"{webdataset_crawl}/{{00000..00009}}.tar", per_shard=2)

    assert select_shards(cfg, "0-2") == [0, 1, 2]
    with pytest.raises(FileNotFoundError):
        select_shards(cfg, "3")


def test_an_empty_input_has_no_shard(tmp_path: Path) -> None:
    empty = tmp_path / "empty.tsv"
    empty.write_text("")
    cfg = load_config(Path("configs/sample.yaml"))
    cfg = cfg.model_copy(update={"input": cfg.input.model_copy(update={"path": str(empty)})})

    with pytest.raises(ShardError, match="the input has no rows"):
        select_shards(cfg, "0")


def test_taking_a_shard_sweeps_the_temporary_files_a_killed_run_left(tmp_path: Path) -> None:
    cfg = load_config(Path("configs/sample.yaml"))
    cfg = cfg.model_copy(update={"run": cfg.run.model_copy(update={"output_dir": tmp_path})})
    left = [
        tmp_path / "shards" / ".00002.tar.k1ll3d.tmp",
        tmp_path / "rejects" / ".00002.parquet.x.tmp",
    ]
    kept = [tmp_path / "shards" / ".00003.tar.other.tmp", tmp_path / "shards" / "00002.tar"]
    for path in left + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")

    with leased(cfg, 2) as mine:
        assert mine

    assert not any(p.exists() for p in left)
    assert all(p.exists() for p in kept)  # another shard's, and a published file
