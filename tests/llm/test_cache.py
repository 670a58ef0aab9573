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
    first = ResponseCache(tmp_path / "00000")
    assert first.get(body) is None
    first.put(body, {"choices": [{"message": {"content": "{}"}}]})
    first.close()
    again = ResponseCache(tmp_path / "00000")
    assert again.get(body) == {"choices": [{"message": {"content": "{}"}}]} and len(again) == 1
    again.close()


class YesNo(BaseModel):
    answer: Literal["yes", "no"]


@pytest.mark.slow
def test_a_rerun_is_served_entirely_from_the_cache(vllm_server: LLMConfig, tmp_path: Path) -> None:
    captions = ["a dog on a couch", "an empty street", "two cats"]

    def messages(caption: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": f"{caption!r}: is there a dog? yes or no."}]

    cache = ResponseCache(tmp_path / "00000")
    first, paid = run_structured(vllm_server, captions, messages, YesNo, cache=cache)
    second, free = run_structured(vllm_server, captions, messages, YesNo, cache=cache)

    assert paid["llm_cache_hits"] == 0 and paid["llm_completion_tokens"] > 0
    assert free["llm_requests"] == 0 and free["llm_cache_hits"] == paid["llm_requests"]
    assert free["llm_completion_tokens"] == 0
    assert [r.value for r in second] == [r.value for r in first]


def test_the_item_an_answer_is_for_is_part_of_its_key() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert request_key(body, "000000001") != request_key(body, "000000002")
    assert request_key(body, "000000001") != request_key(body)


class Words(BaseModel):
    words: list[str]


@pytest.mark.slow
def test_two_images_asking_the_same_get_one_answer_each_and_a_rerun_gives_them_back(
    vllm_server: LLMConfig, tmp_path: Path
) -> None:
    """Two images with the same caption send the same request: each gets a sample of its own,
    and a rerun from the cache must hand each its own again, not one sample to both."""
    images = ["000000000", "000000014"]  # same caption, same detections

    def messages(key: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": "Name three things that could be in a kitchen."}]

    cache = ResponseCache(tmp_path / "00000")
    hot = vllm_server.model_copy(update={"temperature": 1.0, "max_tokens": 48})
    first, paid = run_structured(hot, images, messages, Words, cache=cache, key=lambda k: k)
    again, free = run_structured(hot, images, messages, Words, cache=cache, key=lambda k: k)

    assert paid["llm_requests"] >= 2 and free["llm_requests"] == 0
    stored = ResponseCache(tmp_path / "00000")  # as written, read again
    assert len(stored) == paid["llm_requests"]  # nothing shared between the two images
    stored.close()
    assert [(r.value, r.reason) for r in again] == [(r.value, r.reason) for r in first]
