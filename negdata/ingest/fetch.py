"""Fetch the bytes behind a URL: file://, a plain local path, or http(s)://."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

import httpx


class FetchError(Exception):
    """A sample could not be fetched; ``reason`` is the counted reject code."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def _read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FetchError("missing_file", f"no such file: {path}") from None
    except OSError as exc:
        raise FetchError("unreadable_file", f"{path}: {exc}") from None


def fetch(url: str, client: httpx.Client, *, allow_files: bool = True) -> bytes:
    """The raw bytes of ``url``; raises FetchError with a reason code on any failure."""
    if not url:
        raise FetchError("empty_url", "the row has no url")
    parsed = urlparse(url)
    if parsed.scheme in ("http", "https"):
        try:
            response = client.get(url, follow_redirects=True)
        except httpx.TimeoutException as exc:
            raise FetchError("timeout", f"{url}: {exc}") from None
        except httpx.HTTPError as exc:
            raise FetchError("connection_error", f"{url}: {exc}") from None
        if response.status_code != 200:
            raise FetchError("http_error", f"{url}: HTTP {response.status_code}")
        return response.content
    if not allow_files:
        raise FetchError("unsupported_url", f"local files are disabled: {url}")
    if parsed.scheme == "file":
        return _read_file(Path(unquote(parsed.path)))
    if parsed.scheme == "":
        return _read_file(Path(url))
    raise FetchError("unsupported_url", f"unsupported scheme {parsed.scheme!r}: {url}")
