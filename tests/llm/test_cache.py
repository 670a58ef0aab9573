"""The response cache: a request answered once is served from disk afterwards."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm import run_structured
from negdata.llm.cache import ResponseCache, request_key


def test_key_ignores_dict_order_but_not_content() -> None:
    a = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.7}
    b = {"temperature": 0.7, "messages": [{"content": "hi", "role": "user"}], "model": "m"}
    assert request_key(a) == request_key(b)
    assert request_key(a) != request_key({**a, "temperature": 0.0})


def test_replies_persist_across_processes(tmp_path: Path) -> None:
    body = {"model": "m", "messages": []}
    first = ResponseCache(tmp_path / "c.sqlite")
    assert first.get(body) is None
    first.put(body, {"choices": [{"message": {"content": "{}"}}]})
    first.close()
    again = ResponseCache(tmp_path / "c.sqlite")
    assert again.get(body) == {"choices": [{"message": {"content": "{}"}}]} and len(again) == 1
    again.close()


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


@pytest.mark.slow
def test_a_rerun_is_served_entirely_from_the_cache(vllm_server: LLMConfig, tmp_path: Path) -> None:
    captions = ["a dog on a couch", "an empty street", "two cats"]

    def messages(caption: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": f"{caption!r}: is there a dog? yes or no."}]

    cache = tmp_path / "llm_cache.sqlite"
    first, paid = run_structured(vllm_server, captions, messages, YesNo, cache=cache)
    second, free = run_structured(vllm_server, captions, messages, YesNo, cache=cache)

    assert paid["llm_cache_hits"] == 0 and paid["llm_completion_tokens"] > 0
    assert free["llm_requests"] == 0 and free["llm_cache_hits"] == paid["llm_requests"]
    assert free["llm_completion_tokens"] == 0
    assert [r.value for r in second] == [r.value for r in first]
