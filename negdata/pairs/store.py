"""What captioning needs of each paired image (its evidence, its original caption, its sha256),
copied once from the run's shards into a SQLite file in a temporary folder and read back a block
of pairs at a time: captioning holds one block's images, never the run's. At CC12M size the
paired images are millions, and their evidence GBs; the shards are read once each."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from negdata.records import Evidence, IngestRow, flat, iter_parquet
from negdata.shards import Location, shard_name

BATCH = 500  # keys a query asks for at once (SQLite's variable limit is 32,766)


@dataclass(frozen=True)
class Stored:
    evidence: Evidence
    caption: str  # the original caption ("" where the ingest table is gone or the row failed)
    sha256: str | None


class PairedImages:
    """``read(keys)``: the stored images of ``keys``; ``labels``: every label the stored
    evidence scores (what the run's lexicon is extended by)."""

    def __init__(self, db: sqlite3.Connection, labels: frozenset[str]) -> None:
        self._db, self.labels = db, labels

    def read(self, keys: Iterable[str]) -> dict[str, Stored]:
        wanted = sorted(set(keys))
        found: dict[str, Stored] = {}
        for start in range(0, len(wanted), BATCH):
            chunk = wanted[start : start + BATCH]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT key, evidence, caption, sha256 FROM images WHERE key IN ({marks})"
            for key, evidence, caption, sha in self._db.execute(query, chunk):
                found[key] = Stored(Evidence.model_validate_json(evidence), caption, sha)
        return found


def _ingested(out: Location, shard: int, keys: set[str]) -> dict[str, IngestRow]:
    """The shard's ingest rows of ``keys``; none where the table is gone (a run folder of
    evidence alone)."""
    path = out / "shards" / f"{shard_name(shard)}.parquet"
    try:
        return {row.key: row for row in flat(iter_parquet(path, IngestRow)) if row.key in keys}
    except FileNotFoundError:
        return {}


@contextmanager
def paired_images(
    out: Location, evidence_dir: Location, sides: Sequence[tuple[int, str]]
) -> Iterator[PairedImages]:
    """The images of ``sides`` ((shard, key) pairs), stored shard by shard; the file goes when
    the block ends."""
    wanted: dict[int, set[str]] = {}
    for shard, key in sides:
        wanted.setdefault(shard, set()).add(key)
    labels: set[str] = set()
    with (
        tempfile.TemporaryDirectory(prefix="negdata-pairs-") as folder,
        closing(sqlite3.connect(Path(folder) / "images.sqlite")) as db,
    ):
        db.execute("CREATE TABLE images (key TEXT PRIMARY KEY, evidence, caption, sha256)")
        for shard, keys in sorted(wanted.items()):
            rows = _ingested(out, shard, keys)
            path = evidence_dir / f"{shard_name(shard)}.parquet"
            for batch in iter_parquet(path, Evidence):
                kept = [ev for ev in batch if ev.key in keys]
                labels.update(score.label for ev in kept for score in ev.scores)
                db.executemany(
                    "INSERT INTO images VALUES (?, ?, ?, ?)",
                    [
                        (ev.key, ev.model_dump_json(), *_caption_and_hash(rows.get(ev.key)))
                        for ev in kept
                    ],
                )
        db.commit()
        yield PairedImages(db, frozenset(labels))


def _caption_and_hash(row: IngestRow | None) -> tuple[str, str | None]:
    if row is None:
        return "", None
    return (row.caption if row.status == "success" else ""), row.sha256
