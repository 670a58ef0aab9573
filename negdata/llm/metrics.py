"""The counters a vLLM server exposes at ``/metrics`` (Prometheus text), read around a run.

Counters are server-wide: on a server shared with other clients the deltas include their traffic.
"""

from __future__ import annotations

import logging
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
