"""The open-web fetcher against a real loopback server that misbehaves in every way it can.

Only 127.0.0.1 is allowed, and the server listens there alone: refusals are tested with other
loopback addresses (127.0.0.2, [::1]) or on ``address_allowed`` itself, never by connecting.
"""

from __future__ import annotations

import asyncio
import gzip
import socket
import struct
import threading
import time
import tracemalloc
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import pytest
from pydantic import ValidationError

from negdata.config import IngestConfig
from negdata.ingest.fetch import FetchError
from negdata.ingest.http import Fetcher, address_allowed

IMAGE = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8 + b"\xff\xd9"
USER_AGENT = "negdata-test/1.0 (+https://example.invalid/bot)"
LIMIT = 64 * 1024  # max_body_bytes in these tests
HUGE = 64 * 1024 * 1024  # what the oversized routes would send if the client kept reading
CHUNK = 64 * 1024
SLOW_S = 0.3
BOMB = 64 * 1024 * 1024  # decoded bytes of the gzip bomb; about 64 KiB on the wire


@cache
def gzip_bomb() -> bytes:
    """``BOMB`` zero bytes, gzipped: one network read of it inflates a thousandfold."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: a gzip stream
    block = bytes(1024 * 1024)
    return b"".join(packer.compress(block) for _ in range(BOMB // len(block))) + packer.flush()


@dataclass
class Seen:
    """What the server observed, read by the tests."""

    hits: Counter[str] = field(default_factory=Counter)
    user_agents: list[str | None] = field(default_factory=list)
    cookies: list[str | None] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)  # body bytes written before the client left
    streamed: threading.Event = field(default_factory=threading.Event)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)  # set at teardown


class Server(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Routes)
        self.seen = Seen()
        self.port = self.socket.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"


class Routes(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    @property
    def seen(self) -> Seen:
        return cast(Server, self.server).seen

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        name, _, arg = url.path.strip("/").partition("/")
        with self.seen.lock:
            self.seen.hits[url.path] += 1
            self.seen.user_agents.append(self.headers.get("User-Agent"))
        getattr(self, f"route_{name}")(arg, parse_qs(url.query))

    def reply(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def route_image(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(200, IMAGE, {"Content-Type": "image/jpeg"})

    def route_status(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(int(arg), b"no")

    def route_flaky(self, arg: str, query: dict[str, list[str]]) -> None:
        if self.seen.hits[self.path] == 1:
            self.reply(503, b"busy")
        else:
            self.route_image(arg, query)

    def route_hang(self, arg: str, query: dict[str, list[str]]) -> None:
        self.seen.stop.wait(10)
        self.close_connection = True

    def route_drip(self, arg: str, query: dict[str, list[str]]) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(LIMIT // 2))
        self.end_headers()
        self.close_connection = True
        try:
            while not self.seen.stop.wait(SLOW_S):
                self.wfile.write(b"x")
                self.wfile.flush()
        except OSError:
            return

    def route_reset(self, arg: str, query: dict[str, list[str]]) -> None:
        """Close with a TCP RST and no response at all."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def route_big(self, arg: str, query: dict[str, list[str]]) -> None:
        """``HUGE`` bytes, announced honestly (``/big``) or chunked without a length
        (``/big/chunked``); counts what was written before the client hung up."""
        chunked = arg == "chunked"
        self.send_response(200)
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(HUGE))
        self.end_headers()
        self.close_connection = True
        sent = 0
        try:
            while sent < HUGE and not self.seen.stop.is_set():
                frame = b"%x\r\n%s\r\n" % (CHUNK, b"x" * CHUNK) if chunked else b"x" * CHUNK
                self.wfile.write(frame)
                sent += CHUNK
        except OSError:
            pass
        self.seen.sent[self.path] = sent
        self.seen.streamed.set()

    def route_loop(self, arg: str, query: dict[str, list[str]]) -> None:
        server = cast(Server, self.server)
        self.reply(302, headers={"Location": f"{server.base}/loop/{'b' if arg == 'a' else 'a'}"})

    def route_chain(self, arg: str, query: dict[str, list[str]]) -> None:
        """``/chain/N`` is N redirects from the image, each a relative Location."""
        left = int(arg)
        if left == 0:
            self.route_image(arg, query)
        else:
            self.reply(301, headers={"Location": str(left - 1)})

    def route_away(self, arg: str, query: dict[str, list[str]]) -> None:
        port = cast(Server, self.server).port
        self.reply(302, headers={"Location": f"http://127.0.0.2:{port}/image"})

    def route_robots(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(200, IMAGE, {"X-Robots-Tag": query["tag"][0]})

    def route_gzipped(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(200, gzip.compress(IMAGE), {"Content-Encoding": "gzip"})

    def route_bomb(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(200, gzip_bomb(), {"Content-Encoding": "gzip"})

    def route_empty(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(200)

    def route_cookie(self, arg: str, query: dict[str, list[str]]) -> None:
        self.reply(302, headers={"Set-Cookie": "session=1; Path=/", "Location": "/taste"})

    def route_taste(self, arg: str, query: dict[str, list[str]]) -> None:
        self.seen.cookies.append(self.headers.get("Cookie"))
        self.route_image(arg, query)

    def route_slow(self, arg: str, query: dict[str, list[str]]) -> None:
        with self.seen.lock:
            self.seen.in_flight += 1
            self.seen.max_in_flight = max(self.seen.max_in_flight, self.seen.in_flight)
        time.sleep(SLOW_S)
        with self.seen.lock:
            self.seen.in_flight -= 1
        self.route_image(arg, query)


@pytest.fixture
def server() -> Iterator[Server]:
    """The hostile server on 127.0.0.1 (a free port), for one test."""
    server = Server()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server
    server.seen.stop.set()
    server.shutdown()
    server.server_close()


def options(**changes: Any) -> IngestConfig:
    """Short limits, so that the whole file runs in seconds; only 127.0.0.1 is allowed."""
    settings: dict[str, Any] = {
        "connect_timeout_s": 1.0,
        "read_timeout_s": 1.0,
        "total_timeout_s": 5.0,
        "max_body_bytes": LIMIT,
        "retries": 2,
        "retry_backoff_s": 0.01,
        "user_agent": USER_AGENT,
        "allowed_hosts": ["127.0.0.1"],
    }
    return IngestConfig.model_validate(settings | changes)


def get(url: str, opts: IngestConfig | None = None) -> bytes:
    async def run() -> bytes:
        async with Fetcher(opts or options()) as fetcher:
            return await fetcher.get(url)

    return asyncio.run(run())


def reason(url: str, opts: IngestConfig | None = None) -> str:
    with pytest.raises(FetchError) as caught:
        get(url, opts)
    return caught.value.reason


def test_an_image_comes_back_byte_for_byte(server: Server) -> None:
    assert get(f"{server.base}/image") == IMAGE


def test_a_404_is_not_retried(server: Server) -> None:
    with pytest.raises(FetchError) as caught:
        get(f"{server.base}/status/404")

    assert caught.value.reason == "http_error"
    assert "HTTP 404" in caught.value.detail
    assert server.seen.hits["/status/404"] == 1


@pytest.mark.parametrize("status", [500, 429])
def test_a_server_error_is_retried_then_reported(server: Server, status: int) -> None:
    assert reason(f"{server.base}/status/{status}") == "http_error"
    assert server.seen.hits[f"/status/{status}"] == 1 + 2


def test_a_503_then_a_200_succeeds(server: Server) -> None:
    assert get(f"{server.base}/flaky") == IMAGE
    assert server.seen.hits["/flaky"] == 2


def test_no_answer_times_out_after_retries(server: Server) -> None:
    assert reason(f"{server.base}/hang", options(read_timeout_s=0.2)) == "timeout"
    assert server.seen.hits["/hang"] == 1 + 2


def test_a_slow_drip_is_cut_off_by_the_total_deadline(server: Server) -> None:
    started = time.monotonic()

    assert reason(f"{server.base}/drip", options(total_timeout_s=1.5)) == "timeout"
    assert time.monotonic() - started < 3


def test_a_connection_reset_is_a_connection_error(server: Server) -> None:
    assert reason(f"{server.base}/reset") == "connection_error"
    assert server.seen.hits["/reset"] == 1 + 2


@pytest.mark.parametrize("path", ["/big", "/big/chunked"], ids=["content-length", "chunked"])
def test_an_oversized_body_is_refused_without_reading_it_all(server: Server, path: str) -> None:
    assert reason(f"{server.base}{path}") == "body_too_large"
    assert server.seen.streamed.wait(10)
    assert server.seen.sent[path] < HUGE
    assert server.seen.hits[path] == 1


def test_a_gzipped_body_is_decoded(server: Server) -> None:
    assert get(f"{server.base}/gzipped") == IMAGE


def test_a_gzip_bomb_is_cut_at_the_limit_of_decoded_bytes(server: Server) -> None:
    """Its Content-Length (the compressed size) is under the limit; the decoded bytes are not,
    and they must never be inflated all at once: memory stays near the limit, not ``BOMB``."""
    assert len(gzip_bomb()) < LIMIT
    tracemalloc.start()
    try:
        assert reason(f"{server.base}/bomb") == "body_too_large"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < BOMB // 8


def test_a_redirect_loop_stops(server: Server) -> None:
    assert reason(f"{server.base}/loop/a") == "too_many_redirects"
    assert server.seen.hits == {"/loop/a": 3, "/loop/b": 3}


def test_five_redirects_are_followed_and_six_are_too_many(server: Server) -> None:
    assert get(f"{server.base}/chain/5") == IMAGE
    assert reason(f"{server.base}/chain/6") == "too_many_redirects"
    assert server.seen.hits["/chain/0"] == 1


def test_a_redirect_to_a_refused_address_is_never_requested(server: Server) -> None:
    assert reason(f"{server.base}/away") == "refused_address"
    assert server.seen.hits == {"/away": 1}


@pytest.mark.parametrize("host", ["127.0.0.2", "[::1]"])
def test_a_first_url_on_a_refused_address_is_refused(server: Server, host: str) -> None:
    assert reason(f"http://{host}:{server.port}/image") == "refused_address"
    assert server.seen.hits == {}


@pytest.mark.parametrize("host", ["127.1", "2130706433", "0177.0.0.1"])
def test_legacy_numeric_ipv4_forms_are_unsupported(server: Server, host: str) -> None:
    # The resolver would map these onto 127.0.0.1; they are refused before any lookup.
    assert reason(f"http://{host}:{server.port}/image") == "unsupported_url"
    assert server.seen.hits == {}


@pytest.mark.parametrize(
    "url",
    ["data:image/png;base64,iVBORw0KGgo=", "file:///etc/passwd", "ftp://x/image.jpg", "http://"],
)
def test_other_schemes_and_hostless_urls_are_unsupported(url: str) -> None:
    assert reason(url) == "unsupported_url"


def test_an_empty_url_is_reported_as_such() -> None:
    assert reason("") == "empty_url"


@pytest.mark.parametrize(
    "tag", ["noai", "NoImageAI", "noarchive, noindex", "img2dataset: noimageindex"]
)
def test_an_opt_out_header_is_honoured(server: Server, tag: str) -> None:
    url = f"{server.base}/robots?tag={tag}"

    assert reason(url) == "opted_out"
    assert get(url, options(honor_opt_out=False)) == IMAGE


def test_other_robots_directives_do_not_opt_out(server: Server) -> None:
    assert get(f"{server.base}/robots?tag=noarchive, nofollow") == IMAGE


def test_an_empty_body_is_rejected(server: Server) -> None:
    assert reason(f"{server.base}/empty") == "empty_body"


def test_every_request_carries_the_user_agent(server: Server) -> None:
    get(f"{server.base}/chain/2")

    assert server.seen.user_agents == [USER_AGENT] * 3


def test_cookies_are_not_sent_back(server: Server) -> None:
    assert get(f"{server.base}/cookie") == IMAGE
    assert server.seen.cookies == [None]


def test_per_host_limit_holds_and_queued_urls_do_not_time_out(server: Server) -> None:
    """8 fetches of a 0.3 s path, 2 at a time, take 1.2 s: longer than the 0.8 s deadline, which
    must start only when a fetch gets its slot."""
    opts = options(per_host_concurrency=2, total_timeout_s=0.8)

    async def run() -> list[bytes]:
        async with Fetcher(opts) as fetcher:
            return await asyncio.gather(*(fetcher.get(f"{server.base}/slow") for _ in range(8)))

    assert asyncio.run(run()) == [IMAGE] * 8
    assert server.seen.max_in_flight == 2


@pytest.mark.parametrize(
    "ip",
    [
        "10.0.0.1",
        "172.16.0.1",
        "192.168.1.1",
        "100.64.0.1",
        "169.254.169.254",
        "224.0.0.1",
        "240.0.0.1",
        "255.255.255.255",
        "0.0.0.0",
        "127.0.0.1",
        "::",
        "::1",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "2002:7f00:1::1",  # 6to4 carrying 127.0.0.1
        "2002:a00:1::1",  # 6to4 carrying 10.0.0.1
        "fec0::1",  # site-local
    ],
)
def test_special_addresses_are_refused(ip: str) -> None:
    # The guard's decision only: nothing ever connects to these addresses.
    assert not address_allowed(ip, [])


@pytest.mark.parametrize(
    "ip", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "2002:5db8:d70e::1"]
)
def test_public_addresses_are_allowed(ip: str) -> None:
    assert address_allowed(ip, [])


def test_allowed_hosts_exempt_exactly_their_networks() -> None:
    assert address_allowed("10.1.2.3", ["10.0.0.0/8"])
    assert address_allowed("::ffff:10.1.2.3", ["10.0.0.0/8"])
    assert not address_allowed("10.1.2.3", ["10.0.0.0/16"])
    assert address_allowed("127.0.0.1", ["127.0.0.1"])
    assert not address_allowed("127.0.0.2", ["127.0.0.1"])
    assert not address_allowed("::1", ["127.0.0.1"])


def test_allowed_hosts_must_be_ips_or_networks() -> None:
    with pytest.raises(ValidationError, match="allowed_hosts"):
        IngestConfig(allowed_hosts=["images.example.com"])


def test_a_host_name_is_resolved_and_checked_like_an_address(server: Server) -> None:
    port = server.base.rsplit(":", 1)[1]
    loopback = options(allowed_hosts=["127.0.0.0/8", "::1"])

    async def twice() -> list[bytes]:
        async with Fetcher(loopback) as fetcher:  # the second fetch reuses the first lookup
            return [await fetcher.get(f"http://localhost:{port}/image") for _ in range(2)]

    assert asyncio.run(twice()) == [IMAGE, IMAGE]
    hits = dict(server.seen.hits)
    assert reason(f"http://localhost:{port}/image", options(allowed_hosts=[])) == "refused_address"
    assert server.seen.hits == hits  # refused before any connection


Lookup = Callable[[str, int], list[tuple[Any, ...]]]


@dataclass
class FakeDNS:
    """Answers for names under ``.test``: ``answers[name]`` holds one lookup per call, the last
    one repeating; ``calls`` counts the calls per name. Other names go to the real resolver."""

    answers: dict[str, list[Lookup]] = field(default_factory=dict)
    calls: Counter[str] = field(default_factory=Counter)


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> FakeDNS:
    fake = FakeDNS()
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        name = host.decode() if isinstance(host, bytes) else host
        if not (isinstance(name, str) and name.endswith(".test")):
            return real(host, port, *args, **kwargs)
        host = name
        fake.calls[host] += 1
        plan = fake.answers[host]
        return plan[min(fake.calls[host], len(plan)) - 1](host, port)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return fake


def at(*ips: str) -> Lookup:
    def answer(host: str, port: int) -> list[tuple[Any, ...]]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port)) for ip in ips]

    return answer


def failing(errno: int) -> Lookup:
    def answer(host: str, port: int) -> list[tuple[Any, ...]]:
        raise socket.gaierror(errno, "fake resolver failure")

    return answer


def test_the_connection_goes_to_the_checked_address(server: Server, dns: FakeDNS) -> None:
    """DNS rebinding: the name first resolves to the allowed 127.0.0.1, then to 127.0.0.2.
    One lookup serves every request of the fetcher, concurrent ones included, and the
    connections go to the address that lookup gave (127.0.0.2 would refuse them)."""
    dns.answers["rebind.test"] = [at("127.0.0.1"), at("127.0.0.2")]
    url = f"http://rebind.test:{server.port}/image"

    async def run() -> list[bytes]:
        async with Fetcher(options()) as fetcher:
            first = await asyncio.gather(*(fetcher.get(url) for _ in range(4)))
            return [*first, await fetcher.get(url)]

    assert asyncio.run(run()) == [IMAGE] * 5
    assert dns.calls["rebind.test"] == 1
    assert server.seen.hits["/image"] == 5


def test_a_name_with_any_refused_address_is_refused(server: Server, dns: FakeDNS) -> None:
    dns.answers["mixed.test"] = [at("127.0.0.1", "10.0.0.1")]

    assert reason(f"http://mixed.test:{server.port}/image") == "refused_address"
    assert server.seen.hits == {}


def test_a_lookup_told_to_try_again_is_retried(dns: FakeDNS) -> None:
    dns.answers["later.test"] = [failing(socket.EAI_AGAIN)]

    assert reason("http://later.test/image") == "connection_error"
    assert dns.calls["later.test"] == 1 + 2


def test_a_name_that_does_not_exist_is_not_retried(dns: FakeDNS) -> None:
    dns.answers["nowhere.test"] = [failing(socket.EAI_NONAME)]

    with pytest.raises(FetchError) as caught:
        get("http://nowhere.test/image")

    assert caught.value.reason == "connection_error"
    assert "cannot resolve" in caught.value.detail
    assert dns.calls["nowhere.test"] == 1


def test_a_malformed_name_is_a_connection_error() -> None:
    # Python's idna codec raises UnicodeError on an empty label; the lookup must not crash.
    assert reason("http://a..b/image") == "connection_error"
