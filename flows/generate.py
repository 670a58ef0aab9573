"""Prefect flow: run every stage over the selected shards, then write the run summary.

Run locally with ``python flows/generate.py --shards 0-3 --config configs/sample.yaml``: Prefect
starts a temporary API server by itself. A rerun skips every (stage, shard) whose done marker
matches the config, and starts no LLM server when nothing that needs one is left to do.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NONE

from negdata.config import load_config
from negdata.llm import LocalServer, check_server_kind, ensure_model, wait_until_ready
from negdata.pipeline import STAGES, pending, run_stage, summarize
from negdata.shards import parse_shards

log = logging.getLogger("negdata.flow")


@task(name="stage", cache_policy=NONE, task_run_name="{stage_name}-{shard:05d}")
def stage_task(config: str, stage_name: str, shard: int) -> dict[str, Any]:
    cfg = load_config(config)
    stage = next(s for s in STAGES if s.name == stage_name)
    return run_stage(cfg, stage, shard)


@flow(name="negdata-generate", log_prints=False)
def generate(shards: str = "0-3", config: str = "configs/sample.yaml") -> dict[str, Any]:
    """Ingest, detect, plan, compose and publish ``shards`` (e.g. ``"0-99,120"``)."""
    cfg = load_config(config)
    shard_ids = parse_shards(shards)
    todo = pending(cfg, shard_ids)
    needs_llm = any(stage.uses_llm(cfg) for stage, _ in todo)
    server: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if needs_llm and cfg.llm.local:
        ensure_model(cfg.llm.serve)
        server = LocalServer(cfg.llm)
    elif needs_llm:
        wait_until_ready(cfg.llm.base_url, cfg.llm.timeout_s, api_key=cfg.llm.api_key)
    runs: dict[str, Any] = {}
    with server:
        if needs_llm:
            check_server_kind(cfg.llm)
        for shard in shard_ids:
            for stage in STAGES:
                stats = stage_task(config, stage.name, shard)
                runs[f"{stage.name}/{shard:05d}"] = stats
    summary = summarize(cfg)
    summary["this_run"] = {
        "ran": sorted(k for k, v in runs.items() if not v.get("skipped")),
        "skipped": sorted(k for k, v in runs.items() if v.get("skipped")),
    }
    return summary


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
