"""``make deploy``: negdata's work pools and deployments on the Prefect server at
``PREFECT_API_URL``. Idempotent: run it again after a change, it updates what is there.

- work pool ``negdata-cpu`` (process): parent runs, which only plan, watch and summarize;
- work pool ``negdata-gpu`` (process): chunk runs, one worker per GPU (``make worker``);
- deployment ``negdata-generate/cluster`` on ``negdata-cpu``: the parent run over ``shards``
  of ``config``, fanning out to the chunk deployment; ``--cron`` gives it a schedule (e.g.
  nightly: ``--cron "0 2 * * *"``), which a later run without ``--cron`` keeps
  (``--no-schedule`` removes it);
- deployment ``negdata-shards/gpu`` on ``negdata-gpu``: one chunk of shards, every stage.

Deployments run the code in this checkout (a process worker runs it from this folder), so
workers must see it at the same path: a shared file system, or the same image everywhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
from pathlib import Path

from prefect import Flow
from prefect.client.schemas.objects import DeploymentSchedule
from prefect.client.schemas.schedules import CronSchedule, IntervalSchedule, RRuleSchedule
from prefect.schedules import Schedule

from flows.generate import PARENT_DEPLOYMENT, generate, process_shards, refuse_local_llm
from negdata.config import load_config
from negdata.console import Parser, add_common_options, main_guard, setup_logging

ROOT = Path(__file__).resolve().parents[1]
CPU_POOL = "negdata-cpu"
GPU_POOL = "negdata-gpu"
PARENT = ("negdata-generate", "cluster")
CHILD = ("negdata-shards", "gpu")
CHILD_DEPLOYMENT = "/".join(CHILD)

log = logging.getLogger("negdata.deploy")


def ensure_pool(name: str, description: str) -> None:
    """Create a process work pool unless it exists."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import WorkPoolCreate
    from prefect.exceptions import ObjectNotFound

    with get_client(sync_client=True) as client:
        try:
            client.read_work_pool(name)
        except ObjectNotFound:
            client.create_work_pool(
                WorkPoolCreate(name=name, type="process", description=description)
            )
            log.info("work pool %s created", name)
            return
    log.info("work pool %s exists", name)


def current_schedules() -> list[Schedule]:
    """The parent deployment's schedules as they are on the server (none if it is not there)."""
    from prefect.client.orchestration import get_client
    from prefect.exceptions import ObjectNotFound

    with get_client(sync_client=True) as client:
        try:
            found = client.read_deployment_by_name("/".join(PARENT))
        except ObjectNotFound:
            return []
    return [made for s in found.schedules or [] if (made := _as_schedule(s)) is not None]


def _as_schedule(kept: DeploymentSchedule) -> Schedule | None:
    """A schedule read from the server, as ``Flow.deploy`` takes it (active or paused)."""
    found = kept.schedule
    if isinstance(found, CronSchedule):
        made = Schedule(cron=found.cron, day_or=found.day_or, timezone=found.timezone)
    elif isinstance(found, IntervalSchedule):
        made = Schedule(
            interval=found.interval, anchor_date=found.anchor_date, timezone=found.timezone
        )
    elif isinstance(found, RRuleSchedule):
        made = Schedule(rrule=found.rrule, timezone=found.timezone)
    else:
        return None  # a deployment "with no schedule" lists none
    return dataclasses.replace(
        made, active=bool(kept.active), parameters=kept.parameters, slug=kept.slug
    )


def deploy(config: Path, shards: str, cron: str | None, keep_schedule: bool = True) -> None:
    """Create or update the pools and deployments. Without ``cron``, the parent deployment
    keeps the schedules it has unless ``keep_schedule`` is false."""
    refuse_local_llm(load_config(config))  # a mistake in it stops here, not in every worker
    ensure_pool(CPU_POOL, "negdata parent runs: plan, watch, summarize")
    ensure_pool(GPU_POOL, "negdata chunk runs: one worker per GPU, --limit 1")
    source = str(ROOT)
    child = process_shards.from_source(source, "flows/generate.py:process_shards")
    assert isinstance(child, Flow)  # called from sync code, so not a coroutine
    child.deploy(
        name=CHILD[1],
        work_pool_name=GPU_POOL,
        build=False,
        push=False,
        print_next_steps=False,
        ignore_warnings=True,
    )
    kept = current_schedules() if cron is None and keep_schedule else []
    if kept:
        log.info("keeping the schedule of %s (--no-schedule removes it)", PARENT_DEPLOYMENT)
    parent = generate.from_source(source, "flows/generate.py:generate")
    assert isinstance(parent, Flow)
    parent.deploy(
        name=PARENT[1],
        work_pool_name=CPU_POOL,
        parameters={"shards": shards, "config": str(config), "fan_out": CHILD_DEPLOYMENT},
        cron=cron,
        schedules=kept or None,
        build=False,
        push=False,
        print_next_steps=False,
        ignore_warnings=True,
    )
    log.info(
        "deployments %s (pool %s) and %s (pool %s) are up to date",
        PARENT_DEPLOYMENT, CPU_POOL, CHILD_DEPLOYMENT, GPU_POOL,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="deploy.py", description=__doc__)
    parser.add_argument("--config", default="configs/cc12m.yaml")
    parser.add_argument("--shards", default="0-99", help="the parent deployment's default")
    schedule = parser.add_mutually_exclusive_group()
    schedule.add_argument(
        "--cron", default=None, help='a schedule for it, e.g. "0 2 * * *" (default: keep its own)'
    )
    schedule.add_argument("--no-schedule", action="store_true", help="remove the schedule it has")
    add_common_options(parser)
    args: argparse.Namespace = parser.parse_args(argv)
    setup_logging(args.debug)
    with main_guard(args.debug):
        deploy(Path(args.config).resolve(), args.shards, args.cron, not args.no_schedule)


if __name__ == "__main__":
    main()
