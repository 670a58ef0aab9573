"""Input rows (url or file path, caption, maybe the image bytes), split into shards.

Formats: CC12M's TSV, Parquet, CSV, a folder of image files, and existing WebDataset tars.
Every line of a TSV or CSV (record, for CSV) after the header is one row, blank and malformed
ones included, and row i always belongs to shard i // samples_per_shard: a row that is bad at
the source stays in place with an ``error`` reason code and a ``detail``, so keys never shift
and the stage counts the reject instead of fetching.
"""

from __future__ import annotations

import codecs
import csv
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from itertools import islice
from pathlib import Path
from typing import IO, Any

import fsspec
import pyarrow.parquet as pq
from braceexpand import braceexpand

from negdata.config import InputConfig
from negdata.ingest.fetch import FetchError, confined_path, url_scheme
from negdata.wds import tar_samples

TAR_IMAGE_EXTENSIONS = ("jpg", "jpeg", "png", "webp")
FILE_IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp", ".tif", ".tiff"})
# A URL's scheme and authority (user info, host, port), as RFC 3986 splits them.
AUTHORITY = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)([^/?#]*)")


@dataclass(frozen=True)
class SourceRow:
    url: str
    caption: str
    # Why the row is rejected before any fetch: bad_row, invalid_utf8, caption_too_long,
    # duplicate_url, credentials_in_url, outside_root or unsupported_url. None for a row worth
    # fetching. ``detail`` says what was wrong with this row.
    error: str | None = None
    detail: str = ""
    data: bytes | None = field(default=None, repr=False)  # image bytes already at hand (tars)


def _rejected(row: SourceRow, reason: str, detail: str) -> SourceRow:
    return replace(row, error=reason, detail=detail, data=None)


# --- TSV, CSV, Parquet -------------------------------------------------------------------------


def _columns(path: Path, header: list[str], cfg: InputConfig) -> tuple[int, int]:
    try:
        return header.index(cfg.url_column), header.index(cfg.caption_column)
    except ValueError:
        raise ValueError(
            f"{path}: header {header} lacks input.url_column={cfg.url_column!r} or "
            f"input.caption_column={cfg.caption_column!r}"
        ) from None


def _is_utf8(text: str) -> bool:
    """False when ``text`` holds bytes that surrogateescape kept from invalid UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _row(fields: list[str], url_at: int = 0, caption_at: int = 1) -> SourceRow:
    """The row the decoded ``fields`` give; one with invalid UTF-8 is an invalid_utf8 reject."""
    valid = all(_is_utf8(f) for f in fields)
    if not valid:
        fields = [f.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for f in fields]
    url = fields[url_at] if url_at < len(fields) else ""
    caption = fields[caption_at] if caption_at < len(fields) else ""
    row = SourceRow(url=url.strip(), caption=caption.strip())
    return row if valid else _rejected(row, "invalid_utf8", "the line is not valid UTF-8")


@dataclass(frozen=True)
class _Layout:
    """Where a table's url and caption are, and how many fields each line must have."""

    url_at: int
    caption_at: int
    width: int
    fields: str  # how fields are separated, for details: "tab-separated", "comma-separated"

    def row(self, fields: list[str]) -> SourceRow:
        """One line's row: a blank line, or one with more or fewer fields than the header (or
        than url and caption, without one), is a bad_row; nothing is cut off silently."""
        if not any(f.strip() for f in fields):
            return SourceRow(url="", caption="", error="bad_row", detail="blank line")
        row = _row(fields, self.url_at, self.caption_at)
        if row.error is None and len(fields) != self.width:
            found = f"{len(fields)} {self.fields} field{'s' if len(fields) > 1 else ''}"
            return _rejected(row, "bad_row", f"{found}, expected {self.width}")
        return row


def _layout(path: Path, header: list[str] | None, cfg: InputConfig, fields: str) -> _Layout:
    if header is None:
        return _Layout(0, 1, 2, fields)
    url_at, caption_at = _columns(path, [name.strip() for name in header], cfg)
    return _Layout(url_at, caption_at, len(header), fields)


def _tsv_lines(fh: IO[bytes]) -> Iterator[list[str]]:
    """Tab-split lines, blank ones included, decoded one by one so a bad line cannot spoil the
    file. No quoting: CC12M's captions hold bare quotes, which csv would take as delimiters."""
    for number, raw in enumerate(fh):
        line = raw.rstrip(b"\r\n")
        if number == 0:
            line = line.removeprefix(codecs.BOM_UTF8)
        yield line.decode("utf-8", "surrogateescape").split("\t")


def _read_tsv(path: Path, cfg: InputConfig) -> list[SourceRow]:
    with path.open("rb") as fh:
        lines = _tsv_lines(fh)
        header = None
        if cfg.has_header:
            header = next(lines, None)
            if header is None:
                return []
        layout = _layout(path, header, cfg, "tab-separated")
        return [layout.row(fields) for fields in lines]


def _read_csv(path: Path, cfg: InputConfig) -> list[SourceRow]:
    """A header row is required; a record csv cannot parse (say, a field over csv's size limit)
    becomes a bad_row and the reader carries on with the next one."""
    with path.open(newline="", encoding="utf-8-sig", errors="surrogateescape") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None:
            return []
        layout = _layout(path, header, cfg, "comma-separated")
        rows: list[SourceRow] = []
        while True:
            try:
                fields = next(reader)
            except StopIteration:
                return rows
            except csv.Error as exc:
                rows.append(SourceRow(url="", caption="", error="bad_row", detail=str(exc)))
                continue
            rows.append(layout.row(fields))


def _read_parquet(path: Path, cfg: InputConfig) -> list[SourceRow]:
    table = pq.read_table(path, columns=[cfg.url_column, cfg.caption_column])
    return [
        SourceRow(url=str(u or "").strip(), caption=str(c or "").strip())
        for u, c in zip(
            table.column(cfg.url_column).to_pylist(),
            table.column(cfg.caption_column).to_pylist(),
            strict=True,
        )
    ]


@lru_cache(maxsize=2)
def _read_table(cfg: InputConfig, mtime_ns: int) -> list[SourceRow]:
    """Read once per process and file version: every shard of a run slices the same rows."""
    path = cfg.local_path
    if cfg.format == "parquet":
        return _read_parquet(path, cfg)
    return _read_tsv(path, cfg) if cfg.format == "tsv" else _read_csv(path, cfg)


def _table(cfg: InputConfig) -> list[SourceRow]:
    if not cfg.local_path.is_file():
        raise FileNotFoundError(f"input.path is not a file: {cfg.path}")
    return _read_table(cfg, cfg.local_path.stat().st_mtime_ns)


# --- A folder of image files -------------------------------------------------------------------


def _walk_error(exc: OSError) -> None:
    """An unreadable subfolder stops the listing: skipping it would shift every later key."""
    raise exc


@lru_cache(maxsize=2)
def _list_images(root: Path, mtime_ns: int) -> tuple[Path, ...]:
    """Image files under ``root``, sorted by relative path. Cached on the folder's own mtime, so
    a process sees files added to subfolders after its first read only on the next run."""
    found = [
        Path(folder, name)
        for folder, _, names in os.walk(root, onerror=_walk_error)
        for name in names
        if Path(name).suffix.lower() in FILE_IMAGE_SUFFIXES
    ]
    return tuple(sorted(found, key=lambda p: p.relative_to(root).as_posix()))


def _images(cfg: InputConfig) -> tuple[Path, ...]:
    root = cfg.local_path
    if not root.is_dir():
        raise NotADirectoryError(f"input.path is not a folder: {cfg.path}")
    return _list_images(root.absolute(), root.stat().st_mtime_ns)


def _file_row(image: Path) -> SourceRow:
    """The image's file:// URI, captioned by the .txt of the same stem (empty without one)."""
    url = image.as_uri()
    sidecar = image.with_suffix(".txt")
    try:
        raw = sidecar.read_bytes()
    except FileNotFoundError:
        return SourceRow(url=url, caption="")
    except OSError as exc:
        detail = f"caption file {sidecar.name}: {exc.strerror}"
        return SourceRow(url=url, caption="", error="bad_row", detail=detail)
    caption = raw.removeprefix(codecs.BOM_UTF8).decode("utf-8", "surrogateescape")
    return _row([url, caption])


# --- WebDataset tars ---------------------------------------------------------------------------


@cache
def _tar_size(cfg: InputConfig, url: str) -> int:
    """Samples in one tar, from its member headers; member data is skipped by seeking. Cached per
    process by URL: published shards are not rewritten while a run reads them."""
    with fsspec.open(url, "rb", **cfg.storage_options) as fh:
        return sum(1 for _ in tar_samples(fh, "r:*", read=False))


def _json_meta(raw: bytes | None) -> dict[str, Any]:
    """The sample's .json; an unreadable one only costs the original url, so it counts as none."""
    try:
        meta = json.loads(raw) if raw is not None else {}
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _sample_row(tar_url: str, key: str, files: dict[str, bytes]) -> SourceRow:
    meta = _json_meta(files.get("json"))
    url = meta.get("url")
    url = url if isinstance(url, str) and url else f"{tar_url}#{key}"
    image = next((files[ext] for ext in TAR_IMAGE_EXTENSIONS if ext in files), None)
    caption = meta.get("caption")
    if "txt" in files:
        caption = files["txt"].decode("utf-8", "surrogateescape")
    if image is None or not isinstance(caption, str):
        detail = f"sample {key} has no {'image' if image is None else 'caption'}"
        return SourceRow(url=url, caption="", error="bad_row", detail=detail)
    row = _row([url, caption])
    return row if row.error else replace(row, data=image)


def _read_tar(cfg: InputConfig, url: str, first: int, stop: int) -> list[SourceRow]:
    """Samples [first, stop) of one tar, streamed; reading ends once past ``stop``."""
    with fsspec.open(url, "rb", **cfg.storage_options) as fh:
        samples = list(islice(tar_samples(fh, "r|*", read=True), first, stop))
    if len(samples) < stop - first:
        raise ValueError(f"{url}: fewer samples than when it was indexed; was the tar rewritten?")
    return [_sample_row(url, key, files) for key, files in samples]


def _tar_rows(cfg: InputConfig, start: int, stop: int) -> list[SourceRow]:
    """Rows [start, stop) over the tars in order, opening only the tars that hold them."""
    rows: list[SourceRow] = []
    offset = 0
    for url in braceexpand(cfg.path):
        if offset >= stop:
            break
        size = _tar_size(cfg, url)
        if offset + size > start:
            rows += _read_tar(cfg, url, max(start - offset, 0), min(stop - offset, size))
        offset += size
    return rows


# --- Checks and shards -------------------------------------------------------------------------


def _without_credentials(row: SourceRow) -> SourceRow:
    """A url with a user name or password in it (``https://user:pass@host/...``) is never
    fetched and is kept without them: a credentials_in_url reject, unless it already has an
    error. Anything with an ``@`` in the authority counts, however malformed the rest."""
    authority = AUTHORITY.match(row.url)
    if authority is None or "@" not in authority[2]:
        return row
    url = authority[1] + authority[2].rpartition("@")[2] + row.url[authority.end() :]
    if row.error is not None:
        return replace(row, url=url)
    detail = "the url holds a user name or password, which are not stored"
    return _rejected(replace(row, url=url), "credentials_in_url", detail)


def _confined(row: SourceRow, root: Path) -> SourceRow:
    """A local path that resolves outside ``root``, or a file:// URL on another host, is
    rejected before any fetch. Reading the file checks again, where it opens it."""
    if row.error is not None or not row.url or url_scheme(row.url) not in ("", "file"):
        return row
    try:
        confined_path(row.url, root)
    except FetchError as exc:
        return _rejected(row, exc.reason, exc.detail)
    return row


def _checked(rows: list[SourceRow], cfg: InputConfig) -> list[SourceRow]:
    """Credentials, root and caption-length checks; a row keeps the first error found for it,
    and credentials are cut out of every url."""
    rows = [_without_credentials(row) for row in rows]
    root = cfg.local_root
    if root is not None and cfg.format != "webdataset":
        rows = [_confined(row, root) for row in rows]
    limit = cfg.max_caption_chars
    return [
        _rejected(row, "caption_too_long", f"{len(row.caption)} characters, over {limit}")
        if row.error is None and len(row.caption) > limit
        else row
        for row in rows
    ]


def _mark_duplicates(rows: list[SourceRow]) -> list[SourceRow]:
    """A url seen earlier in the shard is a duplicate_url; the first row without an error keeps
    it. Shard-local, so a shard's rows never depend on other shards."""
    seen: set[str] = set()
    marked = []
    for row in rows:
        if row.error is None and row.url:
            if row.url in seen:
                row = _rejected(row, "duplicate_url", "an earlier row of the shard has this url")
            seen.add(row.url)
        marked.append(row)
    return marked


def read_rows(cfg: InputConfig) -> list[SourceRow]:
    """Every row of a table or folder input, in order; row i belongs to shard
    i // samples_per_shard. Duplicates are marked per shard, by ``shard_rows`` only. WebDataset
    input has no such list: its rows carry image bytes, so it is read one shard at a time."""
    if cfg.format == "webdataset":
        raise ValueError("webdataset input is read one shard at a time, with shard_rows")
    if cfg.format == "files":
        return _checked([_file_row(image) for image in _images(cfg)], cfg)
    return _checked(_table(cfg), cfg)


def shard_count(cfg: InputConfig, up_to: int | None = None) -> int:
    """The number of shards the input makes. With ``up_to``, a webdataset input's tars are
    counted only until shard ``up_to`` is known to exist (the result is then at least
    ``up_to + 1``): checking a selection opens no tar that its shards do not need."""
    per_shard = cfg.samples_per_shard
    if cfg.format == "webdataset":
        needed = None if up_to is None else up_to * per_shard + 1
        rows = 0
        for url in braceexpand(cfg.path):
            if needed is not None and rows >= needed:
                break
            rows += _tar_size(cfg, url)
    else:
        rows = len(_images(cfg)) if cfg.format == "files" else len(_table(cfg))
    return (rows + per_shard - 1) // per_shard


def shard_rows(cfg: InputConfig, shard: int) -> list[SourceRow]:
    """Rows [shard * n, (shard + 1) * n) of the input, n = samples_per_shard, checked."""
    start = shard * cfg.samples_per_shard
    stop = start + cfg.samples_per_shard
    if cfg.format == "webdataset":
        rows = _tar_rows(cfg, start, stop)
    elif cfg.format == "files":
        rows = [_file_row(image) for image in _images(cfg)[start:stop]]
    else:
        rows = _table(cfg)[start:stop]
    return _mark_duplicates(_checked(rows, cfg))
