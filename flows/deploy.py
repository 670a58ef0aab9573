"""``make deploy``: negdata's work pools and deployments on the Prefect server at
``PREFECT_API_URL``. Idempotent: run it again after a change, it updates what is there.

- work pool ``negdata-cpu`` (process): parent runs, which only plan, watch and summarize;
- work pool ``negdata-gpu`` (process): chunk runs, one worker per GPU (``make worker``);
- deployment ``negdata-generate/cluster`` on ``negdata-cpu``: the parent run over ``shards``
  of ``config``, fanning out to the chunk deployment; ``--cron`` gives it a schedule (e.g.
  nightly: ``--cron "0 2 * * *"``);
- deployment ``negdata-shards/gpu`` on ``negdata-gpu``: one chunk of shards, every stage.

Deployments run the code in this checkout (a process worker runs it from this folder), so
workers must see it at the same path: a shared file system, or the same image everywhere.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from prefect import Flow

from flows.generate import PARENT_DEPLOYMENT, generate, process_shards
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


def deploy(config: Path, shards: str, cron: str | None) -> None:
    load_config(config)  # a mistake in it stops here, not in every worker
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
    parent = generate.from_source(source, "flows/generate.py:generate")
    assert isinstance(parent, Flow)
    parent.deploy(
        name=PARENT[1],
        work_pool_name=CPU_POOL,
        parameters={"shards": shards, "config": str(config), "fan_out": CHILD_DEPLOYMENT},
        cron=cron,
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
    parser.add_argument("--cron", default=None, help='a schedule for it, e.g. "0 2 * * *"')
    add_common_options(parser)
    args: argparse.Namespace = parser.parse_args(argv)
    setup_logging(args.debug)
    with main_guard(args.debug):
        deploy(Path(args.config).resolve(), args.shards, args.cron)


if __name__ == "__main__":
    main()
