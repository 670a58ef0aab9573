"""run_structured: every item gets a result; an unreachable server fails the whole call."""

from __future__ import annotations

import socket
from typing import Literal

import pytest
from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm import LLMUnavailableError, run_structured


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


def _messages(caption: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"Caption: {caption!r}. Is there a dog? yes or no."}]


CAPTIONS = ["a dog on a couch", "an empty street", "two dogs play fetch", "a bowl of soup"]


@pytest.mark.slow
def test_every_item_gets_a_validated_result_and_counters(vllm_server: LLMConfig) -> None:
    results, stats = run_structured(vllm_server, CAPTIONS, _messages, YesNo, seed=0)
    assert len(results) == len(CAPTIONS)
    assert all(r.value is not None and r.value.answer in ("yes", "no") for r in results)
    assert stats["llm_requests"] == len(CAPTIONS) and stats["llm_succeeded"] == len(CAPTIONS)
    assert stats["llm_prompt_tokens"] > 0 and stats["llm_completion_tokens"] > 0


def test_unreachable_server_raises_instead_of_dropping_items() -> None:
    with socket.socket() as unused:  # bound but not listening: connections are refused
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
        cfg = LLMConfig(endpoint=f"http://127.0.0.1:{port}/v1", max_retries=1, backoff_s=0.01)
        with pytest.raises(LLMUnavailableError, match="2 of 2 calls"):
            run_structured(cfg, CAPTIONS[:2], _messages, YesNo)
