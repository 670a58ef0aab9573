"""``make worker``: Prefect workers for this machine, one per visible GPU, plus one for parents.

Each GPU ``k`` gets a worker on the ``negdata-gpu`` pool with ``--limit 1`` (one chunk run at a
time), ``CUDA_VISIBLE_DEVICES=k``, and ``NEGDATA_GPU_SLOT`` naming the GPU's strict Prefect
concurrency limit (``negdata-gpu-<host>-<k>``, limit 1, created here), which the detect stage
holds. GPUs are those in ``--gpus``, else ``CUDA_VISIBLE_DEVICES``, else what ``nvidia-smi -L``
lists; a machine with none gets one chunk worker that detects on the CPU. A worker on the
``negdata-cpu`` pool runs parent runs, which hold no GPU. ``--role chunks`` or ``--role
parent`` starts only the one kind (a GPU node, the head node).

It runs until SIGTERM or Ctrl-C, then stops every worker: SIGTERM, SIGKILL after a short grace
period. A worker that exits on its own (killed, its GPU lost) is logged in one line and the
others go on; the command ends, failing, when none is left. Prefect turns a worker's first
SIGTERM into a SIGINT that stops it taking runs, but an idle worker then never exits (Prefect
3.9.1: still running 60 s later) and a busy one waits for its flow runs, so a long grace only
delays the stop; a killed chunk run's shards go to another worker when their leases expire.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

from flows.deploy import CPU_POOL, GPU_POOL
from flows.generate import GPU_SLOT_ENV
from negdata.console import Parser, add_common_options, main_guard, setup_logging

STOP_GRACE_S = 2.0
PARENT_LIMIT = 4  # parent runs only watch their children: a few at once per machine
# Prefect settings for every worker, unless the environment sets them: negdata's log lines
# reach the Prefect UI as the run's logs, beside Prefect's own; and a worker looks for a new
# run every 2 s, not 10, since a worker with --limit 1 idles its GPU from the end of one chunk
# run until it next looks (`make bench-cluster` measures that wait).
WORKER_DEFAULTS = {"PREFECT_LOGGING_EXTRA_LOGGERS": "negdata", "PREFECT_WORKER_QUERY_SECONDS": "2"}

log = logging.getLogger("negdata.workers")


def visible_gpus(given: str | None) -> list[str]:
    """GPU indices from ``given`` ("0,1"), else ``CUDA_VISIBLE_DEVICES``, else nvidia-smi."""
    listed = given if given is not None else os.environ.get("CUDA_VISIBLE_DEVICES")
    if listed is not None:
        return [g.strip() for g in listed.split(",") if g.strip()]
    if shutil.which("nvidia-smi") is None:
        return []
    found = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False)
    return [str(i) for i, line in enumerate(found.stdout.splitlines()) if line.startswith("GPU")]


def slot_name(gpu: str) -> str:
    return f"negdata-gpu-{socket.gethostname()}-{gpu}"


def ensure_slot(name: str) -> None:
    """The GPU's global concurrency limit (limit 1), created unless it exists."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate
    from prefect.exceptions import ObjectNotFound

    with get_client(sync_client=True) as client:
        try:
            client.read_global_concurrency_limit_by_name(name)
        except ObjectNotFound:
            client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name=name, limit=1))
            log.info("concurrency limit %s created (limit 1)", name)


def _worker(pool: str, name: str, limit: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "prefect", "worker", "start", "--pool", pool, "--type", "process",
        "--limit", str(limit), "--name", name,
    ]  # fmt: skip
    log.info("worker %s on pool %s (limit %d)", name, pool, limit)
    return subprocess.Popen(command, env={**WORKER_DEFAULTS, **os.environ, **env})


Workers = dict[str, subprocess.Popen[bytes]]  # by name


def start_workers(gpus: list[str], role: str) -> Workers:
    host = socket.gethostname()
    workers = {}
    for gpu in (gpus or [""]) if role in ("all", "chunks") else []:
        slot = slot_name(gpu or "cpu")
        ensure_slot(slot)
        name = f"gpu{gpu}@{host}" if gpu else f"cpu-detect@{host}"
        workers[name] = _worker(
            GPU_POOL, name, 1, {"CUDA_VISIBLE_DEVICES": gpu, GPU_SLOT_ENV: slot}
        )
    if role in ("all", "parent"):
        name = f"parent@{host}"
        workers[name] = _worker(CPU_POOL, name, PARENT_LIMIT, {})
    return workers


def stop(workers: Workers) -> None:
    for worker in workers.values():
        if worker.poll() is None:
            worker.terminate()
    deadline = time.monotonic() + STOP_GRACE_S
    for worker in workers.values():
        try:
            worker.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="workers.py", description=__doc__)
    parser.add_argument("--gpus", default=None, help='GPU indices, e.g. "0,1" (default: all)')
    parser.add_argument(
        "--role", choices=("all", "chunks", "parent"), default="all",
        help="chunks: the GPU workers only; parent: the parent-run worker only",
    )  # fmt: skip
    add_common_options(parser)
    args = parser.parse_args(argv)
    setup_logging(args.debug)
    with main_guard(args.debug):
        if not os.environ.get("PREFECT_API_URL"):
            raise ValueError("PREFECT_API_URL is not set: point it at the cluster's Prefect server")
        workers = start_workers(visible_gpus(args.gpus), args.role)

        def _stop(signum: int, frame: FrameType | None) -> None:
            stop(workers)
            sys.exit(128 + signum)

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        watch(workers)
        raise RuntimeError("every worker exited")


def watch(workers: Workers, every_s: float = 1.0) -> None:
    """Until every worker has exited: one that exits (killed, its GPU lost) is said in one
    line, and the others go on taking runs."""
    running = dict(workers)
    while running:
        for name, worker in [(n, w) for n, w in running.items() if w.poll() is not None]:
            del running[name]
            log.warning(
                "worker %s exited (code %s); %d other(s) go on", name, worker.returncode,
                len(running),
            )  # fmt: skip
        time.sleep(every_s)


if __name__ == "__main__":
    main()
