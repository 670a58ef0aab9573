"""Several servers (``llm.endpoints``): requests spread by fewest in flight, a refused server's
requests move to the others, and one bounded wait only when every server is down.

The servers here are stand-ins for vLLM replicas: real HTTP servers on loopback that answer
``/v1/models``, ``/v1/chat/completions`` (one fixed valid reply, after a delay) and
``/metrics``. ``test_replicas.py`` does the same against real vLLM servers.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from negdata.config import Config, ConfigError, LLMConfig, load_config
from negdata.llm import (
    ClientStats,
    LLMClient,
    LLMResult,
    LLMServerError,
    check_server_kind,
    llm_server,
    wait_until_any_ready,
)
from negdata.llm.metrics import read_all_counters

QUESTION = [{"role": "user", "content": "Is there a dog? yes or no."}]


class Answer(BaseModel):
    answer: Literal["yes", "no"]


class StandIn:
    """A stand-in for one vLLM replica on a loopback port (a free one unless given), answering
    each chat request after ``delay`` seconds; ``chats`` counts the chat requests it got."""

    def __init__(self, delay: float = 0.0, port: int = 0) -> None:
        self.delay = delay
        self.chats = 0
        self._lock = threading.Lock()
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/v1/models":
                    models = {"data": [{"id": "SmolLM2-135M-Instruct", "owned_by": "vllm"}]}
                    self._reply(json.dumps(models).encode())
                elif self.path == "/metrics":
                    self._reply(f"vllm:request_success_total {stand_in.chats}.0\n".encode())
                else:
                    self.send_error(404)

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                time.sleep(stand_in.delay)
                with stand_in._lock:
                    stand_in.chats += 1
                reply = {
                    "model": "SmolLM2-135M-Instruct",
                    "choices": [{"message": {"content": '{"answer": "yes"}'}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5},
                }
                self._reply(json.dumps(reply).encode())

            def _reply(self, body: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class Server(http.server.ThreadingHTTPServer):
            request_queue_size = 128  # every concurrent request is accepted at once

        self._server = Server(("127.0.0.1", port), Handler)
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def stand_ins() -> Iterator[list[StandIn]]:
    """Add stand-ins to this list to have them closed after the test."""
    started: list[StandIn] = []
    yield started
    for stand_in in started:
        stand_in.close()


@pytest.fixture
def refusing() -> Iterator[list[tuple[socket.socket, str]]]:
    """Ports held refusing (``_refusing_port``) by this test; released after it."""
    held: list[tuple[socket.socket, str]] = []
    yield held
    for sock, _ in held:
        sock.close()


def _refusing_port() -> tuple[socket.socket, str]:
    """A loopback port held bound but not listening, so that connections to it are refused
    until the socket is closed and a server takes the port; and its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock, f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def _cfg(*urls: str, **changes: Any) -> LLMConfig:
    return LLMConfig(local=False, endpoints=list(urls), backoff_s=0.01, **changes)


async def _ask(llm: LLMClient, calls: int) -> list[LLMResult[Answer]]:
    return list(await asyncio.gather(*(llm.structured(QUESTION, Answer) for _ in range(calls))))


def _run(cfg: LLMConfig, calls: int) -> tuple[list[LLMResult[Answer]], ClientStats, LLMClient]:
    async def run() -> tuple[list[LLMResult[Answer]], ClientStats, LLMClient]:
        async with LLMClient(cfg) as llm:
            return await _ask(llm, calls), llm.stats, llm

    return asyncio.run(run())


# Configuration


def test_one_endpoint_is_a_list_of_one_and_the_local_server_is_the_default() -> None:
    assert LLMConfig(endpoint="http://a:8000/v1").base_urls == ["http://a:8000/v1"]
    assert LLMConfig().base_urls == ["http://127.0.0.1:8765/v1"]
    several = LLMConfig(local=False, endpoints=["http://a:8000/v1", "http://b:8000/v1"])
    assert several.base_urls == ["http://a:8000/v1", "http://b:8000/v1"]
    assert several.base_url == "http://a:8000/v1"


@pytest.mark.parametrize(
    ("llm", "message"),
    [
        (
            {"endpoint": "http://a/v1", "endpoints": ["http://b/v1"]},
            r"llm: .*llm\.endpoint and llm\.endpoints are both set",
        ),
        ({"local": False}, r"llm: .*llm\.endpoint or llm\.endpoints is required"),
        ({"local": False, "endpoints": []}, r"llm\.endpoint or llm\.endpoints is required"),
        ({"endpoints": ["http://a/v1", "http://a/v1"]}, r"llm\.endpoints lists http://a/v1 more"),
    ],
)
def test_endpoint_mistakes_are_one_error_naming_the_keys(
    tmp_path: Path, llm: dict[str, Any], message: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        json.dumps(
            {
                "input": {"path": "rows.tsv"},
                "detect": {"sources": [{"kind": "labels", "path": "labels.json"}]},
                "llm": llm,
            }
        )
    )
    with pytest.raises(ConfigError, match=message):
        load_config(config)


# Spreading requests


def test_concurrent_requests_are_split_evenly_by_fewest_in_flight(
    stand_ins: list[StandIn],
) -> None:
    stand_ins += [StandIn(delay=0.3), StandIn(delay=0.3)]

    results, stats, llm = _run(_cfg(*(s.url for s in stand_ins)), calls=20)

    assert all(r.ok for r in results) and stats.requests == 20
    assert [s.chats for s in stand_ins] == [10, 10]  # 20 in flight at once, alternately placed
    assert llm.requests_by_endpoint() == {s.url: 10 for s in stand_ins}


def test_one_request_at_a_time_still_alternates_between_servers(stand_ins: list[StandIn]) -> None:
    stand_ins += [StandIn(), StandIn(), StandIn()]

    results, _, _ = _run(_cfg(*(s.url for s in stand_ins), max_concurrency=1), calls=7)

    assert all(r.ok for r in results)
    assert [s.chats for s in stand_ins] == [3, 2, 2]  # ties go round in turn from the first


# A server that refuses


def test_a_refused_server_is_left_out_and_its_requests_move_at_no_retry_cost(
    stand_ins: list[StandIn], refusing: list[tuple[socket.socket, str]]
) -> None:
    refusing.append(_refusing_port())
    stand_ins.append(StandIn())
    cfg = _cfg(refusing[0][1], stand_ins[0].url, max_retries=0, server_wait_s=0)

    results, stats, llm = _run(cfg, calls=8)

    assert all(r.ok for r in results)  # with no retries allowed at all
    assert stand_ins[0].chats == 8
    refused = llm.requests_by_endpoint()[refusing[0][1]]
    assert refused >= 1 and stats.requests == 8 + refused and stats.retries == refused
    assert llm.endpoints[0].down and not llm.endpoints[1].down


def test_a_server_that_answers_again_is_back_in_rotation(
    stand_ins: list[StandIn], refusing: list[tuple[socket.socket, str]]
) -> None:
    refusing.append(_refusing_port())
    held, late_url = refusing[0]
    stand_ins.append(StandIn())

    async def run() -> tuple[int, int]:
        async with LLMClient(_cfg(late_url, stand_ins[0].url)) as llm:
            assert all(r.ok for r in await _ask(llm, 4))
            assert llm.endpoints[0].down
            held.close()
            stand_ins.append(StandIn(port=_port(late_url)))  # the server comes up
            deadline = time.monotonic() + 10.0
            while llm.endpoints[0].down and time.monotonic() < deadline:
                await asyncio.sleep(0.1)  # the background probe finds it
            assert not llm.endpoints[0].down
            assert all(r.ok for r in await _ask(llm, 4))
            return stand_ins[0].chats, stand_ins[1].chats

    assert asyncio.run(run()) == (6, 2)  # 4 while it was down, then half of the next 4


# Every server down


def test_every_server_down_is_one_shared_wait_then_the_first_one_back_takes_all(
    stand_ins: list[StandIn], refusing: list[tuple[socket.socket, str]]
) -> None:
    refusing += [_refusing_port(), _refusing_port()]
    urls = [url for _, url in refusing]

    async def run() -> list[LLMResult[Answer]]:
        async with LLMClient(_cfg(*urls, server_wait_s=30.0, max_retries=1)) as llm:
            calls = asyncio.ensure_future(_ask(llm, 6))
            while not all(e.down for e in llm.endpoints):
                await asyncio.sleep(0.05)
            refusing[1][0].close()
            stand_ins.append(StandIn(port=_port(urls[1])))
            return await calls

    results = asyncio.run(run())

    assert all(r.ok for r in results) and stand_ins[0].chats == 6


def test_every_server_staying_down_costs_one_bounded_wait_then_llm_unavailable(
    refusing: list[tuple[socket.socket, str]],
) -> None:
    refusing += [_refusing_port(), _refusing_port()]
    started = time.monotonic()

    results, stats, _ = _run(_cfg(*(url for _, url in refusing), server_wait_s=1.0), calls=8)

    waited = time.monotonic() - started
    assert {r.reason for r in results} == {"llm_unavailable"}
    assert stats.failures == {"llm_unavailable": 8}
    assert 1.0 <= waited < 4.0  # one wait of server_wait_s, not one per request or server


# What the flow does with several servers


def test_the_flow_waits_for_any_server_and_checks_the_kind_of_those_that_answer(
    stand_ins: list[StandIn], refusing: list[tuple[socket.socket, str]]
) -> None:
    refusing.append(_refusing_port())
    stand_ins.append(StandIn())
    down, up = refusing[0][1], stand_ins[0].url
    cfg = Config.model_validate(
        {
            "input": {"path": "rows.tsv"},
            "detect": {"sources": [{"kind": "labels", "path": "labels.json"}]},
            "llm": {"local": False, "endpoints": [down, up], "timeout_s": 5.0},
        }
    )

    with llm_server(cfg.llm) as answering:
        assert answering == [up]
    check_server_kind(cfg.llm, answering)
    llamacpp = cfg.llm.model_copy(update={"server_kind": "llamacpp"})
    with pytest.raises(LLMServerError, match=rf"'llamacpp' but {up} is a vllm server"):
        check_server_kind(llamacpp, answering)
    with pytest.raises(LLMServerError, match="no LLM server answered within 1 s"):
        wait_until_any_ready([down], timeout=1.0)


def test_server_counters_are_summed_over_the_servers_that_answer(
    stand_ins: list[StandIn], refusing: list[tuple[socket.socket, str]]
) -> None:
    stand_ins += [StandIn(), StandIn()]
    refusing.append(_refusing_port())
    urls = [stand_ins[0].url, stand_ins[1].url, refusing[0][1]]
    before = read_all_counters(urls)

    _run(_cfg(*urls[:2]), calls=6)
    after = read_all_counters(urls)

    assert before is not None and after is not None
    assert set(after.servers) == set(urls[:2])  # the refusing one is left out
    assert (after - before).values["requests"] == 6
    assert read_all_counters(urls[2:]) is None
