"""Async client for OpenAI-compatible chat servers (vLLM) that returns validated pydantic objects.

A failed item never raises: ``structured`` returns an ``LLMResult`` whose ``reason`` says why.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from array import array
from dataclasses import dataclass, field
from functools import cache
from types import TracebackType
from typing import Any, Generic, Literal, TypeVar

import httpx
from pydantic import BaseModel

from negdata.config import LLMConfig, ServerKind
from negdata.llm.cache import ResponseCache
from negdata.records import Reject

CACHED = "negdata_cached"  # marks a reply served from the response cache
log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
FailureReason = Literal["llm_invalid_output", "llm_unavailable", "llm_http_error"]

DETAIL_CHARS = 300
SERVER_PROBE_S = 1.0  # how often a down server is probed


@dataclass(frozen=True)
class LLMResult(Generic[T]):
    """One item's outcome: ``value`` when valid, else ``reason`` and ``detail``.

    Token counts add up every attempt the item took.
    """

    value: T | None
    reason: FailureReason | None = None
    detail: str | None = None
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None


@dataclass
class _Trace:
    """What one ``structured`` call has gone through so far."""

    attempts: int = 0
    requests: int = 0
    retries: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reused_tokens: int = 0
    model: str | None = None
    invalid_retried: bool = False
    latencies_ms: list[float] = field(default_factory=list)


@dataclass
class ClientStats:
    """Running totals over calls: the whole client's, or one batch's (``structured(stats=...)``).

    ``requests`` counts HTTP requests sent (cache hits send none); ``latencies_ms`` holds one
    entry per request, from the moment it had a connection slot to its reply.
    """

    requests: int = 0
    retries: int = 0
    succeeded: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    reused_tokens: int = 0
    latencies_ms: array[float] = field(default_factory=lambda: array("d"))

    def add(self, trace: _Trace, reason: str | None) -> None:
        self.requests += trace.requests
        self.retries += trace.retries
        self.cache_hits += trace.cache_hits
        self.prompt_tokens += trace.prompt_tokens
        self.completion_tokens += trace.completion_tokens
        self.reused_tokens += trace.reused_tokens
        self.latencies_ms.extend(trace.latencies_ms)
        if reason is None:
            self.succeeded += 1
        else:
            self.failures[reason] = self.failures.get(reason, 0) + 1

    def as_dict(self) -> dict[str, int]:
        return {
            "requests": self.requests,
            "retries": self.retries,
            "succeeded": self.succeeded,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cache_hits": self.cache_hits,
            "reused_tokens": self.reused_tokens,
            **self.failures,
        }


class _Transient(Exception):
    """A failure worth retrying after a pause: transport error, timeout, 429 or 5xx."""


class _Refused(_Transient):
    """Nobody accepted the connection: the server is down or restarting."""


class _Rejected(Exception):
    """A 4xx other than 429: retrying the same request cannot help."""


@cache  # on the hot path: building a JSON schema costs more than the rest of a request body
def response_format(kind: ServerKind, schema: type[BaseModel]) -> dict[str, Any]:
    """How each server kind is asked for JSON: vLLM (and OpenAI) take ``json_schema``; llama.cpp's
    server wants ``json_object`` with a ``schema`` and rejects ``json_schema``; a plain
    OpenAI-compatible server gets ``json_object`` and the reply is validated here."""
    if kind == "llamacpp":
        return {"type": "json_object", "schema": schema.model_json_schema()}
    if kind == "openai":
        return {"type": "json_object"}
    return {
        "type": "json_schema",
        "json_schema": {
            "name": schema.__name__,
            "schema": schema.model_json_schema(),
            "strict": True,
        },
    }


class LLMClient:
    """``async with LLMClient(cfg) as llm: result = await llm.structured(messages, Schema)``.

    At most ``cfg.max_concurrency`` requests are in flight over one connection pool. When the
    server refuses connections, every request waits on one shared probe for up to
    ``cfg.server_wait_s`` (logged), then resumes, or fails as ``llm_unavailable``.
    """

    def __init__(
        self, cfg: LLMConfig, cache: ResponseCache | None = None, *, record: bool = False
    ) -> None:
        self.cfg = cfg
        self.cache = cache
        self.stats = ClientStats()
        # With ``record``, every body sent is kept here, in order (the benchmark replays them).
        self.sent: list[dict[str, Any]] | None = [] if record else None
        self._base = cfg.base_url.rstrip("/")
        self._url = f"{self._base}/chat/completions"
        self._slots = asyncio.Semaphore(cfg.max_concurrency)
        self._http = httpx.AsyncClient(
            headers={"Authorization": f"Bearer {cfg.api_key}"},
            timeout=httpx.Timeout(cfg.timeout_s),
            limits=httpx.Limits(
                max_connections=cfg.max_concurrency,
                max_keepalive_connections=cfg.max_concurrency,
            ),
        )
        self._probe = asyncio.Lock()
        self._last_ok = float("-inf")  # monotonic time of the last reply from the server
        self._gave_up = False  # the last wait ran out; refused requests fail at once until a reply

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def request_body(
        self,
        messages: list[dict[str, str]],
        schema: type[BaseModel],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        seed: int | None = None,
    ) -> dict[str, Any]:
        """The chat-completions body sent for these arguments (also the response-cache key)."""
        body: dict[str, Any] = {
            "model": self.cfg.model,
            "messages": messages,
            "max_tokens": self.cfg.max_tokens if max_tokens is None else max_tokens,
            "temperature": self.cfg.temperature if temperature is None else temperature,
            "response_format": response_format(self.cfg.server_kind, schema),
        }
        seed = self.cfg.seed if seed is None else seed
        if seed is not None:
            body["seed"] = seed
        return body

    async def structured(
        self,
        messages: list[dict[str, str]],
        schema: type[T],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        seed: int | None = None,
        stats: ClientStats | None = None,
    ) -> LLMResult[T]:
        """Ask for a JSON object matching ``schema``; retry transient errors and one bad output.
        Counters go to the client's ``stats`` and, when given, to the batch's ``stats`` too."""
        body = self.request_body(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed
        )
        trace = _Trace()
        transient_retries = 0
        while True:
            trace.attempts += 1
            try:
                reply = await self._post(body, trace)
            except _Rejected as exc:
                log.warning("LLM request rejected: %s", exc)
                return self._finish(trace, stats, None, "llm_http_error", str(exc))
            except _Transient as exc:
                if transient_retries >= self.cfg.max_retries:
                    log.warning("LLM unavailable after %d attempts: %s", trace.attempts, exc)
                    return self._finish(trace, stats, None, "llm_unavailable", str(exc))
                if not isinstance(exc, _Refused):
                    await asyncio.sleep(self._backoff(transient_retries))
                elif not await self._server_back(time.monotonic()):
                    return self._finish(trace, stats, None, "llm_unavailable", str(exc))
                transient_retries += 1
                trace.retries += 1
                continue
            self._count_usage(trace, reply)
            try:
                return self._finish(trace, stats, schema.model_validate_json(_content(reply)))
            except ValueError as exc:
                detail = _invalid_detail(reply, exc)
            if trace.invalid_retried:
                log.debug("LLM output invalid after the retry: %s", detail)
                return self._finish(trace, stats, None, "llm_invalid_output", detail)
            log.debug("LLM output invalid, retrying at temperature 0: %s", detail)
            trace.invalid_retried = True
            body = {**body, "temperature": 0.0}
            trace.retries += 1

    def _count_usage(self, trace: _Trace, reply: dict[str, Any]) -> None:
        """Tokens the server spent on this reply; a cached reply cost nothing this time, and its
        tokens count as reused (they were paid once, by an earlier run)."""
        trace.model = reply.get("model", trace.model)
        usage = reply.get("usage") or {}
        prompt = int(usage.get("prompt_tokens") or 0)
        completion = int(usage.get("completion_tokens") or 0)
        if reply.get(CACHED):
            trace.reused_tokens += prompt + completion
        else:
            trace.prompt_tokens += prompt
            trace.completion_tokens += completion

    def _finish(
        self,
        trace: _Trace,
        stats: ClientStats | None,
        value: T | None,
        reason: FailureReason | None = None,
        detail: str | None = None,
    ) -> LLMResult[T]:
        self.stats.add(trace, reason)
        if stats is not None:
            stats.add(trace, reason)
        return LLMResult(
            value=value,
            reason=reason,
            detail=detail,
            attempts=trace.attempts,
            prompt_tokens=trace.prompt_tokens,
            completion_tokens=trace.completion_tokens,
            model=trace.model,
        )

    async def _post(self, body: dict[str, Any], trace: _Trace) -> dict[str, Any]:
        """The server's reply to ``body``, from the cache when it was answered before."""
        cached = self.cache.get(body) if self.cache is not None else None
        if cached is not None:
            trace.cache_hits += 1
            return {**cached, CACHED: True}
        reply = await self._send(body, trace)
        if self.cache is not None:
            self.cache.put(body, reply)
        return reply

    async def _send(self, body: dict[str, Any], trace: _Trace) -> dict[str, Any]:
        async with self._slots:
            trace.requests += 1
            if self.sent is not None:
                self.sent.append(body)
            sent = time.monotonic()
            try:
                response = await self._http.post(self._url, json=body)
            except httpx.ConnectError as exc:
                raise _Refused(f"{type(exc).__name__}: {exc} ({self._url})") from None
            except httpx.TransportError as exc:
                raise _Transient(f"{type(exc).__name__}: {exc} ({self._url})") from None
            self._last_ok, self._gave_up = time.monotonic(), False
            trace.latencies_ms.append((self._last_ok - sent) * 1000.0)
        status = response.status_code
        if status == 429 or status >= 500:
            raise _Transient(f"HTTP {status} from {self._url}: {response.text[:DETAIL_CHARS]}")
        if status >= 400:
            raise _Rejected(f"HTTP {status} from {self._url}: {response.text[:DETAIL_CHARS]}")
        try:
            reply = response.json()
        except ValueError:
            raise _Transient(f"non-JSON reply from {self._url}") from None
        if not isinstance(reply, dict):
            raise _Transient(f"unexpected reply from {self._url}: {response.text[:DETAIL_CHARS]}")
        return reply

    async def _server_back(self, refused_at: float) -> bool:
        """After a refused connection: wait until the server answers again, at most
        ``server_wait_s``. One request probes while the others queue on the lock and then
        learn the outcome, so a dead server costs one bounded wait, not one per request."""
        async with self._probe:
            if self._last_ok >= refused_at:
                return True
            if self._gave_up:
                return False
            wait = self.cfg.server_wait_s
            log.warning("LLM server %s refuses connections; waiting up to %.0f s", self._base, wait)
            deadline = time.monotonic() + wait
            while True:
                if await self._answers():
                    self._last_ok = time.monotonic()
                    log.warning("LLM server %s is back; resuming", self._base)
                    return True
                if time.monotonic() >= deadline:
                    self._gave_up = True
                    log.error("LLM server %s still down after %.0f s", self._base, wait)
                    return False
                await asyncio.sleep(min(SERVER_PROBE_S, max(0.0, deadline - time.monotonic())))

    async def _answers(self) -> bool:
        try:
            response = await self._http.get(f"{self._base}/models", timeout=SERVER_PROBE_S)
        except httpx.TransportError:
            return False
        return response.status_code == 200

    def _backoff(self, retry: int) -> float:
        return self.cfg.backoff_s * 2.0**retry * random.uniform(0.5, 1.5)


def _content(reply: dict[str, Any]) -> str:
    """The first choice's message text; ``ValueError`` when there is none."""
    try:
        content = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"reply has no message content: {str(reply)[:DETAIL_CHARS]}") from None
    if not isinstance(content, str):
        raise ValueError(f"reply message content is {content!r}")
    return content


def _invalid_detail(reply: dict[str, Any], exc: ValueError) -> str:
    """Why the output was rejected, noting when it was cut off at ``max_tokens``."""
    choices = reply.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    cut = isinstance(first, dict) and first.get("finish_reason") == "length"
    return f"{'cut off at max_tokens: ' if cut else ''}{exc}"[:DETAIL_CHARS]


def reject_of(stage: str, key: str, result: LLMResult[Any]) -> Reject:
    """The counted reject for an item whose LLM call failed."""
    return Reject(stage=stage, key=key, reason=str(result.reason), detail=result.detail or "")
