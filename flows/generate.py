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
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NONE
from prefect.task_runners import ThreadPoolTaskRunner

from flows.artifacts import publish_run, publish_shards
from flows.engines import engine
from flows.temporary_server import temporary_server
from negdata.config import Config, ConfigError, load_config
from negdata.console import (
    Parser,
    add_common_options,
    log_to_stderr,
    main_guard,
    setup_logging,
)
from negdata.llm import check_server_kind, llm_server, shared_pool
from negdata.llm.metrics import read_all_counters
from negdata.llm.pool import process_pool
from negdata.pipeline import (
    TALLY,
    check_before_run,
    done_markers,
    leased,
    pending,
    retry_failed_ingest,
    run_stage,
    select_shards,
    summarize,
)
from negdata.report import print_summary
from negdata.shards import shard_spec
from negdata.stages import STAGES, stage_done
from negdata.stopping import stop_on_signals
from negdata.workers import exit_with_parent

log = logging.getLogger("negdata.flow")
GPU_SLOT_ENV = "NEGDATA_GPU_SLOT"
PARENT_DEPLOYMENT = "negdata-generate/cluster"  # made by flows/deploy.py
FOLLOW_POLL_S = 5.0
_GPU_TURN = threading.Lock()  # gpu_slot: this process's shards wait here, not on the server

# Set by main(): a run started from a shell stops within seconds on SIGTERM or Ctrl-C. Prefect
# puts its own SIGTERM handler in place while a flow runs (it waits for every task in flight),
# so the flow installs this one again once it has started.
_stop_from_shell: Callable[[str | None], None] | None = None


@task(name="stage", cache_policy=NONE, task_run_name="{stage_name}-{shard:05d}")
def stage_task(config: str, stage_name: str, shard: int) -> dict[str, Any]:
    cfg = load_config(config)
    stage = next(s for s in STAGES if s.name == stage_name)
    with gpu_slot() if stage_name == "detect" else contextlib.nullcontext():
        return run_stage(cfg, stage, shard)


@contextlib.contextmanager
def gpu_slot() -> Iterator[None]:
    """On a cluster worker, the GPU's strict Prefect concurrency limit (``NEGDATA_GPU_SLOT``,
    set by ``flows/workers.py``): one detection at a time per GPU, and a limit that does not
    exist fails loudly instead of letting every shard in. Elsewhere, nothing.

    This process's shards first take turns on a lock of its own, so that only one of them asks
    the server at a time. A shard refused by the server retries only after the Retry-After it
    is given (the slot's average occupancy times the shards waiting, up to 30 s), and the GPU
    idled meanwhile: 4 shards of 4 images took 25 s to detect on one worker, not 8."""
    slot = os.environ.get(GPU_SLOT_ENV)
    if not slot:
        yield
        return
    from prefect.concurrency.sync import concurrency

    with _GPU_TURN, concurrency(slot, occupy=1, strict=True):
        yield


@task(name="shard", cache_policy=NONE, task_run_name="shard-{shard:05d}")
def shard_task(
    config: str, shard: int, llm_share: int | None = None
) -> dict[str, dict[str, Any]] | None:
    """``work_on_shard``. Dask pickles a task's function by value, with copies of the globals
    it names (``STAGES`` would no longer be the pipeline's own), so the body is one call of a
    plain function, which travels by reference."""
    return work_on_shard(config, shard, llm_share)


def work_on_shard(
    config: str, shard: int, llm_share: int | None
) -> dict[str, dict[str, Any]] | None:
    """Every stage of one shard, in order, holding the shard's lease while any is pending;
    None when another run holds it (that run finishes the shard). With ``llm_share`` (on a
    Dask worker, flows/engines.py), the LLM stages of this process send through one pool
    with that many requests in flight."""
    cfg = load_config(config)
    log_to_stderr()  # a Dask worker process logs too
    left = [stage for stage, _ in pending(cfg, [shard])]
    with contextlib.ExitStack() as stack:
        if left and not stack.enter_context(leased(cfg, shard)):
            return None
        if llm_share is not None and any(stage.uses_llm(cfg) for stage in left):
            stack.enter_context(process_pool(cfg.llm, llm_share))
        return {stage.name: stage_task(config, stage.name, shard) for stage in STAGES}


@task(name="retry-failed", cache_policy=NONE, task_run_name="retry-failed-{shard:05d}")
def retry_task(config: str, shard: int) -> dict[str, Any] | None:
    """Fetch a finished shard's transient ingest failures again (the later stages of a shard
    that got rows back are redone by the shard task); None when another run holds the shard."""
    cfg = load_config(config)
    with leased(cfg, shard) as mine:
        return retry_failed_ingest(cfg, shard) if mine else None


@flow(name="negdata-generate", log_prints=False)
def generate(
    shards: str = "0-3",
    config: str = "configs/sample.yaml",
    retry_failed: bool = False,
    fan_out: str | None = None,
) -> dict[str, Any]:
    """Ingest, detect, plan, compose and publish ``shards`` (e.g. ``"0-99,120"``), then write
    the run-level files (stats.json, sizes.json) once.

    Without ``fan_out`` the shards are worked on in this process (``work_on``). With it, the
    name of the chunk deployment (``negdata-shards/gpu``), the pending shards are split into
    chunks, each run by a child flow run on the GPU work pool (``flows/cluster.py``).
    With ``retry_failed``, every shard already ingested first fetches the rows that failed for a
    transient reason (timeouts, 429, 5xx) again, before anything else runs.
    """
    cfg = load_config(config)
    shard_ids = select_shards(cfg, shards)
    _stop_this_run_from_shell()
    if fan_out:
        from flows.cluster import run_chunks

        this_run = run_chunks(cfg, config, shard_ids, fan_out, retry_failed)
    else:
        this_run = work_on(cfg, config, shard_ids, retry_failed)
    summary = summarize(cfg)
    summary["this_run"] = this_run
    publish_run(cfg, shard_ids, summary)
    if this_run.get("failed_shards"):
        failed = shard_spec(this_run["failed_shards"])
        raise RuntimeError(f"shards {failed} failed on every child run; see the child runs' logs")
    return summary


def _stop_this_run_from_shell() -> None:
    """In a run started by ``main``, stop on a signal with the flow run marked crashed. A
    function of its own because Dask pickles the flow with the globals it names, and the
    handler (holding the tally's lock) cannot be pickled."""
    if _stop_from_shell is not None:
        from prefect.runtime import flow_run

        _stop_from_shell(flow_run.id)


@flow(name="negdata-shards", log_prints=False)
def process_shards(shards: str, config: str, retry_failed: bool = False) -> dict[str, Any]:
    """A chunk of a cluster run, on one worker: every stage of ``shards``, no run-level files
    (the parent run writes them once, at the end)."""
    cfg = load_config(config)
    refuse_local_llm(cfg)
    end_with_worker()
    return work_on(cfg, config, select_shards(cfg, shards), retry_failed)


def end_with_worker() -> None:
    """A chunk run ends when the worker that started it dies. Prefect starts it in a session of
    its own, so a SIGKILL of the worker's process group misses it, and it would go on with no
    worker to report its end, "Running" forever. It says it crashed, then exits; its shards'
    leases expire and another worker resumes them."""
    from prefect.runtime import flow_run

    if flow_run.id is None:
        return
    exit_with_parent(os.getppid(), functools.partial(_crashed, flow_run.id))


def _crashed(run_id: str) -> None:
    """Its state, not a log line: the worker relayed its output, so a line now has nowhere to go
    (Prefect's console handler exits the process on the broken pipe)."""
    from prefect.client.orchestration import get_client
    from prefect.states import Crashed

    with get_client(sync_client=True) as client:
        message = "negdata: its worker died, and this chunk run ended with it"
        client.set_flow_run_state(run_id, Crashed(message=message), force=True)


def refuse_local_llm(cfg: Config) -> None:
    """A cluster's chunk runs share one LLM server: with ``llm.local`` each would start a vLLM
    of its own, on the one fixed port, next to the others on the machine."""
    if cfg.llm.local:
        raise ConfigError(
            f"llm.local: true would start a vLLM in every chunk run of the cluster (port "
            f"{cfg.llm.serve.port}): serve the model once (negdata llm serve, or vllm serve) and "
            "set llm.local: false and llm.endpoint (or llm.endpoints) to it"
        )


def work_on(cfg: Config, config: str, shard_ids: list[int], retry_failed: bool) -> dict[str, Any]:
    """Every stage of ``shard_ids`` on the engine ``run.engine`` names: by default in this
    process, ``cfg.shards_at_once`` shards at a time, all sending to one shared LLM client, so
    one shard's detection overlaps another's generation and the server never drains between
    shards; with ``dask``, on a Dask cluster (flows/engines.py). Returns what this run did."""
    log_to_stderr()  # a flow run started by a worker logs too
    retries = retry_ingested(cfg, config, shard_ids) if retry_failed else []
    needs_llm = any(stage.uses_llm(cfg) for stage, _ in pending(cfg, shard_ids))
    with contextlib.ExitStack() as stack:
        if needs_llm:
            check_server_kind(cfg.llm, stack.enter_context(llm_server(cfg.llm)))
            if cfg.run.engine == "threads":
                stack.enter_context(shared_pool(cfg.llm))
        before = read_all_counters(cfg.llm.base_urls, cfg.llm.api_key) if needs_llm else None
        # Entered after the server and the pool, so it exits first: if a shard fails, the
        # others finish (or fail) while the server still answers. Every shard's outcome is
        # awaited before the first failure surfaces, so that the run's table has the others.
        with engine(cfg) as runner:
            futures = [runner.submit(shard_task, {"config": config, "shard": s}) for s in shard_ids]
            ended = [future.result(raise_on_failure=False) for future in futures]
        outcomes = dict(zip(shard_ids, ended, strict=True))  # shard -> stages, None or error
        worked = {s: stages for s, stages in outcomes.items() if isinstance(stages, dict)}
        publish_shards(cfg, worked)
        for outcome in outcomes.values():
            if isinstance(outcome, BaseException):
                raise outcome
        after = read_all_counters(cfg.llm.base_urls, cfg.llm.api_key) if before else None
    runs = {
        f"{name}/{s:05d}": stats for s, stages in worked.items() for name, stats in stages.items()
    }
    return {
        "ran": sorted(k for k, v in runs.items() if not v.get("skipped")),
        "skipped": sorted(k for k, v in runs.items() if v.get("skipped")),
        "retried": sum(r["retried"] for r in retries if r),
        "recovered": sum(r["recovered"] for r in retries if r),
        "leased_elsewhere": [s for s, outcome in outcomes.items() if outcome is None],
        # What this run's stages sent, counted by its own client: on a server other runs share,
        # the server's counters below count theirs too.
        "llm_sent": {
            key: sum(int(v.get(f"llm_{key}", 0)) for v in runs.values() if not v.get("skipped"))
            for key in ("requests", "cache_hits", "prompt_tokens", "completion_tokens")
        },
        "llm_server": (after - before).as_dict() if before and after else None,
    }


def retry_ingested(cfg: Config, config: str, shard_ids: list[int]) -> list[dict[str, Any] | None]:
    """One retry-failed task per shard already ingested, ``shards_at_once`` at a time; run
    before the flow decides whether it needs the LLM, since a recovered row reopens a shard."""
    ingested = [s for s in shard_ids if stage_done(cfg, STAGES[0], s)]
    with ThreadPoolTaskRunner[Any](cfg.shards_at_once) as runner:
        futures = [runner.submit(retry_task, {"config": config, "shard": s}) for s in ingested]
        return [future.result() for future in futures]


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


def follow(deployment: str, shards: str, config: Path, cfg: Config) -> None:
    """Run the cluster's parent deployment over ``shards`` and follow it to the end, logging
    how many shards are finished; an error unless it completed."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.objects import FlowRun
    from prefect.deployments import run_deployment

    shard_ids = select_shards(cfg, shards)
    run = run_deployment(
        deployment, parameters={"shards": shards, "config": str(config)}, timeout=0
    )
    assert isinstance(run, FlowRun)  # called from sync code, so not a coroutine
    log.info("cluster run %s of %s started; Ctrl-C stops following it, not the run", run.name,
             deployment)  # fmt: skip
    last = ""
    with get_client(sync_client=True) as client:
        while True:
            state = client.read_flow_run(run.id).state
            done = sum(stage_done(cfg, STAGES[-1], s) for s in shard_ids)
            line = f"{run.name}: {state.name if state else 'scheduled'}, {done} of " \
                f"{len(shard_ids)} shards finished"  # fmt: skip
            if line != last:
                log.info("%s", line)
                last = line
            if state is not None and state.is_final():
                break
            time.sleep(FOLLOW_POLL_S)
    if not state.is_completed():
        raise RuntimeError(f"cluster run {run.name} ended {state.name}: {state.message or ''}")


def main(argv: list[str] | None = None) -> None:
    """``python flows/generate.py``: the flow from a shell, with one line for any mistake and
    a stop within seconds on SIGTERM or Ctrl-C; with ``--cluster``, the cluster's parent
    deployment instead, followed to the end."""
    parser = Parser(prog="generate.py", description=__doc__)
    parser.add_argument("--shards", default="0-3")
    parser.add_argument("--config", default="configs/sample.yaml")
    parser.add_argument(
        "--retry-failed",
        action="store_true",
        help="first fetch again the rows of ingested shards that failed for a transient reason",
    )
    parser.add_argument(
        "--cluster",
        nargs="?",
        const=PARENT_DEPLOYMENT,
        default=None,
        metavar="DEPLOYMENT",
        help=f"run the cluster's parent deployment (default {PARENT_DEPLOYMENT}; see `make "
        "deploy`) on the Prefect server at PREFECT_API_URL and follow it",
    )
    add_common_options(parser)
    args = parser.parse_args(argv)
    setup_logging(args.debug)
    with main_guard(args.debug):
        # Mistakes in the config, the shards and the files it names are caught here, before
        # Prefect starts (on a cluster, the workers' machines check their own).
        cfg = load_config(args.config)
        shard_ids = select_shards(cfg, args.shards)
        log.info(
            "negdata: shards %s (%d) of %s into %s",
            args.shards, len(shard_ids), cfg.input.path, cfg.run.output_dir,
        )  # fmt: skip
        api = os.environ.get("PREFECT_API_URL")
        if args.cluster:
            if not api:
                raise ValueError("--cluster needs PREFECT_API_URL: the cluster's Prefect server")
            follow(args.cluster, args.shards, Path(args.config).resolve(), cfg)
            print_summary(cfg, {**summarize(cfg, write=False), "done_markers": done_markers(cfg)})
            return
        check_before_run(cfg, shard_ids)
        global _stop_from_shell
        _stop_from_shell = functools.partial(_stop_on_signals, lambda: TALLY.describe(shard_ids))
        _stop_from_shell(None)
        log.info("Prefect: %s", f"API at {api}" if api else "starting a temporary API server")
        with contextlib.nullcontext() if api else temporary_server():
            summary = generate(
                shards=args.shards, config=args.config, retry_failed=args.retry_failed
            )
        print_summary(cfg, summary)


if __name__ == "__main__":
    # The module's own main, not this script's copy of it: Dask workers (run.engine: dask) get
    # the tasks and the flow by import from flows.generate, where those in __main__ would be
    # pickled by value, with every global they name.
    from flows.generate import main as module_main

    module_main()
