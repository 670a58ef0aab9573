"""An async image fetcher for the open web: bounded in time, size, redirects and concurrency.

Caption corpora such as CC12M hold millions of URLs on hosts nobody vets, so every fetch is
treated as hostile: it may hang, drip bytes forever, send gigabytes, loop redirects, point at
the machine's own network, or opt out of AI training. Each of those ends in a ``FetchError``
whose ``reason`` is one counted code:

``http_error``, ``timeout``, ``connection_error``, ``body_too_large``, ``too_many_redirects``,
``refused_address``, ``unsupported_url``, ``opted_out``, ``empty_body`` and ``empty_url``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import random
import socket
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from types import TracebackType

import httpx

from negdata.config import IngestConfig
from negdata.ingest.fetch import FetchError

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# img2dataset's opt-out directives (X-Robots-Tag), matched case-insensitively.
OPT_OUT_DIRECTIVES = frozenset({"noai", "noimageai", "noindex", "noimageindex"})
# Network failures, besides timeouts, worth another try: the next attempt may well get through.
TRANSIENT_ERRORS = (httpx.NetworkError, httpx.RemoteProtocolError)
SHOWN_URL_CHARS = 200  # a data: URL can be megabytes; error details stay short


def address_allowed(ip: str, allowed: Sequence[str]) -> bool:
    """Whether the fetcher may connect to ``ip``: a public unicast address, or one inside
    ``allowed`` (IPs or CIDRs). Loopback, private, shared (CGNAT), link-local (cloud metadata
    at 169.254.169.254), multicast, reserved and unspecified addresses are refused, so that a
    URL or a redirect from a scraped corpus cannot reach this machine or its network. An
    IPv4-mapped IPv6 address is judged as the IPv4 address it carries."""
    address = ipaddress.ip_address(ip)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in ipaddress.ip_network(entry, strict=False) for entry in allowed):
        return True
    special = (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )
    return address.is_global and not special


def _shown(url: str | httpx.URL) -> str:
    return str(url)[:SHOWN_URL_CHARS]


def _describe(exc: Exception) -> str:
    return str(exc) or type(exc).__name__


def _web_url(url: str | httpx.URL) -> httpx.URL:
    """``url`` parsed, if it is http(s) with a host: nothing else (file:, data:, ftp:, ...) is
    fetched, neither as the first URL nor as a redirect target."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise FetchError("unsupported_url", f"{_shown(url)}: {exc}") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise FetchError("unsupported_url", f"not an http(s) URL with a host: {_shown(url)}")
    return parsed


def _opt_out(headers: httpx.Headers) -> str | None:
    """The X-Robots-Tag value that opts the image out, if any. A directive counts whichever
    user agent it names (``somebot: noai``): when in doubt, the image is left alone."""
    for value in headers.get_list("x-robots-tag"):
        directives = {part.rsplit(":", 1)[-1].strip().lower() for part in value.split(",")}
        if directives & OPT_OUT_DIRECTIVES:
            return value
    return None


class _Transient(Exception):
    """A failure worth retrying; ``error`` is what the caller gets when retries run out."""

    def __init__(self, error: FetchError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class _HostSlots:
    semaphore: asyncio.Semaphore
    users: int = 0


class Fetcher:
    """``async with Fetcher(options) as f: data = await f.get(url)``.

    One pooled ``httpx.AsyncClient`` serves every URL. At most ``concurrency`` requests are in
    flight, and at most ``per_host_concurrency`` to one host. Redirects are followed here, not
    by httpx, so that every hop is checked (scheme, address guard) and counted.

    The address guard resolves the host and refuses the URL if any address is not allowed
    (``address_allowed``), then lets httpx connect by hostname. A DNS server that answers
    differently the second time (DNS rebinding) can slip past it; the guard stops the URLs and
    redirects of an ordinary corpus, not an attacker who controls a resolver.

    Cookies are never kept (a jar shared by millions of hosts only grows and leaks), and proxy,
    certificate and .netrc settings from the environment are ignored, so requests go where the
    guard looked and carry no credentials.
    """

    def __init__(self, options: IngestConfig) -> None:
        self.options = options  # the ``ingest`` settings: limits, timeouts, allowed hosts
        self._slots = asyncio.Semaphore(options.concurrency)
        self._hosts: dict[str, _HostSlots] = {}
        self._resolved: dict[tuple[str, int], list[str]] = {}  # (host, port) -> addresses
        self._client = httpx.AsyncClient(
            headers={"User-Agent": options.user_agent},
            timeout=httpx.Timeout(options.read_timeout_s, connect=options.connect_timeout_s),
            limits=httpx.Limits(
                max_connections=options.concurrency,
                max_keepalive_connections=options.concurrency,
            ),
            cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])),
            follow_redirects=False,
            trust_env=False,
        )

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.aclose()

    async def get(self, url: str) -> bytes:
        """The body of ``url``; raises FetchError with a reason code on any failure.

        ``total_timeout_s`` bounds the whole fetch (redirects, retries and their back-off,
        body) from the moment its first request gets its concurrency slots, so that URLs
        queued behind the limits do not time out while they wait.
        """
        if not url:
            raise FetchError("empty_url", "the row has no url")
        target = _web_url(url)
        deadline = asyncio.timeout(None)
        try:
            async with deadline:
                return await self._follow(target, deadline)
        except TimeoutError:
            raise FetchError(
                "timeout", f"{_shown(url)}: over {self.options.total_timeout_s}s in all"
            ) from None

    async def _follow(self, url: httpx.URL, deadline: asyncio.Timeout) -> bytes:
        for _ in range(self.options.max_redirects + 1):
            answer = await self._retrying(url, deadline)
            if isinstance(answer, bytes):
                return answer
            url = answer
        raise FetchError(
            "too_many_redirects",
            f"more than {self.options.max_redirects} redirects, the last to {_shown(url)}",
        )

    async def _retrying(self, url: httpx.URL, deadline: asyncio.Timeout) -> bytes | httpx.URL:
        """One hop, retried after transient failures with exponential back-off and jitter (so
        that retries to one host spread out instead of arriving together)."""
        attempt = 0
        while True:
            try:
                return await self._hop(url, deadline)
            except _Transient as exc:
                if attempt >= self.options.retries:
                    raise exc.error from None
            await asyncio.sleep(
                self.options.retry_backoff_s * 2**attempt * random.uniform(0.5, 1.5)
            )
            attempt += 1

    async def _hop(self, url: httpx.URL, deadline: asyncio.Timeout) -> bytes | httpx.URL:
        """One request: the body, or the URL a redirect points to."""
        async with self._host_slot(url.host), self._slots:
            if deadline.when() is None:
                loop = asyncio.get_running_loop()
                deadline.reschedule(loop.time() + self.options.total_timeout_s)
            await self._check_address(url)
            try:
                async with self._client.stream("GET", url) as response:
                    return await self._answer(url, response)
            except httpx.TimeoutException as exc:
                error = FetchError("timeout", f"{_shown(url)}: {_describe(exc)}")
                raise _Transient(error) from None
            except TRANSIENT_ERRORS as exc:
                error = FetchError("connection_error", f"{_shown(url)}: {_describe(exc)}")
                raise _Transient(error) from None
            except httpx.HTTPError as exc:
                raise FetchError("connection_error", f"{_shown(url)}: {_describe(exc)}") from None

    @asynccontextmanager
    async def _host_slot(self, host: str) -> AsyncIterator[None]:
        """Hold one of the host's slots; a host's semaphore lives only while someone uses it,
        so a crawl over millions of hosts does not keep one per host forever."""
        slots = self._hosts.get(host)
        if slots is None:
            slots = self._hosts[host] = _HostSlots(
                asyncio.Semaphore(self.options.per_host_concurrency)
            )
        slots.users += 1
        try:
            async with slots.semaphore:
                yield
        finally:
            slots.users -= 1
            if slots.users == 0:
                del self._hosts[host]

    async def _check_address(self, url: httpx.URL) -> None:
        """Refuse ``url`` before connecting unless every address its host resolves to is
        allowed. A failed lookup is retried only when the resolver says to try again later: a
        name that does not exist will not exist on the next try either."""
        for ip in await self._addresses(url):
            if not address_allowed(ip, self.options.allowed_hosts):
                raise FetchError("refused_address", f"{url.host} resolves to {ip}")

    async def _addresses(self, url: httpx.URL) -> list[str]:
        """The host's addresses: an IP literal as is, a name resolved once per fetcher (one
        shard), since a resolver call costs a thread hop and most hosts serve many rows."""
        try:
            return [str(ipaddress.ip_address(url.host))]
        except ValueError:
            pass
        port = url.port or (443 if url.scheme == "https" else 80)
        key = (url.host, port)
        if key in self._resolved:
            return self._resolved[key]
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(url.raw_host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            error = FetchError("connection_error", f"{url.host}: cannot resolve: {exc}")
            if exc.errno == socket.EAI_AGAIN:
                raise _Transient(error) from None
            raise error from None
        addresses = [str(info[4][0]) for info in infos]
        self._resolved[key] = addresses
        return addresses

    async def _answer(self, url: httpx.URL, response: httpx.Response) -> bytes | httpx.URL:
        status = response.status_code
        location = response.headers.get("location")
        if status in REDIRECT_STATUSES and location:
            try:
                return _web_url(url.join(location))
            except httpx.InvalidURL as exc:
                raise FetchError("unsupported_url", f"bad redirect {location!r}: {exc}") from None
        if status == 429 or status >= 500:
            raise _Transient(FetchError("http_error", f"{_shown(url)}: HTTP {status}"))
        if status != 200:
            raise FetchError("http_error", f"{_shown(url)}: HTTP {status}")
        opt_out = _opt_out(response.headers) if self.options.honor_opt_out else None
        if opt_out is not None:
            raise FetchError("opted_out", f"{_shown(url)}: X-Robots-Tag: {opt_out}")
        length = response.headers.get("content-length", "")
        if length.isdigit() and int(length) > self.options.max_body_bytes:
            raise FetchError("body_too_large", f"{_shown(url)}: Content-Length {length}")
        body = await self._read(url, response)
        if not body:
            raise FetchError("empty_body", f"{_shown(url)}: 0 bytes")
        return body

    async def _read(self, url: httpx.URL, response: httpx.Response) -> bytes:
        """The decoded body, abandoned as soon as it passes ``max_body_bytes``: a missing or
        lying Content-Length, or a compression bomb, costs at most one chunk past the limit."""
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > self.options.max_body_bytes:
                raise FetchError(
                    "body_too_large", f"{_shown(url)}: over {self.options.max_body_bytes} bytes"
                )
        return bytes(body)
