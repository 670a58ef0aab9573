"""LLM access: the local vLLM server and an async client that returns validated pydantic objects."""

from negdata.llm.client import ClientStats, FailureReason, LLMClient, LLMResult
from negdata.llm.server import (
    LLMServerError,
    LocalServer,
    ensure_model,
    find_gguf,
    serve_forever,
    wait_until_ready,
)

__all__ = [
    "ClientStats",
    "FailureReason",
    "LLMClient",
    "LLMResult",
    "LLMServerError",
    "LocalServer",
    "ensure_model",
    "find_gguf",
    "serve_forever",
    "wait_until_ready",
]
