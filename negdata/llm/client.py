"""Async client for OpenAI-compatible chat servers (vLLM) that returns validated pydantic objects.

A failed item never raises: ``structured`` returns an ``LLMResult`` whose ``reason`` says why.
With several servers (``llm.endpoints``), each request goes to the one with the fewest requests
in flight, and a server that refuses connections is left out until it answers again.
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
CONNECT_TIMEOUT_S = 10.0  # a server that takes longer to accept a connection is down


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
    endpoint: Endpoint | None = None  # where the last request went


@dataclass(eq=False)
class Endpoint:
    """One server the client sends to, and what the client knows of it."""

    index: int
    base: str
    in_flight: int = 0
    requests: int = 0  # HTTP requests sent to it
    down: bool = False  # it refused a connection and has not answered since
    last_ok: float = float("-inf")  # monotonic time of its last reply

    @property
    def chat_url(self) -> str:
        return f"{self.base}/chat/completions"


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
    """Nobody accepted the connection: the server is down or restarting (or every server is)."""


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

    At most ``cfg.max_concurrency`` requests are in flight over one connection pool, spread over
    the servers in ``cfg.base_urls``: each request goes to the live server with the fewest in
    flight (ties in turn). A server that refuses a connection is marked down and probed in the
    background every ``SERVER_PROBE_S`` until it answers; the request moves to another server at
    once, at no cost to its retries. When every server refuses, every request waits on one
    shared wait for up to ``cfg.server_wait_s`` (logged), then resumes, or fails as
    ``llm_unavailable``.
    """

    def __init__(self, cfg: LLMConfig, *, record: bool = False) -> None:
        self.cfg = cfg
        self.stats = ClientStats()
        # With ``record``, every body sent is kept here, in order (the benchmark replays them).
        self.sent: list[dict[str, Any]] | None = [] if record else None
        self.endpoints = [Endpoint(i, url.rstrip("/")) for i, url in enumerate(cfg.base_urls)]
        self._turn = 0  # where the round among equally busy servers starts next
        self._slots = asyncio.Semaphore(cfg.max_concurrency)
        self._http = httpx.AsyncClient(
            headers={"Authorization": f"Bearer {cfg.api_key}"},
            timeout=httpx.Timeout(cfg.timeout_s, connect=min(cfg.timeout_s, CONNECT_TIMEOUT_S)),
            limits=httpx.Limits(
                max_connections=cfg.max_concurrency,
                max_keepalive_connections=cfg.max_concurrency,
            ),
        )
        self._waiting = asyncio.Lock()  # one wait at a time for a server to come back
        self._any_up = asyncio.Event()  # set while at least one server is not marked down
        self._any_up.set()
        self._probes: set[asyncio.Task[None]] = set()  # one per server marked down
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
        for probe in self._probes:
            probe.cancel()
        await asyncio.gather(*self._probes, return_exceptions=True)
        await self._http.aclose()

    def requests_by_endpoint(self) -> dict[str, int]:
        """HTTP requests sent to each server so far."""
        return {endpoint.base: endpoint.requests for endpoint in self.endpoints}

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
        item: str | None = None,
        cache: ResponseCache | None = None,
    ) -> LLMResult[T]:
        """Ask for a JSON object matching ``schema``; retry transient errors and one bad output.
        Counters go to the client's ``stats`` and, when given, to the batch's ``stats`` too.
        ``cache`` (the shard's, ``llm.cache``) serves what was answered before and keeps new
        answers; ``item`` names what the answer is for (an image's key): the cache keeps one
        answer per item, even for the same request."""
        body = self.request_body(
            messages, schema, max_tokens=max_tokens, temperature=temperature, seed=seed
        )
        trace = _Trace()
        transient_retries = 0
        moved = 0  # times a refused request went straight to another server
        avoid: Endpoint | None = None
        while True:
            trace.attempts += 1
            try:
                reply = await self._post(body, trace, avoid, item, cache)
            except _Rejected as exc:
                log.warning("LLM request rejected: %s", exc)
                return self._finish(trace, stats, None, "llm_http_error", str(exc))
            except _Transient as exc:
                refused = isinstance(exc, _Refused)
                if refused and moved < len(self.endpoints) and self._any_up.is_set():
                    moved += 1  # another server takes it now, at no cost to the retries
                    trace.retries += 1
                    continue
                if transient_retries >= self.cfg.max_retries:
                    log.warning("LLM unavailable after %d attempts: %s", trace.attempts, exc)
                    return self._finish(trace, stats, None, "llm_unavailable", str(exc))
                if not refused:
                    await asyncio.sleep(self._backoff(transient_retries))
                    avoid = trace.endpoint  # the retry goes elsewhere when it can
                elif not await self._any_server_back():
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

    async def _post(
        self,
        body: dict[str, Any],
        trace: _Trace,
        avoid: Endpoint | None,
        item: str | None,
        cache: ResponseCache | None,
    ) -> dict[str, Any]:
        """The server's reply to ``body`` for ``item``, from ``cache`` when it was answered
        before."""
        cached = cache.get(body, item) if cache is not None else None
        if cached is not None:
            trace.cache_hits += 1
            return {**cached, CACHED: True}
        reply = await self._send(body, trace, avoid)
        if cache is not None:
            cache.put(body, reply, item)
        return reply

    async def _send(
        self, body: dict[str, Any], trace: _Trace, avoid: Endpoint | None
    ) -> dict[str, Any]:
        async with self._slots:
            endpoint = self._pick(avoid)
            if endpoint is None:
                raise _Refused(f"every LLM server refuses connections ({self._servers})")
            trace.endpoint = endpoint
            trace.requests += 1
            endpoint.requests += 1
            if self.sent is not None:
                self.sent.append(body)
            url = endpoint.chat_url
            endpoint.in_flight += 1
            sent = time.monotonic()
            try:
                response = await self._http.post(url, json=body)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                self._mark_down(endpoint, sent)
                raise _Refused(f"{type(exc).__name__}: {exc} ({url})") from None
            except httpx.TransportError as exc:
                raise _Transient(f"{type(exc).__name__}: {exc} ({url})") from None
            finally:
                endpoint.in_flight -= 1
            endpoint.last_ok = time.monotonic()
            self._mark_up(endpoint)
            trace.latencies_ms.append((endpoint.last_ok - sent) * 1000.0)
        status = response.status_code
        if status == 429 or status >= 500:
            raise _Transient(f"HTTP {status} from {url}: {response.text[:DETAIL_CHARS]}")
        if status >= 400:
            raise _Rejected(f"HTTP {status} from {url}: {response.text[:DETAIL_CHARS]}")
        try:
            reply = response.json()
        except ValueError:
            raise _Transient(f"non-JSON reply from {url}") from None
        if not isinstance(reply, dict):
            raise _Transient(f"unexpected reply from {url}: {response.text[:DETAIL_CHARS]}")
        return reply

    def _pick(self, avoid: Endpoint | None) -> Endpoint | None:
        """The live server with the fewest requests in flight, other than ``avoid`` if another
        is live; ties go round in turn, so that one request at a time still alternates. None
        when every server is down."""
        live = [e for e in self.endpoints if not e.down]
        if avoid is not None and len(live) > 1:
            live = [e for e in live if e is not avoid]
        if not live:
            return None
        count = len(self.endpoints)
        chosen = min(live, key=lambda e: (e.in_flight, (e.index - self._turn) % count))
        self._turn = (chosen.index + 1) % count
        return chosen

    @property
    def _servers(self) -> str:
        return ", ".join(endpoint.base for endpoint in self.endpoints)

    def _mark_down(self, endpoint: Endpoint, sent: float) -> None:
        """``endpoint`` refused a connection made at ``sent``: leave it out and probe it in the
        background, unless it has answered since (it restarted)."""
        if endpoint.down or endpoint.last_ok > sent:
            return
        endpoint.down = True
        live = sum(not e.down for e in self.endpoints)
        if live:
            log.warning(
                "LLM server %s refuses connections; sending to the %d other(s) until it answers",
                endpoint.base, live,
            )  # fmt: skip
        else:
            self._any_up.clear()
        probe = asyncio.create_task(self._probe_until_up(endpoint))
        self._probes.add(probe)
        probe.add_done_callback(self._probes.discard)

    def _mark_up(self, endpoint: Endpoint) -> None:
        self._gave_up = False
        if not endpoint.down:
            return
        endpoint.down = False
        self._any_up.set()
        log.warning("LLM server %s answers again; sending to it", endpoint.base)

    async def _probe_until_up(self, endpoint: Endpoint) -> None:
        """Ask ``endpoint`` for ``/models`` every ``SERVER_PROBE_S`` until it answers."""
        while endpoint.down:
            await asyncio.sleep(SERVER_PROBE_S)
            try:
                response = await self._http.get(f"{endpoint.base}/models", timeout=SERVER_PROBE_S)
            except httpx.TransportError:
                continue
            if response.status_code == 200:
                endpoint.last_ok = time.monotonic()
                self._mark_up(endpoint)

    async def _any_server_back(self) -> bool:
        """After a refused connection: True at once while some server is live; else wait until
        one answers again, at most ``server_wait_s``. One request waits while the others queue
        on the lock and then learn the outcome, so dead servers cost one bounded wait, not one
        per request."""
        async with self._waiting:
            if self._any_up.is_set():
                return True
            if self._gave_up:
                return False
            wait = self.cfg.server_wait_s
            log.warning(
                "every LLM server refuses connections (%s); waiting up to %.0f s",
                self._servers, wait,
            )  # fmt: skip
            try:
                await asyncio.wait_for(self._any_up.wait(), wait)
            except TimeoutError:
                self._gave_up = True
                log.error("LLM servers still down after %.0f s: %s", wait, self._servers)
                return False
            log.warning("an LLM server is back; resuming")
            return True

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
