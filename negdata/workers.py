"""The process's pool of worker processes for CPU-bound image work: ingest's decode and
re-encode, detect's decode and letterbox.

One pool per size, started on first use and shared by every shard and stage of the process, so
a run of many shards starts its workers once. A worker is a fresh (spawned) process, never a
fork of a process that runs threads or holds a model; each costs an interpreter start and the
imports its work needs, and a pool per shard paid it over and over. Workers skip the parent's
main module and ignore Ctrl-C from the first moment of their start (the parent decides how to
stop; ``spawning.worker_spawn``), and exit once the process that started them is gone, so a
killed run leaves none behind.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from negdata.spawning import worker_spawn
from negdata.stopping import STOPPING, ignore_interrupts

T = TypeVar("T")
R = TypeVar("R")

_pools: dict[int, ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()


def exit_with_parent(parent: int, last_words: Callable[[], None] | None = None) -> None:
    """End this process (a pool worker, a device's detector, a worker's flow run) once its
    parent is gone, after ``last_words`` (whatever it raises, the process ends)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        try:
            if last_words is not None:
                last_words()
        finally:
            os._exit(1)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def _init_worker(parent: int) -> None:
    ignore_interrupts()
    exit_with_parent(parent)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """This process's pool of ``workers`` processes, started once and shared; a stop in
    progress refuses to start one. ``pool_for`` is the way to use it."""
    # A worker starts from the parent's sys.path, which OpenCV's first import edits for a
    # moment (opencv/opencv#18502): started while a thread imports it, a worker would find
    # cv2/typing in place of typing and die. Importing it here first waits for such an import
    # to finish; the pool starts workers on demand, and every caller has come through here.
    with contextlib.suppress(ImportError):
        import cv2  # noqa: F401
    with _pools_lock:
        if STOPPING.is_set():
            raise RuntimeError("stopping: no new worker pool is started")
        if workers not in _pools:
            _pools[workers] = ProcessPoolExecutor(
                workers,
                mp_context=worker_spawn(),
                initializer=_init_worker,
                initargs=(os.getpid(),),
            )
        return _pools[workers]


@contextlib.contextmanager
def pool_for(workers: int, setting: str) -> Iterator[ProcessPoolExecutor]:
    """``worker_pool(workers)`` for the block. A worker that dies in it (killed, out of memory)
    fails the block in one line naming ``setting``, the config key that sizes the pool, and the
    next caller gets a fresh pool."""
    try:
        yield worker_pool(workers)
    except BrokenProcessPool:
        forget(workers)
        raise RuntimeError(f"a decode worker died (killed, or out of memory?): {setting}") from None


def forget(workers: int) -> None:
    """Shut down the pool of ``workers`` without waiting: the next ``worker_pool`` call starts
    a fresh one."""
    with _pools_lock:
        pool = _pools.pop(workers, None)
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def forget_all() -> None:
    """Shut down every pool of this process."""
    for workers in list(_pools):
        forget(workers)


def in_order(fn: Callable[[T], R], items: Iterable[T], workers: int, setting: str) -> Iterator[R]:
    """``fn`` of each item, in the items' order: in this process with 1 worker, else in
    ``workers`` processes (``fn`` and the items must pickle), with at most twice as many items
    in flight as workers, so a result waits in memory only while an earlier one still runs.
    ``setting`` names what sizes the pool (``pool_for``)."""
    if workers == 1:
        yield from map(fn, items)
        return
    pending = iter(items)
    with pool_for(workers, setting) as pool:
        running: deque[Future[R]] = deque(
            pool.submit(fn, item) for item in itertools.islice(pending, 2 * workers)
        )
        try:
            while running:
                result = running.popleft().result()
                running.extend(pool.submit(fn, item) for item in itertools.islice(pending, 1))
                yield result
        finally:
            for future in running:
                future.cancel()
