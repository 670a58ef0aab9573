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
import random
import socket
import ssl
from dataclasses import dataclass
from functools import cache
from types import TracebackType

import aiohttp
import certifi
from multidict import CIMultiDictProxy
from yarl import URL

from negdata.config import IngestConfig
from negdata.ingest.fetch import FetchError
from negdata.ingest.guard import AddressGuard, GuardedResolver, address_allowed

__all__ = ["Fetcher", "address_allowed"]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# img2dataset's opt-out directives (X-Robots-Tag), matched case-insensitively.
OPT_OUT_DIRECTIVES = frozenset({"noai", "noimageai", "noindex", "noimageindex"})
# Network failures, besides timeouts, worth another try: the next attempt may well get through.
# A malformed response (ClientResponseError) and a cut-short body (ClientPayloadError) count.
TRANSIENT_ERRORS = (
    aiohttp.ClientConnectionError,
    aiohttp.ClientPayloadError,
    aiohttp.ClientResponseError,
)
SHOWN_URL_CHARS = 200  # a data: URL can be megabytes; error details stay short


def _shown(url: str | URL) -> str:
    return str(url)[:SHOWN_URL_CHARS]


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


@cache
def _tls() -> ssl.SSLContext:
    """Verified TLS against certifi's roots, as httpx does: SSL_CERT_FILE and friends in the
    environment are ignored. One context for every fetcher (loading the roots takes ms)."""
    return ssl.create_default_context(cafile=certifi.where())


def _opt_out(headers: CIMultiDictProxy[str]) -> str | None:
    """The X-Robots-Tag value that opts the image out, if any. A directive counts whichever
    user agent it names (``somebot: noai``): when in doubt, the image is left alone."""
    for value in headers.getall("X-Robots-Tag", ()):
        directives = {part.rsplit(":", 1)[-1].strip().lower() for part in value.split(",")}
        if directives & OPT_OUT_DIRECTIVES:
            return value
    return None


def _looks_numeric(host: str) -> bool:
    """Whether aiohttp takes ``host`` for an IP address and connects without resolving it."""
    return ":" in host or host.replace(".", "").isdigit()


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
    """``async with Fetcher(options) as f: data = await f.get(url)``, inside a running loop.

    One pooled ``aiohttp.ClientSession`` serves every URL. At most ``concurrency`` requests
    are in flight, and at most ``per_host_concurrency`` to one host. Redirects are followed
    here, not by aiohttp, so that every hop is checked (scheme, address guard) and counted.

    The address guard runs where the connection is made: host names go through a resolver
    (``GuardedResolver``) that refuses the URL if any address is not allowed
    (``address_allowed``) and otherwise hands aiohttp exactly the addresses it checked, so a
    DNS server that answers differently the second time (DNS rebinding) has no second time.
    IP literals are checked before the request; legacy numeric forms (``127.1``,
    ``2130706433``) are refused as ``unsupported_url``.

    Cookies are never kept (a jar shared by millions of hosts only grows and leaks), and proxy,
    certificate and .netrc settings from the environment are ignored, so requests go where the
    guard looked and carry no credentials.
    """

    def __init__(self, options: IngestConfig) -> None:
        self.options = options  # the ``ingest`` settings: limits, timeouts, allowed hosts
        self._slots = asyncio.Semaphore(options.concurrency)
        self._hosts: dict[str, _HostSlots] = {}
        self._guard = AddressGuard(options.allowed_hosts)
        self._resolver = GuardedResolver(self._guard)
        connector = aiohttp.TCPConnector(
            limit=options.concurrency,
            resolver=self._resolver,
            use_dns_cache=False,  # the resolver keeps its own, per fetcher
            ssl=_tls(),
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            headers={"User-Agent": options.user_agent},
            timeout=aiohttp.ClientTimeout(
                connect=options.connect_timeout_s,
                sock_connect=options.connect_timeout_s,
                sock_read=options.read_timeout_s,
            ),
            cookie_jar=aiohttp.DummyCookieJar(),
            trust_env=False,
        )
        # aiohttp silently resends a GET once when a connection drops; retries are counted and
        # spaced out here instead, so a server that resets every connection sees 1 + retries.
        self._session._retry_connection = False

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
        await self._session.close()
        await self._resolver.close()

    async def get(self, url: str) -> bytes:
        """The body of ``url``; raises FetchError with a reason code on any failure.

        ``total_timeout_s`` bounds the whole fetch (redirects, retries and their back-off,
        body) from the moment its first request gets its concurrency slots, so that URLs
        queued behind the limits do not time out while they wait.
        """
        if not url:
            raise FetchError("empty_url", "the row has no url")
        try:
            target = self._target(URL(url))
        except ValueError as exc:
            raise FetchError("unsupported_url", f"{_shown(url)}: {exc}") from None
        deadline = asyncio.timeout(None)
        try:
            async with deadline:
                return await self._follow(target, deadline)
        except TimeoutError:
            raise FetchError(
                "timeout", f"{_shown(url)}: over {self.options.total_timeout_s}s in all"
            ) from None

    def _target(self, url: URL) -> URL:
        """``url`` if it may be requested: http(s) with a host (nothing else, file:, data:,
        ftp:, ..., is fetched, neither as the first URL nor as a redirect target), and an IP
        literal only if the guard allows it."""
        host = url.raw_host
        if url.scheme not in ("http", "https") or not host:
            raise FetchError("unsupported_url", f"not an http(s) URL with a host: {_shown(url)}")
        if _looks_numeric(host):
            try:
                allowed = self._guard.allows(host)
            except ValueError:
                raise FetchError(
                    "unsupported_url", f"not a canonical IP address: {_shown(url)}"
                ) from None
            if not allowed:
                raise FetchError("refused_address", f"{host} resolves to {host}")
        return url

    async def _follow(self, url: URL, deadline: asyncio.Timeout) -> bytes:
        for _ in range(self.options.max_redirects + 1):
            answer = await self._retrying(url, deadline)
            if isinstance(answer, bytes):
                return answer
            url = answer
        raise FetchError(
            "too_many_redirects",
            f"more than {self.options.max_redirects} redirects, the last to {_shown(url)}",
        )

    async def _retrying(self, url: URL, deadline: asyncio.Timeout) -> bytes | URL:
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

    async def _hop(self, url: URL, deadline: asyncio.Timeout) -> bytes | URL:
        """One request within the host's and the global slots. A host's semaphore lives only
        while someone uses it, so a crawl over millions of hosts does not keep one per host."""
        host = url.raw_host or ""
        slots = self._hosts.get(host)
        if slots is None:
            slots = self._hosts[host] = _HostSlots(
                asyncio.Semaphore(self.options.per_host_concurrency)
            )
        slots.users += 1
        try:
            async with slots.semaphore, self._slots:
                if deadline.when() is None:
                    loop = asyncio.get_running_loop()
                    deadline.reschedule(loop.time() + self.options.total_timeout_s)
                return await self._request(url)
        finally:
            slots.users -= 1
            if slots.users == 0:
                del self._hosts[host]

    async def _request(self, url: URL) -> bytes | URL:
        """The body, or the URL a redirect points to. A lookup that failed is retried only
        when the resolver says to try again later: a name that does not exist will not exist
        on the next try either."""
        try:
            async with self._session.get(url, allow_redirects=False) as response:
                return await self._answer(url, response)
        except TimeoutError as exc:
            error = FetchError("timeout", f"{_shown(url)}: {_describe(exc)}")
            raise _Transient(error) from None
        except aiohttp.ClientConnectorDNSError as exc:
            error = FetchError("connection_error", f"{url.host}: cannot resolve: {exc.os_error}")
            if exc.os_error.errno == socket.EAI_AGAIN:
                raise _Transient(error) from None
            raise error from None
        except TRANSIENT_ERRORS as exc:
            error = FetchError("connection_error", f"{_shown(url)}: {_describe(exc)}")
            raise _Transient(error) from None
        except aiohttp.InvalidURL as exc:
            raise FetchError("unsupported_url", f"{_shown(url)}: {_describe(exc)}") from None
        except aiohttp.ClientError as exc:
            raise FetchError("connection_error", f"{_shown(url)}: {_describe(exc)}") from None

    async def _answer(self, url: URL, response: aiohttp.ClientResponse) -> bytes | URL:
        status = response.status
        location = response.headers.get("Location")
        if status in REDIRECT_STATUSES and location:
            try:
                return self._target(url.join(URL(location)))
            except ValueError as exc:
                raise FetchError("unsupported_url", f"bad redirect {location!r}: {exc}") from None
        if status == 429 or status >= 500:
            raise _Transient(FetchError("http_error", f"{_shown(url)}: HTTP {status}"))
        if status != 200:
            raise FetchError("http_error", f"{_shown(url)}: HTTP {status}")
        opt_out = _opt_out(response.headers) if self.options.honor_opt_out else None
        if opt_out is not None:
            raise FetchError("opted_out", f"{_shown(url)}: X-Robots-Tag: {opt_out}")
        length = response.headers.get("Content-Length", "")
        if length.isdigit() and int(length) > self.options.max_body_bytes:
            raise FetchError("body_too_large", f"{_shown(url)}: Content-Length {length}")
        body = await self._read(url, response)
        if not body:
            raise FetchError("empty_body", f"{_shown(url)}: 0 bytes")
        return body

    async def _read(self, url: URL, response: aiohttp.ClientResponse) -> bytes:
        """The decoded body, abandoned as soon as it passes ``max_body_bytes``: a missing or
        lying Content-Length costs at most one read past the limit, and so does a compression
        bomb, since aiohttp inflates at most a read buffer (64 KiB) ahead of the reader.
        ``response.read()`` would lift that bound; ``readany`` keeps it."""
        limit = self.options.max_body_bytes
        chunks: list[bytes] = []
        size = 0
        while chunk := await response.content.readany():
            size += len(chunk)
            if size > limit:
                response.close()  # the rest is never read; the connection is not reused
                raise FetchError("body_too_large", f"{_shown(url)}: over {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
