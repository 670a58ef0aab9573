"""run_structured: every item gets a result; an unreachable server fails the whole call."""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

import pytest
from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm import LLMUnavailableError, run_structured, shared_pool


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


def _messages(caption: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"Caption: {caption!r}. Is there a dog? yes or no."}]


CAPTIONS = ["a dog on a couch", "an empty street", "two dogs play fetch", "a bowl of soup"]


@pytest.mark.slow
def test_every_item_gets_a_validated_result_and_counters(vllm_server: LLMConfig) -> None:
    results, stats = run_structured(vllm_server, CAPTIONS, _messages, YesNo)
    assert len(results) == len(CAPTIONS)
    assert all(r.value is not None and r.value.answer in ("yes", "no") for r in results)
    assert stats["llm_requests"] == len(CAPTIONS) and stats["llm_succeeded"] == len(CAPTIONS)
    assert stats["llm_prompt_tokens"] > 0 and stats["llm_completion_tokens"] > 0


def test_unreachable_server_raises_instead_of_dropping_items() -> None:
    with socket.socket() as unused:  # bound but not listening: connections are refused
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
        cfg = LLMConfig(endpoint=f"http://127.0.0.1:{port}/v1", max_retries=1, server_wait_s=0.2)
        with pytest.raises(LLMUnavailableError, match="2 of 2 calls"):
            run_structured(cfg, CAPTIONS[:2], _messages, YesNo)


@pytest.mark.slow
def test_batches_from_several_threads_share_the_open_pool(vllm_server: LLMConfig) -> None:
    cfg = vllm_server.model_copy(update={"max_concurrency": 3})
    with shared_pool(cfg) as pool, ThreadPoolExecutor(2) as threads:
        batches = list(
            threads.map(
                lambda captions: run_structured(cfg, captions, _messages, YesNo)[1],
                [CAPTIONS[:2], CAPTIONS[2:]],
            )
        )
        shared = pool.client.stats

    assert [b["llm_requests"] for b in batches] == [2, 2]  # each batch counts its own
    assert shared.requests == 4 and shared.succeeded == 4  # all went through the one client
    assert len(shared.latencies_ms) == 4
