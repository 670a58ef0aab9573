"""Run one structured LLM call per item, all in flight at once (bounded by the client).

``run_batches`` sends several independent batches together (a stage's compose and paraphrase
calls), so that one does not wait for the other's tail.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm.cache import ResponseCache
from negdata.llm.client import ClientStats, LLMClient, LLMResult
from negdata.llm.pool import pool_for
from negdata.progress import Progress

T = TypeVar("T", bound=BaseModel)
Item = TypeVar("Item")
Messages = list[dict[str, str]]


class LLMUnavailableError(RuntimeError):
    """The LLM server could not be reached for some items; the stage must not be marked done."""


@dataclass(frozen=True)
class Batch(Generic[Item, T]):
    """One call per item: ``messages(item)`` asked for a ``schema`` object. ``key(item)``, the
    image's key say, tells the response cache which item an answer is for (see ``cache.py``)."""

    items: Sequence[Item]
    messages: Callable[[Item], Messages]
    schema: type[T]
    desc: str = "llm"
    key: Callable[[Item], str] | None = None


def llm_stats(stats: ClientStats) -> dict[str, int]:
    """A batch's totals as flat ``llm_*`` counters for a stage's stats file (failure reasons
    such as ``llm_invalid_output`` already carry the prefix)."""
    return {k if k.startswith("llm_") else f"llm_{k}": v for k, v in stats.as_dict().items()}


def merge_counters(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Sum two counter dicts, keeping zero counts (``Counter`` addition would drop them)."""
    return {key: a.get(key, 0) + b.get(key, 0) for key in a.keys() | b.keys()}


def run_batches(
    cfg: LLMConfig,
    batches: Sequence[Batch[Any, Any]],
    *,
    cache: ResponseCache | None = None,
) -> list[tuple[list[LLMResult[Any]], dict[str, int]]]:
    """Each batch's results in item order and its counters; all batches are in flight together.

    A per-item failure is a result; an unreachable server raises ``LLMUnavailableError`` so that
    no item is dropped for it. Runs on the shared pool for ``cfg`` when the flow opened one, so
    the batches of several shards share one in-flight budget; else on a private pool. ``cache``
    is the shard's response cache (``negdata.llm.cache``).
    """
    stats = [ClientStats() for _ in batches]

    async def run_one(
        client: LLMClient, batch: Batch[Any, Any], counters: ClientStats
    ) -> list[LLMResult[Any]]:
        async def one(item: Any) -> LLMResult[Any]:
            key = batch.key(item) if batch.key is not None else None
            return await client.structured(
                batch.messages(item), batch.schema, stats=counters, item=key, cache=cache
            )

        tasks = [asyncio.ensure_future(one(item)) for item in batch.items]
        with Progress(len(tasks), batch.desc) as bar:
            for done in asyncio.as_completed(tasks):
                await done
                bar.update()
        return [task.result() for task in tasks]

    async def run_all(client: LLMClient) -> list[list[LLMResult[Any]]]:
        return list(
            await asyncio.gather(
                *(run_one(client, b, s) for b, s in zip(batches, stats, strict=True))
            )
        )

    with pool_for(cfg) as pool:
        results = pool.run(run_all(pool.client))
    flat = [r for batch in results for r in batch]
    unavailable = sum(1 for r in flat if r.reason == "llm_unavailable")
    if unavailable:
        raise LLMUnavailableError(
            f"{unavailable} of {len(flat)} calls to {', '.join(cfg.base_urls)} failed: no "
            "server was available; the stage is left unfinished, rerun to resume"
        )
    return [(r, llm_stats(s)) for r, s in zip(results, stats, strict=True)]


def run_structured(
    cfg: LLMConfig,
    items: Sequence[Item],
    messages: Callable[[Item], Messages],
    schema: type[T],
    *,
    desc: str = "llm",
    cache: ResponseCache | None = None,
    key: Callable[[Item], str] | None = None,
) -> tuple[list[LLMResult[T]], dict[str, int]]:
    """One batch: the results in item order and its counters (see ``run_batches``)."""
    batch = Batch(items, messages, schema, desc, key)
    [(results, stats)] = run_batches(cfg, [batch], cache=cache)
    return results, stats
