"""Two real vLLM CPU servers as replicas in ``llm.endpoints``: the client sends to both, and when
one is killed mid-batch the other finishes the batch with nothing lost.

The second server belongs to this module and the last test kills it; the first is the session's.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import Iterator
from typing import Literal

import pytest
from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm import LLMClient, LLMResult, LocalServer
from negdata.llm.metrics import read_counters


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


Result = LLMResult[YesNo]
CAPTIONS = [f"{n} dogs sleep on a red couch" for n in range(1, 17)]


def _messages(caption: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"Caption: {caption!r}. Is there a dog? yes or no."}]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def second_server(
    vllm_server: LLMConfig, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalServer]:
    serve = vllm_server.serve.model_copy(update={"port": _free_port()})
    cfg = vllm_server.model_copy(update={"serve": serve, "endpoint": None})
    log_path = tmp_path_factory.mktemp("vllm-second") / "vllm.log"
    with LocalServer(cfg, log_path=log_path) as server:
        yield server


def _replicas(vllm_server: LLMConfig, second: LocalServer) -> LLMConfig:
    urls = [vllm_server.base_url, second.base_url]
    return vllm_server.model_copy(
        update={"endpoint": None, "endpoints": urls, "max_concurrency": 4, "max_tokens": 16}
    )


async def _ask(llm: LLMClient, caption: str) -> Result:
    return await llm.structured(_messages(caption), YesNo, temperature=0.0)


def _served(url: str) -> float:
    counters = read_counters(url)
    assert counters is not None
    return counters.values["requests"]


@pytest.mark.slow
def test_requests_are_spread_over_both_servers(
    vllm_server: LLMConfig, second_server: LocalServer
) -> None:
    cfg = _replicas(vllm_server, second_server)
    before = {url: _served(url) for url in cfg.base_urls}

    async def run() -> tuple[list[Result], dict[str, int]]:
        async with LLMClient(cfg) as llm:
            results = await asyncio.gather(*(_ask(llm, c) for c in CAPTIONS[:8]))
            return list(results), llm.requests_by_endpoint()

    results, sent = asyncio.run(run())

    assert all(r.ok or r.reason == "llm_invalid_output" for r in results)
    served = {url: _served(url) - before[url] for url in cfg.base_urls}
    assert all(count > 0 for count in served.values())  # each server's own counter grew
    assert served == sent and sum(sent.values()) >= 8


@pytest.mark.slow
def test_a_server_killed_mid_batch_loses_nothing_and_the_other_finishes(
    vllm_server: LLMConfig, second_server: LocalServer
) -> None:
    cfg = _replicas(vllm_server, second_server)
    first, second = cfg.base_urls
    kill_after = 4  # replies seen before the crash
    before = _served(first)

    async def run() -> tuple[list[Result], list[Result], dict[str, int], LLMClient]:
        async with LLMClient(cfg) as llm:
            tasks = [asyncio.ensure_future(_ask(llm, c)) for c in CAPTIONS]
            for replies, done in enumerate(asyncio.as_completed(tasks), start=1):
                await done
                if replies == kill_after:
                    assert second_server.pid is not None
                    assert llm.endpoints[1].in_flight >= 1  # it dies holding requests
                    os.killpg(second_server.pid, signal.SIGKILL)  # a crash, no shutdown
                    at_kill = llm.requests_by_endpoint()
            # A later batch sends to the dead server too unless it is known down (it has
            # nothing in flight), is refused, and moves on at once.
            later = await asyncio.gather(*(_ask(llm, c) for c in CAPTIONS[:4]))
            return [t.result() for t in tasks], list(later), at_kill, llm

    batch, later, at_kill, llm = asyncio.run(run())

    assert len(batch) == len(CAPTIONS)
    assert {r.reason for r in batch + later if not r.ok} <= {"llm_invalid_output"}
    assert at_kill[second] >= 1 and llm.endpoints[1].down
    sent = llm.requests_by_endpoint()
    assert sent[second] > at_kill[second]  # refused connections after the crash
    assert _served(first) - before == sent[first]  # everything since went to the first
