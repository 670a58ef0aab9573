"""The corpus's web: an HTTP server on 127.0.0.1 that answers each URL of the synthetic corpus
as its kind says (``bench/scale/corpus.py``), run in a process of its own so that its CPU time
is its own and not the ingest stage's.

A fetchable row gets a JPEG of the bank (``bench.ingest.served_images``: crops of the sample
photos, longest side 300 to 2,000 px, varied aspect ratios) with a JPEG comment naming the row,
so that every URL's bytes are its own. The pixels repeat every ``len(bank)`` rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import socket
import struct
import sys
from pathlib import Path

from aiohttp import web
from PIL import Image

from bench.scale.corpus import corpus_row

OVERSIZED_BYTES = 64 * 1024 * 1024  # the Content-Length an oversized body announces
HUGE_SIDE = 30_000  # pixels of each side of an oversized image's header
HTML = b"<!doctype html><html><head><title>Page not found</title></head><body>" + (
    b"<p>The page you are looking for has moved.</p>" * 100
) + b"</body></html>"  # fmt: skip


def _jpeg(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (90, 120, 150)).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def _with_comment(jpeg: bytes, text: str) -> bytes:
    """``jpeg`` with a COM segment after its SOI marker: other bytes, the same pixels."""
    data = text.encode()
    return jpeg[:2] + b"\xff\xfe" + struct.pack(">H", len(data) + 2) + data + jpeg[2:]


def _huge_header(jpeg: bytes) -> bytes:
    """``jpeg`` whose frame header (SOF0) claims ``HUGE_SIDE`` x ``HUGE_SIDE`` pixels."""
    at = jpeg.index(b"\xff\xc0") + 5  # marker, length (2), precision (1)
    return jpeg[:at] + struct.pack(">HH", HUGE_SIDE, HUGE_SIDE) + jpeg[at + 4 :]


def _image(body: bytes, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=body, content_type="image/jpeg", headers=headers)


class CorpusSite:
    """Answers ``/img/{index}.jpg`` (and the hops its redirects point to) for one seed."""

    def __init__(self, seed: int, bank: list[bytes]) -> None:
        self.seed = seed
        self.bank = bank
        self.icon = _jpeg((64, 48))
        self.banner = _jpeg((1200, 200))
        self.huge = _huge_header(_jpeg((64, 64)))

    def image(self, index: int) -> bytes:
        return _with_comment(self.bank[index % len(self.bank)], f"bench-scale row {index}")

    async def first_hop(self, request: web.Request) -> web.StreamResponse:
        index = int(request.match_info["index"])
        kind = corpus_row(self.seed, index).kind
        if kind == "ok":
            return _image(self.image(index))
        if kind == "redirect":
            raise web.HTTPFound(f"/moved/{index:08d}.jpg")
        if kind == "redirect_dead":
            raise web.HTTPFound(f"/gone/{index:08d}.jpg")
        if kind == "redirect_loop":
            raise web.HTTPFound(f"/loop/{index:08d}/1")
        if kind == "server_error":
            raise web.HTTPServiceUnavailable()
        if kind == "html":
            return web.Response(body=HTML, content_type="text/html")
        if kind == "truncated":
            whole = self.image(index)
            return _image(whole[: len(whole) * 2 // 5])
        if kind == "oversized_body":
            return await self._oversized(request)
        if kind == "oversized_pixels":
            return _image(self.huge)
        if kind == "icon":
            return _image(self.icon)
        if kind == "banner":
            return _image(self.banner)
        if kind == "opted_out":
            return _image(self.image(index), {"X-Robots-Tag": "noai"})
        raise web.HTTPNotFound()  # not_found; a dead host's URL never reaches this server

    async def _oversized(self, request: web.Request) -> web.StreamResponse:
        """Headers announcing ``OVERSIZED_BYTES`` and the first bytes: a client that respects
        its body limit hangs up here, and the rest is never sent."""
        response = web.StreamResponse(headers={"Content-Type": "image/jpeg"})
        response.content_length = OVERSIZED_BYTES
        await response.prepare(request)
        with contextlib.suppress(ConnectionError):
            await response.write(self.bank[0][:65536])
        return response

    async def moved(self, request: web.Request) -> web.Response:
        index = int(request.match_info["index"])
        return _image(self.image(index))

    async def loop(self, request: web.Request) -> web.Response:
        index, hop = request.match_info["index"], int(request.match_info["hop"])
        raise web.HTTPFound(f"/loop/{index}/{hop + 1}")

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get(r"/img/{index:\d+}.jpg", self.first_hop)
        app.router.add_get(r"/moved/{index:\d+}.jpg", self.moved)
        app.router.add_get(r"/loop/{index:\d+}/{hop:\d+}", self.loop)
        return app  # /gone/... and anything else: 404


async def _serve(seed: int, bank: list[bytes]) -> None:
    dead = socket.socket()  # bound, never listening: connections to it are refused
    dead.bind(("127.0.0.1", 0))
    runner = web.AppRunner(CorpusSite(seed, bank).app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
    await site.start()
    port = runner.addresses[0][1]
    print(json.dumps({"port": port, "dead_port": dead.getsockname()[1]}), flush=True)
    await asyncio.Event().wait()


def main() -> None:
    """``python -m bench.scale.corpus_server SEED BANK_FILE...``: serve until terminated; the
    first line on stdout is ``{"port": ..., "dead_port": ...}``."""
    seed, *bank = sys.argv[1:]
    asyncio.run(_serve(int(seed), [Path(p).read_bytes() for p in bank]))


if __name__ == "__main__":
    main()
