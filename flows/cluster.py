"""Fan a run out over a Prefect work pool: one child flow run per chunk of shards.

The parent (the ``negdata-generate`` deployment, on the CPU pool) splits the shards with work
left into chunks of ``run.shards_per_chunk`` and starts one child run of the chunk deployment
(``negdata-shards``, on the GPU pool, one worker per GPU) per chunk, with ``run_deployment(...,
timeout=0)`` and an idempotency key made of the parent run's id, the chunk and the attempt: a
retried parent finds its children again instead of starting twins.

It then watches the shards, not only the runs. A chunk whose child run has ended with shards
unfinished (it failed or crashed), or whose child has gone silent (it has run for longer than
``run.lease_ttl_s`` while none of its unfinished shards holds a live lease: its worker died),
gets a new child for those of its shards nobody holds, up to ``run.chunk_attempts`` children.
Shard leases make a false alarm cost a child that finds nothing to do, never work done twice.
A silent child given up on is marked crashed on the server, so that it does not stay "Running"
in the UI (its worker, dead, never reports again).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from negdata.config import Config
from negdata.console import log_to_stderr
from negdata.leases import live_owner
from negdata.shards import shard_spec
from negdata.stages import STAGES, stage_done

log = logging.getLogger("negdata.cluster")

FINAL = frozenset({"COMPLETED", "FAILED", "CRASHED", "CANCELLED"})
MAX_POLL_S = 10.0


@dataclass
class Chunk:
    index: int
    shards: list[int]
    attempt: int = 0
    run_id: UUID | None = None
    runs: list[str] = field(default_factory=list)  # every child run's name, for the summary


def _finished(cfg: Config, shard: int) -> bool:
    return stage_done(cfg, STAGES[-1], shard)


def _silent_for(state: Any) -> float:
    """Seconds since a running child entered that state (0 for any other state)."""
    if state is None or state.type.value != "RUNNING":
        return 0.0
    elapsed: float = (datetime.now(UTC) - state.timestamp).total_seconds()
    return elapsed


class Fan:
    """The child runs of one parent run, and what is left of each chunk."""

    def __init__(
        self, cfg: Config, config: str, deployment: str, retry_failed: bool, parent: str
    ) -> None:
        self.cfg = cfg
        self.config = config
        self.deployment = deployment
        self.retry_failed = retry_failed
        self.parent = parent
        self.failed: list[int] = []

    def submit(self, chunk: Chunk, shards: list[int]) -> None:
        """Start a child run for ``shards`` of the chunk (all of them, or those left)."""
        from prefect.client.schemas.objects import FlowRun
        from prefect.deployments import run_deployment

        run = run_deployment(
            name=self.deployment,
            parameters={
                "shards": shard_spec(shards),
                "config": self.config,
                "retry_failed": self.retry_failed,
            },
            timeout=0,
            idempotency_key=f"{self.parent}:{chunk.index}:{chunk.attempt}",
        )
        assert isinstance(run, FlowRun)  # called from sync code, so not a coroutine
        chunk.run_id = run.id
        chunk.runs.append(run.name)
        log.info(
            "chunk %d (shards %s): child run %s%s", chunk.index, shard_spec(shards),
            run.name, f", attempt {chunk.attempt + 1}" if chunk.attempt else "",
        )  # fmt: skip

    def left(self, chunk: Chunk) -> list[int]:
        return [s for s in chunk.shards if not _finished(self.cfg, s)]

    def check(self, chunk: Chunk, left: list[int], state: Any, client: Any) -> bool:
        """Whether the chunk, with shards ``left`` and its last child in ``state``, still has
        work; starts a new child when its last one is gone."""
        ended = state is None or state.type.value in FINAL  # None: the run is gone
        silent = _silent_for(state) > self.cfg.run.lease_ttl_s
        free = [s for s in left if live_owner(self.cfg.run.output_dir, s) is None]
        if not (ended or silent) or (silent and len(free) < len(left)) or not free:
            return True
        if silent and not ended:
            _mark_crashed(client, chunk, self.cfg.run.lease_ttl_s)
        if chunk.attempt + 1 >= self.cfg.run.chunk_attempts:
            log.error("chunk %d: shards %s unfinished after %d child runs", chunk.index,
                      shard_spec(free), chunk.attempt + 1)  # fmt: skip
            self.failed += free
            chunk.shards = [s for s in chunk.shards if s not in free]
            return bool(chunk.shards)
        why = "its worker went silent"
        if ended:
            why = f"its child run {state.type.value.lower() if state else 'is gone'}"
        log.warning("chunk %d: %s; shards %s go to a new child", chunk.index, why, shard_spec(free))
        chunk.attempt += 1
        chunk.shards = left
        self.submit(chunk, free)
        return True


def _mark_crashed(client: Any, chunk: Chunk, ttl_s: float) -> None:
    """Mark a silent child run crashed: its worker died and will never end it."""
    from prefect.states import Crashed

    message = f"negdata: no live lease for {ttl_s:.0f} s; its worker is gone"
    client.set_flow_run_state(chunk.run_id, Crashed(message=message), force=True)
    log.warning("chunk %d: child run %s marked crashed", chunk.index, chunk.runs[-1])


PAGE = 200  # the most a Prefect server returns for one filter request (its default limit)


def _states(client: Any, ids: list[UUID]) -> dict[UUID, Any]:
    """The states of the runs ``ids``, a page of them per request: one cycle's poll costs
    requests per 200 open chunks, not one per chunk."""
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    states: dict[UUID, Any] = {}
    for start in range(0, len(ids), PAGE):
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=ids[start : start + PAGE])),
            limit=PAGE,
        )
        states |= {run.id: run.state for run in runs}
    return states


def run_chunks(
    cfg: Config, config: str, shard_ids: list[int], deployment: str, retry_failed: bool
) -> dict[str, Any]:
    """Run ``shard_ids`` as child runs of ``deployment`` and wait until every shard is
    finished or has failed; what this run did, as ``work_on`` reports it."""
    from prefect.client.orchestration import get_client
    from prefect.runtime import flow_run

    log_to_stderr()
    todo = [s for s in shard_ids if retry_failed or not _finished(cfg, s)]
    size = cfg.run.shards_per_chunk
    chunks = [Chunk(i, todo[k : k + size]) for i, k in enumerate(range(0, len(todo), size))]
    fan = Fan(cfg, config, deployment, retry_failed, str(flow_run.id or "no-parent"))
    log.info("%d shards to do in %d chunks of %d on %s", len(todo), len(chunks), size, deployment)
    started = time.monotonic()
    for chunk in chunks:
        fan.submit(chunk, chunk.shards)
    log.info("%d child runs started in %.1f s", len(chunks), time.monotonic() - started)
    poll = min(MAX_POLL_S, cfg.run.lease_ttl_s / 4)
    open_chunks = list(chunks)
    with get_client(sync_client=True) as client:
        while open_chunks:
            started, checked = time.monotonic(), len(open_chunks)
            left = {c.index: fan.left(c) for c in open_chunks}
            busy = [c for c in open_chunks if left[c.index]]
            states = _states(client, [c.run_id for c in busy if c.run_id is not None])
            open_chunks = [
                c
                for c in busy
                if fan.check(c, left[c.index], c.run_id and states.get(c.run_id), client)
            ]
            done = sum(_finished(cfg, s) for s in todo)
            # What a cycle costs grows with the chunks open (`make bench-cluster` reads it).
            log.info(
                "%d of %d shards finished, %d chunks open; %d checked in %.2f s", done,
                len(todo), len(open_chunks), checked, time.monotonic() - started,
            )  # fmt: skip
            if open_chunks:
                time.sleep(poll)
    return {
        "chunks": len(chunks),
        "child_runs": sorted(name for c in chunks for name in c.runs),
        "failed_shards": sorted(fan.failed),
    }
