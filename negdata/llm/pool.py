"""One LLM client on its own event-loop thread, callable from any thread.

The flow opens one shared pool for the whole run (``shared_pool``); every stage of every shard,
running in Prefect's worker threads, sends through it. They all draw on one connection pool and
one in-flight budget (``llm.max_concurrency``), so the tail of one shard's requests overlaps the
start of the next and the server never drains between shards. Outside a shared pool, each batch
gets a private one. A Dask worker, with no flow around its tasks, opens one per process
(``process_pool``) for its share of the budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine, Iterator
from types import TracebackType
from typing import Any, TypeVar

from negdata.config import LLMConfig
from negdata.llm.client import LLMClient

R = TypeVar("R")

_shared: dict[str, LLMPool] = {}
_users: dict[str, int] = {}  # blocks inside process_pool, per pool it opened
_shared_lock = threading.Lock()


def _key(cfg: LLMConfig) -> str:
    return cfg.model_dump_json()


class LLMPool:
    """``with LLMPool(cfg) as pool: pool.run(coro_using(pool.client))``."""

    def __init__(self, cfg: LLMConfig, *, record: bool = False) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="negdata-llm", daemon=True
        )
        self._thread.start()
        self.client: LLMClient = self.run(self._open(cfg, record))

    @staticmethod
    async def _open(cfg: LLMConfig, record: bool) -> LLMClient:
        return LLMClient(cfg, record=record)  # its HTTP client belongs to the loop

    def run(self, coro: Coroutine[Any, Any, R]) -> R:
        """Run ``coro`` on the pool's loop and block the calling thread until it is done."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self.run(self._aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    async def _aclose(self) -> None:
        await self.client.aclose()

    def __enter__(self) -> LLMPool:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


@contextlib.contextmanager
def shared_pool(cfg: LLMConfig, *, record: bool = False) -> Iterator[LLMPool]:
    """Make every batch for ``cfg`` in this process use one pool until the block ends."""
    key = _key(cfg)
    with LLMPool(cfg, record=record) as pool:
        with _shared_lock:
            if key in _shared:
                raise RuntimeError(
                    f"a shared LLM pool for {', '.join(cfg.base_urls)} is already open"
                )
            _shared[key] = pool
        try:
            yield pool
        finally:
            with _shared_lock:
                del _shared[key]


@contextlib.contextmanager
def process_pool(cfg: LLMConfig, max_concurrency: int) -> Iterator[None]:
    """Make every batch for ``cfg`` in this process use one pool with
    ``max_concurrency`` requests in flight while any such block is open: the first block opens
    it, the last closes it. A Dask worker's shard tasks, one per thread, share it as the threads
    engine's shards share ``shared_pool``."""
    key = _key(cfg)
    with _shared_lock:
        if key in _shared and key not in _users:
            raise RuntimeError(f"a shared LLM pool for {', '.join(cfg.base_urls)} is already open")
        if key not in _shared:
            budget = cfg.model_copy(update={"max_concurrency": max_concurrency})
            _shared[key] = LLMPool(budget)
        _users[key] = _users.get(key, 0) + 1
    try:
        yield
    finally:
        with _shared_lock:
            _users[key] -= 1
            last = _shared.pop(key) if not _users[key] else None
            if last is not None:
                del _users[key]
        if last is not None:
            last.close()


@contextlib.contextmanager
def pool_for(cfg: LLMConfig) -> Iterator[LLMPool]:
    """The shared pool for ``cfg`` if one is open, else a private one for this block."""
    with _shared_lock:
        shared = _shared.get(_key(cfg))
    if shared is not None:
        yield shared
        return
    with LLMPool(cfg) as pool:
        yield pool
