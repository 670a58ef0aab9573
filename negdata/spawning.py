"""The processes negdata starts for its workers (decode pools, a device's detector): spawned,
never forked from a process that runs threads or holds a model, quiet while they start, and
light.

- **Quiet**: Ctrl-C cannot reach one while it starts. SIGINT is blocked in the thread that
  starts it and a child keeps the mask it was started with, so a Ctrl-C in the middle of its
  start (before it ignores SIGINT itself) prints no traceback; the parent decides how to stop.
- **Light**: it does not run the parent's main module again. multiprocessing's spawn imports
  the parent's ``__main__`` in every child before anything else, for functions defined there;
  a worker's functions live in negdata's modules, and the main module of a flow run
  (``flows/generate.py``, ``prefect.engine``) imports Prefect and every stage: 3 s of CPU per
  worker, against 0.1 s without it (`make bench-workers`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import popen_spawn_posix, spawn
from multiprocessing.context import SpawnContext, SpawnProcess
from multiprocessing.process import BaseProcess
from typing import Any

_MAIN_KEYS = ("init_main_from_path", "init_main_from_name")
_starting = threading.local()  # set in a thread while it starts a light process
_install_lock = threading.Lock()


def _preparation_data(name: str, *, _parent: Any = spawn.get_preparation_data) -> dict[str, Any]:
    """spawn's preparation data for a child, without the main module when a light process is
    being started in this thread."""
    data: dict[str, Any] = _parent(name)
    if getattr(_starting, "light", False):
        for key in _MAIN_KEYS:
            data.pop(key, None)
    return data


@contextmanager
def _light_start() -> Iterator[None]:
    with _install_lock:
        if spawn.get_preparation_data is not _preparation_data:
            spawn.get_preparation_data = _preparation_data
    _starting.light = True
    try:
        yield
    finally:
        _starting.light = False


class _WorkerProcess(SpawnProcess):
    """A spawned process, quiet while it starts and without the parent's main module."""

    def start(self) -> None:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    @staticmethod
    def _Popen(process_obj: BaseProcess) -> Any:
        with _light_start():
            return popen_spawn_posix.Popen(process_obj)


class _WorkerContext(SpawnContext):
    Process = _WorkerProcess


def worker_spawn() -> SpawnContext:
    """multiprocessing's "spawn" context for negdata's workers: quiet and light (above). The
    functions and objects a worker is given must live in importable modules, not ``__main__``."""
    return _WorkerContext()
