"""Shard ranges, sample keys, output paths, atomic publishing and done markers.

Layout of a run directory (img2dataset's for ``shards/``)::

    shards/{s:05d}.tar .parquet _stats.json   ingest
    evidence/{s:05d}.parquet _stats.json      detect
    objects/{s:05d}.parquet _stats.json       plan
    captions/{s:05d}.parquet _mcq _rejects  compose
    publish/{s:05d}_stats.json               publish, whose datasets have a folder per split:
    negcap/{split}/{s:05d}.tar, negcap_parquet/, negmcq/, rejects/  (negdata.publish.layout)

A stage's ``_stats.json`` is written last and names the config hash it was made with: it is
the stage's done marker for that shard.

The run directory is a local folder or an object store (``UPath``, e.g. ``s3://bucket/run``;
``config.OBJECT_STORES``). Every file is written whole or not at all: locally by renaming a
finished temporary file, on an object store by uploading a finished local file (an object
appears only once its upload is complete), so no reader, and no rerun, ever sees a partial file.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeGuard

from upath import UPath

# A file or folder of a run: a local path, or a location on any fsspec filesystem.
Location = Path | UPath


class ShardError(ValueError):
    """A shard selection that is malformed or names shards the input does not have."""


def shard_ranges(spec: str) -> list[range]:
    """``"0-3,7"`` -> ``[range(0, 4), range(7, 8)]``, checked but not expanded, so that a
    selection such as ``0-99999999`` costs nothing until it is checked against the input."""
    ranges: list[range] = []
    for part in spec.replace(" ", "").split(","):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            start = int(lo)
            end = int(hi) if sep else start
        except ValueError:
            raise ShardError(f"bad shard spec {spec!r}: {part!r} is not N or N-M") from None
        if start < 0 or end < start:
            raise ShardError(f"bad shard spec {spec!r}: {part!r} is not an increasing range")
        ranges.append(range(start, end + 1))
    if not ranges:
        raise ShardError(f"bad shard spec {spec!r}: names no shard")
    return ranges


def parse_shards(spec: str, count: int | None = None) -> list[int]:
    """``"0-3,7,10-11"`` -> ``[0, 1, 2, 3, 7, 10, 11]`` (sorted, unique). With ``count``, the
    number of shards the input has, a selection past the last one is refused before expanding."""
    ranges = shard_ranges(spec)
    last = max(r[-1] for r in ranges)
    if count is not None and last >= count:
        if count == 0:
            raise ShardError(f"shards {spec}: the input has no rows, so no shard")
        raise ShardError(
            f"shards {spec}: shard {last} is past the input's last shard, {count - 1} "
            f"(shards 0-{count - 1})"
        )
    return sorted({shard for r in ranges for shard in r})


def shard_spans(shards: list[int]) -> list[tuple[int, int]]:
    """``[0, 1, 2, 3, 7]`` -> ``[(0, 3), (7, 7)]``: runs of consecutive shards."""
    spans: list[tuple[int, int]] = []
    for shard in sorted(shards):
        if spans and shard == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], shard)
        else:
            spans.append((shard, shard))
    return spans


def shard_spec(shards: list[int]) -> str:
    """``[0, 1, 2, 3, 7]`` -> ``"0-3,7"``, which ``parse_shards`` reads back."""
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in shard_spans(shards))


def sample_key(shard: int, index: int) -> str:
    """img2dataset's 9-digit key: 5 digits of shard, 4 of index within the shard."""
    return f"{shard:05d}{index:04d}"


def shard_name(shard: int) -> str:
    return f"{shard:05d}"


def stats_path(stage_dir: Location, shard: int) -> Location:
    return stage_dir / f"{shard_name(shard)}_stats.json"


_STATS_NAME = re.compile(r"^(\d{5})_stats\.json$")


def shards_with_stats(stage_dir: Location) -> list[int]:
    """The shards with a done marker in ``stage_dir``, whatever config made it."""
    if not stage_dir.is_dir():
        return []
    matches = (_STATS_NAME.match(p.name) for p in stage_dir.iterdir())
    return sorted(int(m.group(1)) for m in matches if m)


def read_stats(stage_dir: Location, shard: int) -> dict[str, Any] | None:
    try:  # one read, no exists() first: on an object store that is one request, not two
        text = stats_path(stage_dir, shard).read_text()
    except FileNotFoundError:
        return None
    result: dict[str, Any] = json.loads(text)
    return result


def done_stats(stage_dir: Location, shard: int, config_hash: str) -> dict[str, Any] | None:
    """The shard's stats if its done marker was made with ``config_hash``, else None."""
    stats = read_stats(stage_dir, shard)
    return stats if stats is not None and stats.get("config_hash") == config_hash else None


def is_done(stage_dir: Location, shard: int, config_hash: str) -> bool:
    return done_stats(stage_dir, shard, config_hash) is not None


def is_remote(location: Location) -> TypeGuard[UPath]:
    """Whether ``location`` lives on another filesystem than this machine's (s3://, gs://...)."""
    return isinstance(location, UPath) and location.protocol not in ("", "file", "local")


# Temporary files and folders being written now, so that a stop on SIGTERM or Ctrl-C can remove
# them (``remove_unfinished``) instead of leaving them beside the outputs.
_unfinished: set[Path] = set()
_unfinished_lock = threading.Lock()


@contextmanager
def _tracked(path: Path) -> Iterator[Path]:
    with _unfinished_lock:
        _unfinished.add(path)
    try:
        yield path
    finally:
        with _unfinished_lock:
            _unfinished.discard(path)


def remove_unfinished() -> None:
    """Remove every temporary file or folder a write in progress holds (stopping a run)."""
    with _unfinished_lock:
        paths = list(_unfinished)
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


# Errors of the storage rather than of the data: disk full, quota, file too large, read-only,
# I/O. Raised while an output is written, they name the output (``atomic_path``).
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO})


@contextmanager
def atomic_path(final: Location) -> Iterator[Path]:
    """Yield a local temporary path to write ``final``'s content to; on success publish it
    whole: a local file is fsynced and renamed into place, a remote one uploaded. A storage
    error while writing (``STORAGE_ERRNOS``) is raised again naming ``final``, not the
    temporary file or nothing (a full disk fails a write with no file name)."""
    try:
        if is_remote(final):
            with (
                tempfile.TemporaryDirectory(prefix="negdata-upload-") as folder,
                _tracked(Path(folder)),
            ):
                tmp = Path(folder) / final.name
                yield tmp
                final.fs.put_file(str(tmp), final.path)
            return
        with _atomic_local(final if isinstance(final, Path) else Path(final.path)) as tmp:
            yield tmp
    except OSError as exc:
        if exc.errno not in STORAGE_ERRNOS:
            raise
        raise OSError(exc.errno, os.strerror(exc.errno), str(final)) from exc


def _process_umask() -> int:
    """The process's umask, read from /proc where Linux offers it: ``os.umask`` can only read it
    by setting it, which races with any other thread creating a file meanwhile."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# The mode of every published file: what any tool's output gets (0666 less the umask), read once
# at import. mkstemp makes its files 0600, which would hide the outputs from a training job
# running as another user.
FILE_MODE = 0o666 & ~_process_umask()


@contextmanager
def _atomic_local(final: Path) -> Iterator[Path]:
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
    os.close(fd)
    with _tracked(Path(tmp_name)) as tmp:
        try:
            yield tmp
            os.chmod(tmp, FILE_MODE)  # after writing: a writer may have made the file anew
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            os.replace(tmp, final)
        finally:
            tmp.unlink(missing_ok=True)


def write_if_changed(path: Location, content: str | bytes) -> None:
    """Publish ``content`` (text as UTF-8) at ``path`` unless the file already holds it: a rerun
    that finds every shard done, or exports the same images again, changes no file."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with suppress(FileNotFoundError):
        if path.read_bytes() == data:
            return
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_json_atomic(path: Location, payload: Any) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")


def write_stats(stage_dir: Location, shard: int, config_hash: str, stats: dict[str, Any]) -> None:
    """Publish the shard's done marker; call it after every other output of the stage."""
    write_json_atomic(stats_path(stage_dir, shard), {**stats, "config_hash": config_hash})
