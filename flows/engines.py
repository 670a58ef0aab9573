"""Where a run's shard tasks run, as ``run.engine`` says.

``threads`` (the default): Prefect's thread pool in the flow's own process, ``shards_at_once``
shards at a time, all sending through the flow's one shared LLM client. ``dask``: a Dask cluster
through prefect-dask, the existing one at ``run.dask_address`` or a LocalCluster of
``run.dask_workers`` processes started for the run. There every shard task asks for one ``GPU``
resource, so a worker runs as many shards, and so detections, at once as it has GPUs; and a
worker process lives on between shards, keeping its loaded detectors (YOLO loads once per
worker, not once per shard). The flow still starts the LLM server or waits for it; each worker
process sends to it through a client of its own, with an equal share of ``llm.max_concurrency``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prefect import Task
from prefect.futures import PrefectFuture
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from negdata.config import Config

if TYPE_CHECKING:
    from prefect_dask.task_runners import DaskTaskRunner

GPU = {"GPU": 1}


@dataclass(frozen=True)
class Engine:
    """A started task runner, and the LLM budget of each process its shard tasks run in: None
    where they share the flow's pool, else a worker process's share."""

    runner: TaskRunner[Any]
    llm_share: int | None = None

    def submit(self, task: Task[..., Any], parameters: dict[str, Any]) -> PrefectFuture[Any]:
        future: PrefectFuture[Any]
        if self.llm_share is None:
            future = self.runner.submit(task, parameters)
            return future
        from dask.base import annotate

        with annotate(resources=GPU):
            future = self.runner.submit(task, {**parameters, "llm_share": self.llm_share})
        return future


@contextlib.contextmanager
def engine(cfg: Config) -> Iterator[Engine]:
    """The engine ``run.engine`` names, started for the block and stopped after it (a
    LocalCluster with it; an existing cluster is only disconnected from)."""
    if cfg.run.engine == "threads":
        with ThreadPoolTaskRunner[Any](cfg.shards_at_once) as threads:
            yield Engine(threads)
        return
    dask_runner = _dask_runner(cfg)  # imports distributed, which sets its loggers to info
    from dask.config import set as dask_config

    # Dask's info lines (a dozen per worker started or stopped) reach the console through
    # Prefect's root handler, so this process and the workers it starts keep to warnings.
    # Ingest decodes in processes of its own, which a daemonic worker process may not start.
    logging.getLogger("distributed").setLevel(logging.WARNING)
    settings = {
        "distributed.worker.daemon": False,
        "distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED": "warning",
    }
    with dask_config(settings), dask_runner as runner:
        address = cfg.run.dask_address
        try:
            client = runner.client
        except OSError as exc:
            if not address:
                raise
            raise ValueError(
                f"run.dask_address {address}: no Dask scheduler answers ({exc})"
            ) from None
        workers = client.scheduler_info()["workers"]
        if not any(w.get("resources", {}).get("GPU", 0) >= 1 for w in workers.values()):
            raise ValueError(
                f"none of the {len(workers)} workers of the Dask cluster at {address} declares "
                "a GPU resource, so no shard would ever run: start each worker with "
                "--resources GPU=1 per GPU"
            )
        yield Engine(runner, max(1, cfg.llm.max_concurrency // len(workers)))


def _dask_runner(cfg: Config) -> DaskTaskRunner:
    try:
        from prefect_dask.task_runners import DaskTaskRunner
    except ImportError:
        raise ValueError(
            "run.engine is dask, but prefect-dask is not installed: pip install 'negdata[dask]'"
        ) from None
    if cfg.run.dask_address:
        return DaskTaskRunner(
            address=cfg.run.dask_address,
            client_kwargs={"timeout": f"{cfg.run.dask_connect_timeout_s}s"},
        )
    return DaskTaskRunner(
        cluster_kwargs={
            "n_workers": cfg.run.dask_workers,
            "threads_per_worker": 1,
            "processes": True,
            "resources": GPU,
            "dashboard_address": ":0",  # a free port: runs on one machine do not race for 8787
        }
    )
