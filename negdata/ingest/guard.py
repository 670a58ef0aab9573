"""The fetcher's address guard: which IPs it may connect to, and a resolver that enforces it.

The guard sits inside the connection itself (an aiohttp resolver), so the addresses it checks
are exactly the ones the socket connects to: there is no second lookup for a DNS server to
answer differently (DNS rebinding).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Sequence
from typing import NamedTuple

from aiohttp.abc import AbstractResolver, ResolveResult

from negdata.ingest.fetch import FetchError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _allowed(address: Address, networks: Sequence[Network]) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        elif address.sixtofour is not None and not _allowed(address.sixtofour, networks):
            return False  # 6to4 (2002::/16) carries an IPv4 address, which must pass too
    if any(address in network for network in networks):
        return True
    special = (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or (isinstance(address, ipaddress.IPv6Address) and address.is_site_local)
    )
    return address.is_global and not special


def address_allowed(ip: str, allowed: Sequence[str]) -> bool:
    """Whether the fetcher may connect to ``ip``: a public unicast address, or one inside
    ``allowed`` (IPs or CIDRs). Loopback, private, shared (CGNAT), link-local (cloud metadata
    at 169.254.169.254), multicast, reserved and unspecified addresses are refused, so that a
    URL or a redirect from a scraped corpus cannot reach this machine or its network, and so
    are IPv6 site-local addresses. An IPv4-mapped IPv6 address is judged as the IPv4 address it
    carries; a 6to4 address must pass both as itself and by the IPv4 address it embeds."""
    networks = [ipaddress.ip_network(entry, strict=False) for entry in allowed]
    return _allowed(ipaddress.ip_address(ip), networks)


class AddressGuard:
    """``address_allowed`` for one fetcher: the allowed networks parsed once, and each
    address's verdict remembered, since a shard's URLs mostly share a few hosts."""

    def __init__(self, allowed: Sequence[str]) -> None:
        self._networks = [ipaddress.ip_network(entry, strict=False) for entry in allowed]
        self._verdicts: dict[str, bool] = {}

    def allows(self, ip: str) -> bool:
        """Raises ValueError when ``ip`` is not an IP address."""
        verdict = self._verdicts.get(ip)
        if verdict is None:
            verdict = self._verdicts[ip] = _allowed(ipaddress.ip_address(ip), self._networks)
        return verdict


class _Lookup(NamedTuple):
    hosts: list[ResolveResult]
    refused: str | None  # the first address the guard refuses, if any


class GuardedResolver(AbstractResolver):
    """Resolves a host name once per fetcher (one shard): concurrent requests to a new host
    share one lookup, since a resolver call costs a thread hop and most hosts serve many rows.
    Raises FetchError("refused_address") when any address is not allowed, even if others are:
    a name that mixes public and private addresses is not one a corpus should reach.

    A failed lookup raises ``socket.gaierror`` (aiohttp reports it as a DNS connection error)
    and is not remembered, so a later request tries again. IP literals never get here: aiohttp
    connects to them directly, so the fetcher checks them itself.
    """

    def __init__(self, guard: AddressGuard) -> None:
        self._guard = guard
        self._lookups: dict[tuple[str, int], asyncio.Task[_Lookup]] = {}

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        key = (host, port)
        lookup = self._lookups.get(key)
        if lookup is None:
            lookup = self._lookups[key] = asyncio.create_task(self._lookup(host, port, family))
            lookup.add_done_callback(lambda task: self._settled(key, task))
        # Shielded: one request giving up (its deadline) must not cancel the others' lookup.
        result = await asyncio.shield(lookup)
        if result.refused is not None:
            raise FetchError("refused_address", f"{host} resolves to {result.refused}")
        return result.hosts

    def _settled(self, key: tuple[str, int], task: asyncio.Task[_Lookup]) -> None:
        """Forget a failed lookup (and retrieve its error, which no waiter may be left to)."""
        if (task.cancelled() or task.exception() is not None) and self._lookups.get(key) is task:
            del self._lookups[key]

    async def _lookup(self, host: str, port: int, family: socket.AddressFamily) -> _Lookup:
        loop = asyncio.get_running_loop()
        # As bytes: a str would go through Python's idna codec, which raises UnicodeError (not
        # gaierror) on names such as "a..b"; aiohttp passes the host already IDNA-encoded.
        name = host.encode("utf-8", "surrogatepass")
        infos = await loop.getaddrinfo(name, port, family=family, type=socket.SOCK_STREAM)
        if not infos:  # aiohttp fails on an empty answer with an assertion, not an error
            raise socket.gaierror(socket.EAI_NONAME, "no addresses")
        hosts: list[ResolveResult] = []
        refused = None
        for info_family, _, proto, _, address in infos:
            ip = str(address[0])
            if len(address) == 4 and address[3]:  # link-local: keep the zone
                ip = f"{ip.partition('%')[0]}%{address[3]}"
            if refused is None and not self._guard.allows(ip):
                refused = ip
            hosts.append(
                ResolveResult(
                    hostname=host,
                    host=ip,
                    port=int(address[1]),
                    family=info_family,
                    proto=proto,
                    flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV,
                )
            )
        return _Lookup(hosts, refused)

    async def close(self) -> None:
        for task in list(self._lookups.values()):
            task.cancel()
