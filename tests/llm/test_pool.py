"""``process_pool``: one LLM pool per process for the blocks that ask for it (a Dask worker's
shard tasks), with the budget it was opened with."""

from __future__ import annotations

from negdata.config import LLMConfig
from negdata.llm.pool import pool_for, process_pool


def test_blocks_in_a_process_pool_share_one_pool_with_its_budget_until_the_last_ends() -> None:
    cfg = LLMConfig(local=False, endpoint="http://127.0.0.1:9/v1", max_concurrency=256)
    with process_pool(cfg, 64):
        with (
            pool_for(cfg) as first,
            process_pool(cfg, 64),
            pool_for(cfg) as second,
        ):
            assert second is first
            assert first.client.cfg.max_concurrency == 64
        with pool_for(cfg) as still:
            assert still is first  # one block is still open
    with pool_for(cfg) as private:
        assert private is not first and private.client.cfg.max_concurrency == 256
