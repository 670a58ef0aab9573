"""Stage hashes: what invalidates a stage's done marker and what does not."""

from __future__ import annotations

from pathlib import Path

from negdata.config import Config, load_config
from negdata.pipeline import STAGES, stage_hash

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
