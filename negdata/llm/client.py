"""Async client for OpenAI-compatible chat servers (vLLM) that returns validated pydantic objects.

A failed item never raises: ``structured`` returns an ``LLMResult`` whose ``reason`` says why.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass, field
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
class ClientStats:
    """Running totals over all calls of one client."""

    requests: int = 0
    retries: int = 0
    succeeded: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "requests": self.requests,
            "retries": self.retries,
            "succeeded": self.succeeded,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cache_hits": self.cache_hits,
            **self.failures,
        }


@dataclass
class _Trace:
    """What one ``structured`` call has gone through so far."""

    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str | None = None
    invalid_retried: bool = False


class _Transient(Exception):
    """A failure worth retrying after a pause: transport error, timeout, 429 or 5xx."""


class _Rejected(Exception):
    """A 4xx other than 429: retrying the same request cannot help."""


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
    """``async with LLMClient(cfg) as llm: result = await llm.structured(messages, Schema)``."""

    def __init__(self, cfg: LLMConfig, cache: ResponseCache | None = None) -> None:
        self.cfg = cfg
        self.cache = cache
        self.stats = ClientStats()
        self._url = f"{cfg.base_url.rstrip('/')}/chat/completions"
        self._slots = asyncio.Semaphore(cfg.max_concurrency)
        self._http = httpx.AsyncClient(
            headers={"Authorization": f"Bearer {cfg.api_key}"},
            timeout=httpx.Timeout(cfg.timeout_s),
            limits=httpx.Limits(
                max_connections=cfg.max_concurrency,
                max_keepalive_connections=cfg.max_concurrency,
            ),
        )

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

    async def structured(
        self,
        messages: list[dict[str, str]],
        schema: type[T],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        seed: int | None = None,
    ) -> LLMResult[T]:
        """Ask for a JSON object matching ``schema``; retry transient errors and one bad output."""
        body: dict[str, Any] = {
            "model": self.cfg.model,
            "messages": messages,
            "max_tokens": self.cfg.max_tokens if max_tokens is None else max_tokens,
            "temperature": self.cfg.temperature if temperature is None else temperature,
            "response_format": response_format(self.cfg.server_kind, schema),
        }
        if seed is not None:
            body["seed"] = seed
        trace = _Trace()
        transient_retries = 0
        while True:
            trace.attempts += 1
            try:
                reply = await self._post(body)
            except _Rejected as exc:
                log.warning("LLM request rejected: %s", exc)
                return self._finish(trace, None, "llm_http_error", str(exc))
            except _Transient as exc:
                if transient_retries >= self.cfg.max_retries:
                    log.warning("LLM unavailable after %d attempts: %s", trace.attempts, exc)
                    return self._finish(trace, None, "llm_unavailable", str(exc))
                await asyncio.sleep(self._backoff(transient_retries))
                transient_retries += 1
                self.stats.retries += 1
                continue
            self._count_usage(trace, reply)
            try:
                return self._finish(trace, schema.model_validate_json(_content(reply)))
            except ValueError as exc:
                detail = _invalid_detail(reply, exc)
            if trace.invalid_retried:
                log.debug("LLM output invalid after the retry: %s", detail)
                return self._finish(trace, None, "llm_invalid_output", detail)
            log.debug("LLM output invalid, retrying at temperature 0: %s", detail)
            trace.invalid_retried = True
            body = {**body, "temperature": 0.0}
            self.stats.retries += 1

    def _count_usage(self, trace: _Trace, reply: dict[str, Any]) -> None:
        """Tokens the server spent on this reply; a cached reply cost nothing this time."""
        trace.model = reply.get("model", trace.model)
        if reply.get(CACHED):
            return
        usage = reply.get("usage") or {}
        prompt = int(usage.get("prompt_tokens") or 0)
        completion = int(usage.get("completion_tokens") or 0)
        trace.prompt_tokens += prompt
        trace.completion_tokens += completion
        self.stats.prompt_tokens += prompt
        self.stats.completion_tokens += completion

    def _finish(
        self,
        trace: _Trace,
        value: T | None,
        reason: FailureReason | None = None,
        detail: str | None = None,
    ) -> LLMResult[T]:
        if reason is None:
            self.stats.succeeded += 1
        else:
            self.stats.failures[reason] = self.stats.failures.get(reason, 0) + 1
        return LLMResult(
            value=value,
            reason=reason,
            detail=detail,
            attempts=trace.attempts,
            prompt_tokens=trace.prompt_tokens,
            completion_tokens=trace.completion_tokens,
            model=trace.model,
        )

    async def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        """The server's reply to ``body``, from the cache when it was answered before."""
        cached = self.cache.get(body) if self.cache is not None else None
        if cached is not None:
            self.stats.cache_hits += 1
            return {**cached, CACHED: True}
        reply = await self._send(body)
        if self.cache is not None:
            self.cache.put(body, reply)
        return reply

    async def _send(self, body: dict[str, Any]) -> dict[str, Any]:
        async with self._slots:
            self.stats.requests += 1
            try:
                response = await self._http.post(self._url, json=body)
            except httpx.TransportError as exc:
                raise _Transient(f"{type(exc).__name__}: {exc} ({self._url})") from None
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
