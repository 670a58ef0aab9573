"""Run one structured LLM call per item, all in flight at once (bounded by the client)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel
from tqdm import tqdm

from negdata.config import LLMConfig
from negdata.llm.cache import ResponseCache
from negdata.llm.client import LLMClient, LLMResult

T = TypeVar("T", bound=BaseModel)
Item = TypeVar("Item")
Messages = list[dict[str, str]]


class LLMUnavailableError(RuntimeError):
    """The LLM server could not be reached for some items; the stage must not be marked done."""


def llm_stats(client: LLMClient) -> dict[str, int]:
    """A client's totals as flat ``llm_*`` counters for a stage's stats file."""
    return {f"llm_{k}": v for k, v in client.stats.as_dict().items()}


def run_structured(
    cfg: LLMConfig,
    items: Sequence[Item],
    messages: Callable[[Item], Messages],
    schema: type[T],
    *,
    seed: int | None = None,
    desc: str = "llm",
    cache: Path | None = None,
) -> tuple[list[LLMResult[T]], dict[str, int]]:
    """The results in item order, and the client's counters. A per-item failure is a result;
    an unreachable server raises ``LLMUnavailableError`` so that no item is dropped for it."""

    async def main() -> tuple[list[LLMResult[T]], dict[str, int]]:
        responses = ResponseCache(cache) if cache is not None else None
        try:
            return await _run(LLMClient(cfg, responses))
        finally:
            if responses is not None:
                responses.close()

    async def _run(client: LLMClient) -> tuple[list[LLMResult[T]], dict[str, int]]:
        async with client:

            async def one(item: Item) -> LLMResult[T]:
                return await client.structured(messages(item), schema, seed=seed)

            tasks = [asyncio.ensure_future(one(item)) for item in items]
            for done in tqdm(asyncio.as_completed(tasks), total=len(tasks), desc=desc):
                await done
            results = [task.result() for task in tasks]
            unavailable = sum(1 for r in results if r.reason == "llm_unavailable")
            if unavailable:
                raise LLMUnavailableError(
                    f"{unavailable} of {len(results)} calls to {cfg.base_url} failed: the "
                    "server is unavailable; the stage is left unfinished, rerun to resume"
                )
            return results, llm_stats(client)

    return asyncio.run(main())
