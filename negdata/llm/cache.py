"""A persistent response cache: a request body that was answered once is never paid for again.

Keyed by a hash of the whole request body (model, messages, sampling parameters, schema) and of
the item the request is for (an image's key), so a rerun after a crash, or after a config change
that leaves a request unchanged, re-uses the answer and produces the same output. The item is
part of the key because two images can ask the very same thing (the same caption, the same
detections): sampled, each gets an answer of its own, and a rerun must give each its own again,
not one of them to both.

**One cache per shard, beside its outputs** (``<output_dir>/llm_cache/<shard>/``), written only
by the process holding the shard's lease (``negdata.leases``), so it needs no lock and works
where the outputs do: a local disk, a shared POSIX file system (NFS, Lustre: no SQLite, whose
WAL mode does not work over a network file system) and an object store. A shard resumed on
another machine finds every answer its last holder was paid for.

The cache is a folder of parts, each JSON lines of ``{"key", "reply"}``, read whole when the
shard's stage opens it (the earliest part first; a key's first answer wins):

- on a file system, each opening appends to a part of its own, one line per answer as it
  arrives: a process killed at any moment has lost no answer it received
  (a line cut short by the kill is skipped on reading);
- on an object store, where nothing appends, answers go out as a new part object every
  ``FLUSH_EVERY`` answers or ``FLUSH_S`` seconds, and at the end: a machine that dies loses at
  most those.

Caches of earlier versions (one SQLite file for the whole run, ``llm_cache.sqlite`` in a local
output folder or under ``$NEGDATA_CACHE/llm-cache/``) are read where they exist: an answer found
there is copied into the shard's cache and served.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from negdata.config import Config, cache_dir
from negdata.leases import host_identity
from negdata.shards import Location, atomic_path, is_remote, shard_name

FOLDER = "llm_cache"  # in the run's output folder: one sub-folder per shard
FLUSH_EVERY = 32  # on an object store: answers per part
FLUSH_S = 1.0  # on an object store: the longest an answer waits to be written


def request_key(body: dict[str, Any], item: str | None = None) -> str:
    keyed = body if item is None else {"body": body, "item": item}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()


def writer_id() -> str:
    """Who writes a part: host, process, and a nonce for two openings in one process."""
    return f"{host_identity()}-{os.getpid()}-{uuid.uuid4().hex[:8]}".replace("/", "_")


class LegacyCache:
    """A run-wide SQLite cache of an earlier version, read only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def close(self) -> None:
        self._db.close()


class ResponseCache:
    """One shard's answers: ``get`` and ``put`` by request body and item (thread-safe)."""

    def __init__(self, folder: Location, legacy: LegacyCache | None = None) -> None:
        self.remote = is_remote(folder)
        local = folder if self.remote or isinstance(folder, Path) else Path(folder.path)
        self.folder: Location = local
        self.legacy = legacy
        self.writer = writer_id()
        # Each answer as its JSON text: a parsed reply takes several times the memory, and a
        # shard's cache holds every stage's answers for all its images.
        self._replies: dict[str, str] = {}
        self._lock = threading.Lock()
        self._pending: list[str] = []  # lines not yet written (object store)
        self._last_flush = time.monotonic()
        self._parts = 0
        self._part: Path | None = None  # this opening's part (file system)
        self._read()

    def _read(self) -> None:
        if not self.folder.exists():
            return
        parts: list[Location] = sorted(self.folder.glob("*.jsonl"), key=str)
        for part in parts:
            for line in part.read_text().splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the last line of a part whose writer was killed mid-line
                self._replies.setdefault(entry["key"], json.dumps(entry["reply"]))

    def get(self, body: dict[str, Any], item: str | None = None) -> dict[str, Any] | None:
        key = request_key(body, item)
        with self._lock:
            text = self._replies.get(key)
        if text is not None:
            reply: dict[str, Any] = json.loads(text)
            return reply
        if self.legacy is not None:
            found = self.legacy.get(key)
            if found is not None:
                self._store(key, found)  # read once into this shard's cache
            return found
        return None

    def put(self, body: dict[str, Any], reply: dict[str, Any], item: str | None = None) -> None:
        self._store(request_key(body, item), reply)

    def _store(self, key: str, reply: dict[str, Any]) -> None:
        text = json.dumps(reply, sort_keys=True)
        line = f'{{"key": {json.dumps(key)}, "reply": {text}}}'  # json.dumps of both, keys sorted
        with self._lock:
            if key in self._replies:
                return
            self._replies[key] = text
            if self.remote:
                self._pending.append(line)
                due = time.monotonic() - self._last_flush >= FLUSH_S
                if len(self._pending) >= FLUSH_EVERY or due:
                    self._flush()
                return
            if self._part is None:
                assert isinstance(self.folder, Path)
                self.folder.mkdir(parents=True, exist_ok=True)
                self._part = self.folder / self._part_name()
            with open(self._part, "a", encoding="utf-8") as part:
                part.write(line + "\n")

    def _part_name(self) -> str:
        self._parts += 1
        return f"{time.time_ns():020d}-{self.writer}-{self._parts:05d}.jsonl"

    def _flush(self) -> None:
        """Write the pending answers as a new part (object store); under ``_lock``."""
        self._last_flush = time.monotonic()
        if not self._pending:
            return
        with atomic_path(self.folder / self._part_name()) as tmp:
            tmp.write_text("".join(line + "\n" for line in self._pending), encoding="utf-8")
        self._pending.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._replies)

    def close(self) -> None:
        if self.remote:
            with self._lock:
                self._flush()
        if self.legacy is not None:
            self.legacy.close()


def legacy_path(cfg: Config) -> Path | None:
    """The run-wide SQLite cache an earlier version kept for this output folder, if any."""
    out = cfg.run.output_dir
    if is_remote(out):
        digest = hashlib.sha256(str(out).encode()).hexdigest()[:16]
        path = cache_dir() / "llm-cache" / f"{digest}.sqlite"
    else:
        path = Path(out.path) / "llm_cache.sqlite"
    return path if path.is_file() else None


def shard_folder(output_dir: Location, shard: int | str) -> Location:
    """Where the answers of one shard (or of a named job: ``qualify``) are kept."""
    name = shard_name(shard) if isinstance(shard, int) else shard
    return output_dir / FOLDER / name


@contextlib.contextmanager
def shard_cache(cfg: Config, shard: int | str) -> Iterator[ResponseCache | None]:
    """The response cache of ``shard`` for the block, or None when ``llm.cache`` is off."""
    if not cfg.llm.cache:
        yield None
        return
    legacy = legacy_path(cfg)
    cache = ResponseCache(
        shard_folder(cfg.run.output_dir, shard), LegacyCache(legacy) if legacy else None
    )
    try:
        yield cache
    finally:
        cache.close()
