"""Fetch errors, and reading a row's bytes from a local file (file:// or a plain path).

Web URLs go through ``negdata.ingest.http.Fetcher``; this module covers local input, which is
off unless the config turns it on (``ingest.allow_file_urls``, or format "files"), and then
confined to one folder (``LocalFiles.root``). A URL list from the open web may name any path,
so a local read is as guarded as a web fetch:

- ``outside_root``: the path resolves (symlinks followed) outside the root. Checked again on
  the opened file itself, so a symlink swapped in after the rows were read cannot escape.
- ``unsupported_url``: local input is off, or a ``file://`` URL names a host (only none or
  ``localhost`` is this machine).
- ``not_a_file``: a FIFO, device, socket or folder. Opened non-blocking, so a FIFO cannot hang.
- ``body_too_large``: over ``ingest.max_body_bytes``, by its size or by what a read returns.
- ``timeout``: over ``ingest.total_timeout_s``, checked before each read.
- ``missing_file``, ``unreadable_file``.

Error details name the path, never the file's content.
"""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from negdata.config import Config

READ_CHUNK = 1024 * 1024
LOCAL_HOSTS = ("", "localhost")
SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW


class FetchError(Exception):
    """A sample could not be fetched; ``reason`` is the counted reject code."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[type[FetchError], tuple[str, str]]:
        # Decode workers return these across processes; the default pickling passes one arg.
        return type(self), (self.reason, self.detail)


@dataclass(frozen=True)
class LocalFiles:
    """Which local files a run may read: those under ``root`` (None: no local file at all), of
    at most ``max_bytes``, each read within ``timeout_s``."""

    root: Path | None
    max_bytes: int
    timeout_s: float

    @classmethod
    def from_config(cls, cfg: Config) -> LocalFiles:
        enabled = cfg.ingest.allow_file_urls or cfg.input.format == "files"
        return cls(
            root=cfg.input.local_root if enabled else None,
            max_bytes=cfg.ingest.max_body_bytes,
            timeout_s=cfg.ingest.total_timeout_s,
        )


def url_scheme(url: str) -> str:
    """The scheme, lower case, or "" for a plain path. Unlike urlparse, never raises on a
    malformed rest (``http://[::1``), which the fetcher then rejects as a row."""
    scheme = SCHEME.match(url)
    return scheme[1].lower() if scheme else ""


def is_web_url(url: str) -> bool:
    return url_scheme(url) in ("http", "https")


def confined_path(url: str, root: Path) -> Path:
    """The real path (symlinks followed) that a ``file://`` URL or plain path names, a relative
    one taken relative to ``root``; FetchError unless it lies under ``root``."""
    if url_scheme(url) == "file":
        try:
            parsed = urlsplit(url)
        except ValueError as exc:
            raise FetchError("unsupported_url", f"{url[:200]}: {exc}") from None
        if parsed.netloc.lower() not in LOCAL_HOSTS:
            raise FetchError("unsupported_url", f"file URL on host {parsed.netloc!r}: {url[:200]}")
        given = Path(unquote(parsed.path))
    else:
        given = Path(url)
    try:
        real = (root / given).resolve()  # an absolute ``given`` stays itself
        inside = real.is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop: nothing shows it stays inside
        inside = False
    if not inside:
        raise FetchError("outside_root", f"{url[:200]} resolves outside {root}")
    return real


def read_local(url: str, files: LocalFiles) -> bytes:
    """The bytes of a ``file://`` URL or a plain path; FetchError with a reason otherwise."""
    started = time.monotonic()
    if not url:
        raise FetchError("empty_url", "the row has no url")
    scheme = url_scheme(url)
    if scheme not in ("file", ""):
        raise FetchError("unsupported_url", f"unsupported scheme {scheme!r}: {url[:200]}")
    if files.root is None:
        raise FetchError("unsupported_url", f"local files are off: {url[:200]}")
    path = confined_path(url, files.root)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise FetchError("missing_file", f"no such file: {path}") from None
    except OSError as exc:
        raise FetchError("unreadable_file", f"{path}: {exc.strerror}") from None
    try:
        _check_opened(fd, path, files.root, files.max_bytes)
        return _read(fd, path, files, started)
    except OSError as exc:
        raise FetchError("unreadable_file", f"{path}: {exc.strerror}") from None
    finally:
        os.close(fd)


def _check_opened(fd: int, path: Path, root: Path, limit: int) -> None:
    """Judge the file actually opened: where it is (Linux names it in /proc/self/fd; elsewhere
    the check before the open stands), what it is, and how big."""
    try:
        opened = Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        opened = path
    if not opened.is_relative_to(root.resolve()):
        raise FetchError("outside_root", f"{path} was opened outside {root}")
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise FetchError("not_a_file", f"{path} is not a regular file")
    if info.st_size > limit:
        raise FetchError("body_too_large", f"{path}: {info.st_size} bytes, over {limit}")


def _read(fd: int, path: Path, files: LocalFiles, started: float) -> bytes:
    """At most ``max_bytes`` + 1 bytes, so a file that grows after the size check still ends."""
    limit = files.max_bytes
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        if time.monotonic() - started > files.timeout_s:
            raise FetchError("timeout", f"{path}: over {files.timeout_s}s in all")
        chunk = os.read(fd, min(READ_CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise FetchError("body_too_large", f"{path}: over {limit} bytes")
    return b"".join(chunks)
