"""Structured output per server kind, and the start-up check against /v1/models."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from negdata.config import LLMConfig
from negdata.llm import LLMServerError, check_server_kind
from negdata.llm.client import response_format
from negdata.llm.server import server_kind


class Answer(BaseModel):
    answer: str


def test_each_server_kind_gets_its_own_response_format() -> None:
    vllm = response_format("vllm", Answer)
    assert vllm["type"] == "json_schema" and vllm["json_schema"]["schema"]["required"] == ["answer"]
    llamacpp = response_format("llamacpp", Answer)
    assert llamacpp == {"type": "json_object", "schema": Answer.model_json_schema()}
    assert response_format("openai", Answer) == {"type": "json_object"}


@pytest.mark.slow
def test_the_real_vllm_server_is_recognised(vllm_server: LLMConfig) -> None:
    assert server_kind(vllm_server.base_url, vllm_server.api_key) == "vllm"
    check_server_kind(vllm_server)
    wrong = vllm_server.model_copy(update={"server_kind": "llamacpp"})
    with pytest.raises(LLMServerError, match=r"llm\.server_kind is 'llamacpp'.*vllm server"):
        check_server_kind(wrong)
