"""Prefect flow: run every stage over the selected shards, then write the run summary.

Run locally with ``python flows/generate.py --shards 0-3 --config configs/sample.yaml``: Prefect
starts a temporary API server by itself. A rerun skips every (stage, shard) whose done marker
matches the config, and starts no LLM server when nothing that needs one is left to do.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NONE
from prefect.task_runners import ThreadPoolTaskRunner

from negdata.config import Config, load_config
from negdata.llm import (
    LocalServer,
    check_server_kind,
    ensure_model,
    shared_pool,
    wait_until_ready,
)
from negdata.llm.metrics import read_counters
from negdata.pipeline import STAGES, pending, run_stage, summarize
from negdata.shards import parse_shards

log = logging.getLogger("negdata.flow")


@task(name="stage", cache_policy=NONE, task_run_name="{stage_name}-{shard:05d}")
def stage_task(config: str, stage_name: str, shard: int) -> dict[str, Any]:
    cfg = load_config(config)
    stage = next(s for s in STAGES if s.name == stage_name)
    return run_stage(cfg, stage, shard)


@task(name="shard", cache_policy=NONE, task_run_name="shard-{shard:05d}")
def shard_task(config: str, shard: int) -> dict[str, dict[str, Any]]:
    """Every stage of one shard, in order."""
    return {stage.name: stage_task(config, stage.name, shard) for stage in STAGES}


@flow(name="negdata-generate", log_prints=False)
def generate(shards: str = "0-3", config: str = "configs/sample.yaml") -> dict[str, Any]:
    """Ingest, detect, plan, compose and publish ``shards`` (e.g. ``"0-99,120"``).

    ``cfg.shards_at_once`` shards run at once, all sending to one shared LLM client, so one
    shard's detection overlaps another's generation and the server never drains between shards.
    """
    cfg = load_config(config)
    shard_ids = parse_shards(shards)
    needs_llm = any(stage.uses_llm(cfg) for stage, _ in pending(cfg, shard_ids))
    runs: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        if needs_llm:
            stack.enter_context(llm_server(cfg))
            check_server_kind(cfg.llm)
            stack.enter_context(shared_pool(cfg.llm, cfg.llm_cache))
        before = read_counters(cfg.llm.base_url, cfg.llm.api_key) if needs_llm else None
        runner: ThreadPoolTaskRunner[Any] = ThreadPoolTaskRunner(cfg.shards_at_once)
        with runner:
            futures = [runner.submit(shard_task, {"config": config, "shard": s}) for s in shard_ids]
            for shard, future in zip(shard_ids, futures, strict=True):
                for name, stats in future.result().items():
                    runs[f"{name}/{shard:05d}"] = stats
        after = read_counters(cfg.llm.base_url, cfg.llm.api_key) if before else None
    summary = summarize(cfg)
    summary["this_run"] = {
        "ran": sorted(k for k, v in runs.items() if not v.get("skipped")),
        "skipped": sorted(k for k, v in runs.items() if v.get("skipped")),
        "llm_server": (after - before).as_dict() if before and after else None,
    }
    return summary


@contextlib.contextmanager
def llm_server(cfg: Config) -> Iterator[None]:
    """The local vLLM server for this run, or a wait until the remote one answers."""
    if not cfg.llm.local:
        wait_until_ready(cfg.llm.base_url, cfg.llm.timeout_s, api_key=cfg.llm.api_key)
        yield
        return
    ensure_model(cfg.llm.serve)
    with LocalServer(cfg.llm):
        yield


def main() -> None:
    from negdata.report import print_summary

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shards", default="0-3")
    parser.add_argument("--config", default="configs/sample.yaml")
    args = parser.parse_args()
    summary = generate(shards=args.shards, config=args.config)
    print_summary(load_config(args.config), summary)


if __name__ == "__main__":
    main()
