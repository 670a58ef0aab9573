"""The counters a vLLM server exposes at ``/metrics`` (Prometheus text), read around a run.

Counters are server-wide: on a server shared with other clients the deltas include their traffic.
With several servers (``llm.endpoints``), ``read_all_counters`` sums them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import httpx

log = logging.getLogger(__name__)

COUNTERS = {
    "vllm:request_success_total": "requests",
    "vllm:prompt_tokens_total": "prompt_tokens",
    "vllm:generation_tokens_total": "generation_tokens",
    "vllm:prefix_cache_queries_total": "prefix_cache_queries",
    "vllm:prefix_cache_hits_total": "prefix_cache_hits",
}


def metrics_url(base_url: str) -> str:
    """``http://host:port/v1`` -> ``http://host:port/metrics``."""
    root = base_url.rstrip("/")
    return f"{root.removesuffix('/v1')}/metrics"


def parse_counters(text: str) -> dict[str, float]:
    """Sum each counter in ``COUNTERS`` over its label sets."""
    totals = dict.fromkeys(COUNTERS.values(), 0.0)
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if name in COUNTERS:
            totals[COUNTERS[name]] += float(line.rsplit(" ", 1)[1])
    return totals


@dataclass(frozen=True)
class ServerCounters:
    """A snapshot of the server's counters; ``after - before`` is what happened in between."""

    values: dict[str, float]

    def __sub__(self, earlier: ServerCounters) -> ServerCounters:
        return ServerCounters({k: v - earlier.values.get(k, 0.0) for k, v in self.values.items()})

    @property
    def prefix_cache_hit_rate(self) -> float | None:
        """Share of prompt tokens served from vLLM's prefix cache."""
        queries = self.values.get("prefix_cache_queries", 0.0)
        return self.values.get("prefix_cache_hits", 0.0) / queries if queries else None

    def as_dict(self) -> dict[str, float | None]:
        rate = self.prefix_cache_hit_rate
        return {
            **{k: round(v) for k, v in self.values.items()},
            "prefix_cache_hit_rate": None if rate is None else round(rate, 4),
        }


def read_counters(base_url: str, api_key: str = "EMPTY") -> ServerCounters | None:
    """The server's counters, or None when it exposes no vLLM metrics (llama.cpp, OpenAI)."""
    try:
        reply = httpx.get(
            metrics_url(base_url), headers={"Authorization": f"Bearer {api_key}"}, timeout=10.0
        )
    except httpx.TransportError as exc:
        log.warning("no server metrics from %s: %s", metrics_url(base_url), exc)
        return None
    if reply.status_code != 200 or "vllm:" not in reply.text:
        return None
    return ServerCounters(parse_counters(reply.text))


@dataclass(frozen=True)
class AllCounters:
    """Each server's counters, by address; ``after - before`` sums what happened in between.

    A server missing from ``before`` (down then, started since) counts from zero; one missing
    from ``after`` (down by then) is left out, since what it did is no longer known.
    """

    servers: dict[str, ServerCounters]

    def __sub__(self, earlier: AllCounters) -> ServerCounters:
        zero = ServerCounters(dict.fromkeys(COUNTERS.values(), 0.0))
        totals = dict(zero.values)
        for url, now in self.servers.items():
            for key, value in (now - earlier.servers.get(url, zero)).values.items():
                totals[key] = totals.get(key, 0.0) + value
        return ServerCounters(totals)


def read_all_counters(base_urls: Sequence[str], api_key: str = "EMPTY") -> AllCounters | None:
    """The counters of every server in ``base_urls`` that answers with vLLM metrics; None when
    none does."""
    read = {url: read_counters(url, api_key) for url in base_urls}
    found = {url: counters for url, counters in read.items() if counters is not None}
    return AllCounters(found) if found else None
