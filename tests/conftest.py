"""Fixtures shared across the test suite."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from negdata.config import LLMConfig
from negdata.llm import LocalServer


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def free_port() -> int:
    """A loopback port nothing listens on right now."""
    return _free_port()


@pytest.fixture(scope="session")
def vllm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LLMConfig]:
    """The real vLLM CPU server on a free loopback port, once per session; yields its config."""
    base = LLMConfig()
    serve = base.serve.model_copy(update={"host": "127.0.0.1", "port": _free_port()})
    cfg = base.model_copy(update={"serve": serve})
    log_path = tmp_path_factory.mktemp("vllm") / "vllm.log"
    with LocalServer(cfg, log_path=log_path) as server:
        yield cfg.model_copy(update={"endpoint": server.base_url})
