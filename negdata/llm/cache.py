"""A persistent response cache: a request body that was answered once is never paid for again.

Keyed by a hash of the whole request body (model, messages, sampling parameters, schema) and of
the item the request is for (an image's key), so a rerun after a crash, or after a config change
that leaves a request unchanged, re-uses the answer and produces the same output. The item is
part of the key because two images can ask the very same thing (the same caption, the same
detections): sampled, each gets an answer of its own, and a rerun must give each its own again,
not one of them to both.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any


def request_key(body: dict[str, Any], item: str | None = None) -> str:
    keyed = body if item is None else {"body": body, "item": item}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()


class ResponseCache:
    """SQLite file of ``request key -> reply JSON``; safe for several processes (WAL)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, timeout=30.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # survives a process crash, not power loss
        self._db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, reply TEXT)")
        self._db.commit()

    def get(self, body: dict[str, Any], item: str | None = None) -> dict[str, Any] | None:
        row = self._db.execute(
            "SELECT reply FROM replies WHERE key = ?", (request_key(body, item),)
        ).fetchone()
        if row is None:
            return None
        reply: dict[str, Any] = json.loads(row[0])
        return reply

    def put(self, body: dict[str, Any], reply: dict[str, Any], item: str | None = None) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO replies (key, reply) VALUES (?, ?)",
            (request_key(body, item), json.dumps(reply)),
        )
        self._db.commit()

    def __len__(self) -> int:
        count: int = self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0]
        return count

    def close(self) -> None:
        self._db.close()
