"""The paired images' store: each image's evidence, original caption and sha256, copied once
from the run's shards and read back by key."""

from __future__ import annotations

from pathlib import Path

from negdata.pairs.store import BATCH, paired_images
from negdata.records import Evidence, IngestRow, known_evidence, write_parquet

VOCABULARY = ("person", "dog", "bench")


def _evidence(key: str, *present: str) -> Evidence:
    return known_evidence(key, {label: 1 for label in present}, VOCABULARY, "oracle")


def test_the_store_gives_back_what_the_shards_hold_of_the_keys_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "out"
    keys = [f"00000{i:04d}" for i in range(2 * BATCH + 3)]  # more than one query's worth
    write_parquet(out / "evidence" / "00000.parquet", Evidence, [_evidence(k, "dog") for k in keys])
    rows = [
        IngestRow(key=k, url=f"u{k}", caption=f"caption {k}", status="success", sha256=k * 7)
        for k in keys
    ]
    rows[1] = rows[1].model_copy(update={"status": "failed", "caption": "lost"})
    write_parquet(out / "shards" / "00000.parquet", IngestRow, rows)
    # Shard 1 has evidence but no ingest table (a run folder of evidence alone).
    write_parquet(out / "evidence" / "00001.parquet", Evidence, [_evidence("000010000", "bench")])
    sides = [(0, k) for k in keys[:-1]] + [(0, keys[0]), (1, "000010000")]
    with paired_images(out, out / "evidence", sides) as stored:
        assert stored.labels == frozenset(VOCABULARY)
        found = stored.read([*keys, "000010000", "nowhere"])
    assert sorted(found) == sorted([*keys[:-1], "000010000"])  # the last key was not asked for
    assert found[keys[0]].evidence == _evidence(keys[0], "dog")
    assert (found[keys[0]].caption, found[keys[0]].sha256) == (f"caption {keys[0]}", keys[0] * 7)
    assert found[keys[1]].caption == ""  # a failed row's caption is no image's
    assert (found["000010000"].caption, found["000010000"].sha256) == ("", None)
