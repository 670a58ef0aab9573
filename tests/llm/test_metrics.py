"""Reading vLLM's Prometheus counters."""

from __future__ import annotations

from negdata.llm.metrics import ServerCounters, metrics_url, parse_counters

TEXT = """\
# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="m"} 1200.0
vllm:prefix_cache_hits_total{engine="0",model_name="m"} 900.0
vllm:request_success_total{engine="0",finished_reason="stop",model_name="m"} 7.0
vllm:request_success_total{engine="0",finished_reason="length",model_name="m"} 2.0
vllm:num_requests_running{engine="0",model_name="m"} 3.0
vllm:generation_tokens_total 5e+02
"""


def test_counters_are_summed_over_label_sets() -> None:
    counters = parse_counters(TEXT)

    assert counters["requests"] == 9.0
    assert counters["prefix_cache_hits"] == 900.0 and counters["generation_tokens"] == 500.0
    assert counters["prompt_tokens"] == 0.0  # absent from the text


def test_deltas_and_prefix_hit_rate() -> None:
    before = ServerCounters(parse_counters(TEXT))
    after = ServerCounters({**before.values, "prefix_cache_queries": 2200.0, "requests": 19.0})

    delta = after - before

    assert delta.values["requests"] == 10.0
    assert delta.prefix_cache_hit_rate == 0.0  # 1,000 new queried tokens, no new hits
    assert ServerCounters(parse_counters("")).prefix_cache_hit_rate is None


def test_metrics_url_drops_the_api_prefix() -> None:
    assert metrics_url("http://127.0.0.1:8000/v1/") == "http://127.0.0.1:8000/metrics"
