"""The LLM server's API key: vLLM started with it refuses every request without it, negdata
sends it, and it comes from the environment rather than from a file in the repository."""

from __future__ import annotations

import httpx
import pytest

from negdata.config import LLM_API_KEY_ENV, LLMConfig
from negdata.llm import LLMServerError, wait_until_any_ready


@pytest.mark.slow
def test_the_server_refuses_requests_without_its_key(vllm_server: LLMConfig) -> None:
    models = f"{vllm_server.base_url}/models"

    def status(**headers: str) -> int:
        return httpx.get(models, headers=headers, timeout=10.0).status_code

    assert status() == 401
    assert status(Authorization="Bearer not-the-key") == 401
    assert status(Authorization=f"Bearer {vllm_server.api_key}") == 200


@pytest.mark.slow
def test_a_refused_key_is_one_line_at_once_not_a_wait(vllm_server: LLMConfig) -> None:
    with pytest.raises(
        LLMServerError, match=f"refused the API key \\(HTTP 401\\): set {LLM_API_KEY_ENV}"
    ):
        wait_until_any_ready([vllm_server.base_url], timeout=300.0, api_key="not-the-key")
    with pytest.raises(LLMServerError, match="refused no API key"):
        wait_until_any_ready([vllm_server.base_url], timeout=300.0)


def test_the_key_defaults_to_the_environment_and_stays_out_of_reprs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(LLM_API_KEY_ENV, "s3cret-from-env")
    cfg = LLMConfig()

    assert cfg.api_key == "s3cret-from-env"
    assert "s3cret" not in repr(cfg)
    assert LLMConfig(api_key="given").api_key == "given"
    monkeypatch.delenv(LLM_API_KEY_ENV)
    assert LLMConfig().api_key == "EMPTY"
