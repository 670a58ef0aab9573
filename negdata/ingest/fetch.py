"""Fetch errors, and reading a row's bytes from a local file (file:// or a plain path).

Web URLs go through ``negdata.ingest.http.Fetcher``; this module covers local input, which a
config may forbid (``ingest.allow_file_urls``, off for URL lists from the open web).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse


class FetchError(Exception):
    """A sample could not be fetched; ``reason`` is the counted reject code."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[type[FetchError], tuple[str, str]]:
        # Decode workers return these across processes; the default pickling passes one arg.
        return type(self), (self.reason, self.detail)


def is_web_url(url: str) -> bool:
    return urlparse(url).scheme in ("http", "https")


def read_local(url: str, *, allow_files: bool) -> bytes:
    """The bytes of a ``file://`` URL or a plain path; FetchError with a reason otherwise."""
    if not url:
        raise FetchError("empty_url", "the row has no url")
    parsed = urlparse(url)
    if parsed.scheme not in ("file", ""):
        raise FetchError("unsupported_url", f"unsupported scheme {parsed.scheme!r}: {url[:200]}")
    if not allow_files:
        raise FetchError("unsupported_url", f"local files are disabled: {url[:200]}")
    path = Path(unquote(parsed.path)) if parsed.scheme == "file" else Path(url)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FetchError("missing_file", f"no such file: {path}") from None
    except OSError as exc:
        raise FetchError("unreadable_file", f"{path}: {exc}") from None
