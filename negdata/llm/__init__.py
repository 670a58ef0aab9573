"""LLM access: the local vLLM server and an async client that returns validated pydantic objects."""

from negdata.llm.batch import (
    Batch,
    LLMUnavailableError,
    llm_stats,
    merge_counters,
    run_batches,
    run_structured,
)
from negdata.llm.client import ClientStats, FailureReason, LLMClient, LLMResult, reject_of
from negdata.llm.pool import LLMPool, shared_pool
from negdata.llm.server import (
    LLMServerError,
    LocalServer,
    check_server_kind,
    ensure_model,
    find_gguf,
    llm_server,
    serve_forever,
    wait_until_any_ready,
    wait_until_ready,
)

__all__ = [
    "Batch",
    "ClientStats",
    "FailureReason",
    "LLMClient",
    "LLMPool",
    "LLMResult",
    "LLMServerError",
    "LLMUnavailableError",
    "LocalServer",
    "check_server_kind",
    "ensure_model",
    "find_gguf",
    "llm_server",
    "llm_stats",
    "merge_counters",
    "reject_of",
    "run_batches",
    "run_structured",
    "serve_forever",
    "shared_pool",
    "wait_until_any_ready",
    "wait_until_ready",
]
