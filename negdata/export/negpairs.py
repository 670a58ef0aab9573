"""NegPairs in ``negdata export negbench``, when the run has published pairs
(``pairs/negpairs.parquet``): two CSVs in NegBench's conventions (a header row, comma-separated,
absolute image paths, read with ``pd.read_csv``), their images written beside NegCap's as
``images/{shard}/{key}.jpg``.

``negpairs_train.csv``: ``filepath, caption, pair_id, side``; the train split's pairs, two rows
each, A's then B's, each image with its own caption, as open_clip's ``--dataset-type csv`` reads
an image-caption file (``--csv-img-key filepath --csv-caption-key caption``).

``negpairs_mcq.csv``: ``pair_id, object, image_0, image_1, caption_0, caption_1``; one row per
pair of the evaluation splits, in MediConfusion's form: two images and the same two options for
both, image ``i``'s answer is ``caption_i`` (A with the object, B without). A model answers an
image by the option closer to it; individual accuracy counts the two images apart (chance 0.5),
set accuracy a pair right only when both are (chance 0.25), as ``eval-clip --task pairs``
scores them.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from negdata.pairs.images import indexed_jpegs
from negdata.pairs.layout import FOLDER, NEGPAIRS_FILE
from negdata.records import NegPairRecord, read_parquet
from negdata.shards import Location, atomic_path, shard_name, write_if_changed

TRAIN_FILE, MCQ_FILE = "negpairs_train.csv", "negpairs_mcq.csv"
TRAIN_COLUMNS = ("filepath", "caption", "pair_id", "side")
MCQ_COLUMNS = ("pair_id", "object", "image_0", "image_1", "caption_0", "caption_1")


def _write_csv(path: Path, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> int:
    with atomic_path(path) as tmp, tmp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
    return len(rows)


def export_pairs(
    run: Location, out: Path, root: str, train_split: str, eval_splits: frozenset[str]
) -> dict[str, int]:
    """Write the two CSVs and their images; the rows and images written (nothing, and no file,
    when the run has no published pairs)."""
    source = run / FOLDER / NEGPAIRS_FILE
    if not source.exists():
        return {}
    pairs = read_parquet(source, NegPairRecord)
    train = [p for p in pairs if p.split == train_split]
    evaluated = [p for p in pairs if p.split in eval_splits]

    def path(shard: int, key: str) -> str:
        return f"{root}/{shard_name(shard)}/{key}.jpg"

    train_rows = [
        row
        for p in train
        for row in (
            (path(p.shard_a, p.key_a), p.caption_a, p.pair_id, "a"),
            (path(p.shard_b, p.key_b), p.caption_b, p.pair_id, "b"),
        )
    ]
    mcq_rows = [
        (
            p.pair_id,
            p.object,
            path(p.shard_a, p.key_a),
            path(p.shard_b, p.key_b),
            p.caption_a,
            p.caption_b,
        )
        for p in evaluated
    ]
    counts = {
        TRAIN_FILE: _write_csv(out / TRAIN_FILE, TRAIN_COLUMNS, train_rows),
        MCQ_FILE: _write_csv(out / MCQ_FILE, MCQ_COLUMNS, mcq_rows),
    }
    sides = {(p.shard_a, p.key_a) for p in train + evaluated}
    sides |= {(p.shard_b, p.key_b) for p in train + evaluated}
    with indexed_jpegs(run, sides) as images:
        for shard, key in sorted(sides):
            write_if_changed(out / "images" / shard_name(shard) / f"{key}.jpg", images.read(key))
    counts["negpairs_images"] = len(sides)
    return counts
