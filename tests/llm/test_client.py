"""LLMClient against the real vLLM CPU server (SmolLM2-135M) and against a dead endpoint."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm import ClientStats, LLMClient, LLMResult

QUESTION = [
    {
        "role": "user",
        "content": "Caption: 'A dog sleeps on a red couch.' Is there a dog? yes or no.",
    }
]


class Answer(BaseModel):
    answer: Literal["yes", "no"]


def ask(
    cfg: LLMConfig, calls: int = 1, **kwargs: Any
) -> tuple[list[LLMResult[Answer]], ClientStats]:
    async def run() -> tuple[list[LLMResult[Answer]], ClientStats]:
        async with LLMClient(cfg) as llm:
            jobs = [llm.structured(QUESTION, Answer, **kwargs) for _ in range(calls)]
            return list(await asyncio.gather(*jobs)), llm.stats

    return asyncio.run(run())


@pytest.mark.slow
def test_structured_call_returns_a_validated_object(vllm_server: LLMConfig) -> None:
    [result], stats = ask(vllm_server, temperature=0.0, max_tokens=16)

    assert isinstance(result.value, Answer)
    assert (result.reason, result.attempts, result.model) == (None, 1, vllm_server.model)
    assert result.prompt_tokens > 0
    assert result.completion_tokens > 0
    assert (stats.requests, stats.succeeded, stats.failures) == (1, 1, {})


@pytest.mark.slow
def test_concurrent_calls_beyond_the_concurrency_limit_all_succeed(vllm_server: LLMConfig) -> None:
    cfg = vllm_server.model_copy(update={"max_concurrency": 2})

    results, stats = ask(cfg, calls=6, max_tokens=48, temperature=0.0)

    assert all(isinstance(result.value, Answer) for result in results)
    assert (stats.requests, stats.succeeded) == (6, 6)


@pytest.mark.slow
def test_truncated_output_is_retried_once_at_temperature_zero_then_rejected(
    vllm_server: LLMConfig,
) -> None:
    [result], stats = ask(vllm_server, max_tokens=3)

    assert result.value is None
    assert (result.reason, result.attempts) == ("llm_invalid_output", 2)
    assert result.detail is not None and result.detail.startswith("cut off at max_tokens")
    assert (stats.requests, stats.retries, stats.failures) == (2, 1, {"llm_invalid_output": 1})


@pytest.mark.slow
def test_unknown_model_is_an_http_error_without_retries(vllm_server: LLMConfig) -> None:
    cfg = vllm_server.model_copy(update={"model": "no-such-model"})

    [result], stats = ask(cfg, max_tokens=16)

    assert (result.value, result.reason, result.attempts) == (None, "llm_http_error", 1)
    assert result.detail is not None and "404" in result.detail
    assert stats.retries == 0


def test_dead_endpoint_costs_one_bounded_wait_shared_by_every_request() -> None:
    with socket.socket() as unused:  # bound but not listening: connections are refused
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
        cfg = LLMConfig(
            endpoint=f"http://127.0.0.1:{port}/v1", max_retries=2, backoff_s=0.01, server_wait_s=1.0
        )
        started = time.monotonic()

        results, stats = ask(cfg, calls=8)

    waited = time.monotonic() - started
    assert {(r.value, r.reason, r.attempts) for r in results} == {(None, "llm_unavailable", 1)}
    assert all(r.detail is not None and "ConnectError" in r.detail for r in results)
    assert (stats.requests, stats.retries, stats.failures) == (8, 0, {"llm_unavailable": 8})
    assert 1.0 <= waited < 4.0  # one wait of server_wait_s, not one per request
