"""Prefect flow: run every stage over the selected shards, then write the run summary.

Run locally with ``python flows/generate.py --shards 0-3 --config configs/sample.yaml``: Prefect
starts a temporary API server by itself. A rerun skips every (stage, shard) whose done marker
matches the config, and starts no LLM server when nothing that needs one is left to do.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NONE
from prefect.task_runners import ThreadPoolTaskRunner

from negdata.config import Config, load_config
from negdata.console import Parser, add_common_options, main_guard, setup_logging
from negdata.llm import (
    LocalServer,
    check_server_kind,
    ensure_model,
    shared_pool,
    wait_until_any_ready,
)
from negdata.llm.metrics import read_all_counters
from negdata.pipeline import (
    STAGES,
    TALLY,
    pending,
    retry_failed_ingest,
    run_stage,
    select_shards,
    stage_done,
    summarize,
)
from negdata.report import print_summary
from negdata.stopping import stop_on_signals

log = logging.getLogger("negdata.flow")

# Set by main(): a run started from a shell stops within seconds on SIGTERM or Ctrl-C. Prefect
# puts its own SIGTERM handler in place while a flow runs (it waits for every task in flight),
# so the flow installs this one again once it has started.
_stop_from_shell: Callable[[str | None], None] | None = None


@task(name="stage", cache_policy=NONE, task_run_name="{stage_name}-{shard:05d}")
def stage_task(config: str, stage_name: str, shard: int) -> dict[str, Any]:
    cfg = load_config(config)
    stage = next(s for s in STAGES if s.name == stage_name)
    return run_stage(cfg, stage, shard)


@task(name="shard", cache_policy=NONE, task_run_name="shard-{shard:05d}")
def shard_task(config: str, shard: int) -> dict[str, dict[str, Any]]:
    """Every stage of one shard, in order."""
    return {stage.name: stage_task(config, stage.name, shard) for stage in STAGES}


@task(name="retry-failed", cache_policy=NONE, task_run_name="retry-failed-{shard:05d}")
def retry_task(config: str, shard: int) -> dict[str, Any]:
    """Fetch a finished shard's transient ingest failures again (the later stages of a shard
    that got rows back are redone by the shard task)."""
    return retry_failed_ingest(load_config(config), shard)


@flow(name="negdata-generate", log_prints=False)
def generate(
    shards: str = "0-3", config: str = "configs/sample.yaml", retry_failed: bool = False
) -> dict[str, Any]:
    """Ingest, detect, plan, compose and publish ``shards`` (e.g. ``"0-99,120"``).

    ``cfg.shards_at_once`` shards run at once, all sending to one shared LLM client, so one
    shard's detection overlaps another's generation and the server never drains between shards.
    With ``retry_failed``, every shard already ingested first fetches the rows that failed for a
    transient reason (timeouts, 429, 5xx) again, before anything else runs.
    """
    cfg = load_config(config)
    shard_ids = select_shards(cfg, shards)
    if _stop_from_shell is not None:
        from prefect.runtime import flow_run

        _stop_from_shell(flow_run.id)
    retries = retry_ingested(cfg, config, shard_ids) if retry_failed else []
    needs_llm = any(stage.uses_llm(cfg) for stage, _ in pending(cfg, shard_ids))
    runs: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        if needs_llm:
            check_server_kind(cfg.llm, stack.enter_context(llm_server(cfg)))
            stack.enter_context(shared_pool(cfg.llm, cfg.llm_cache))
        before = read_all_counters(cfg.llm.base_urls, cfg.llm.api_key) if needs_llm else None
        # Entered after the server and the pool, so it exits first: if a shard fails, the
        # others finish (or fail) while the server still answers, and the error surfaces.
        with ThreadPoolTaskRunner[Any](cfg.shards_at_once) as runner:
            futures = [runner.submit(shard_task, {"config": config, "shard": s}) for s in shard_ids]
            for shard, future in zip(shard_ids, futures, strict=True):
                for name, stats in future.result().items():
                    runs[f"{name}/{shard:05d}"] = stats
        after = read_all_counters(cfg.llm.base_urls, cfg.llm.api_key) if before else None
    summary = summarize(cfg)
    summary["this_run"] = {
        "ran": sorted(k for k, v in runs.items() if not v.get("skipped")),
        "skipped": sorted(k for k, v in runs.items() if v.get("skipped")),
        "retried": sum(r["retried"] for r in retries),
        "recovered": sum(r["recovered"] for r in retries),
        "llm_server": (after - before).as_dict() if before and after else None,
    }
    return summary


def retry_ingested(cfg: Config, config: str, shard_ids: list[int]) -> list[dict[str, Any]]:
    """One retry-failed task per shard already ingested, ``shards_at_once`` at a time; run
    before the flow decides whether it needs the LLM, since a recovered row reopens a shard."""
    ingested = [s for s in shard_ids if stage_done(cfg, STAGES[0], s)]
    with ThreadPoolTaskRunner[Any](cfg.shards_at_once) as runner:
        futures = [runner.submit(retry_task, {"config": config, "shard": s}) for s in ingested]
        return [future.result() for future in futures]


@contextlib.contextmanager
def llm_server(cfg: Config) -> Iterator[list[str]]:
    """The local vLLM server for this run, or a wait until a remote one answers; gives the
    addresses that answer."""
    if not cfg.llm.local:
        urls = cfg.llm.base_urls
        log.info("LLM server: waiting for %s (up to %.0f s)", ", ".join(urls), cfg.llm.timeout_s)
        yield wait_until_any_ready(urls, cfg.llm.timeout_s, api_key=cfg.llm.api_key)
        return
    ensure_model(cfg.llm.serve)
    with LocalServer(cfg.llm):
        yield cfg.llm.base_urls


def mark_flow_run_crashed(flow_run_id: str | None, reason: str) -> None:
    """Tell a Prefect server (``PREFECT_API_URL``) that flow run ``flow_run_id`` was stopped,
    so that it is not shown as running forever; a temporary server stops with the process."""
    from prefect.client.orchestration import get_client
    from prefect.states import Crashed

    if not os.environ.get("PREFECT_API_URL") or not flow_run_id:
        return
    with get_client(sync_client=True) as client:
        client.set_flow_run_state(flow_run_id, Crashed(message=reason), force=True)


def _stop_on_signals(describe: Callable[[], str], flow_run_id: str | None) -> None:
    stop_on_signals(describe, functools.partial(mark_flow_run_crashed, flow_run_id))


def main(argv: list[str] | None = None) -> None:
    """``python flows/generate.py``: the flow from a shell, with one line for any mistake and
    a stop within seconds on SIGTERM or Ctrl-C."""
    parser = Parser(prog="generate.py", description=__doc__)
    parser.add_argument("--shards", default="0-3")
    parser.add_argument("--config", default="configs/sample.yaml")
    parser.add_argument(
        "--retry-failed",
        action="store_true",
        help="first fetch again the rows of ingested shards that failed for a transient reason",
    )
    add_common_options(parser)
    args = parser.parse_args(argv)
    setup_logging(args.debug)
    with main_guard(args.debug):
        # Mistakes in the config or the shards are caught here, before Prefect starts.
        cfg = load_config(args.config)
        shard_ids = select_shards(cfg, args.shards)
        log.info(
            "negdata: shards %s (%d) of %s into %s",
            args.shards, len(shard_ids), cfg.input.path, cfg.run.output_dir,
        )  # fmt: skip
        global _stop_from_shell
        _stop_from_shell = functools.partial(_stop_on_signals, lambda: TALLY.describe(shard_ids))
        _stop_from_shell(None)
        api = os.environ.get("PREFECT_API_URL")
        log.info("Prefect: %s", f"API at {api}" if api else "starting a temporary API server")
        summary = generate(shards=args.shards, config=args.config, retry_failed=args.retry_failed)
        print_summary(cfg, summary)


if __name__ == "__main__":
    main()
