"""NegPairs as datasets, per split (``pairs.captions``): the layout NegCap's datasets have, read
by Hugging Face's ``load_dataset(folder)`` and open_clip's shard patterns alike::

    pairs/negpairs/{split}/negpairs.parquet     NegPairRecord rows of the split
    pairs/negpairs_wds/{split}/{n:05d}.tar      WebDataset: each pair's two images adjacent
    pairs/negpairs_wds/{split}/sizes.json       open_clip's sample counts

A pair is two samples, ``{pair_id}_a`` then ``{pair_id}_b``: ``jpg``, ``txt`` (the image's own
caption: A's names the object as there, B's negates it) and ``json`` (the pair, the side, the
image's key and the other's). ``PAIRS_PER_TAR`` pairs a tar, in the published order. A split
with no pair gets no folder (``datasets`` reads no empty file). What an earlier run wrote here is
removed first: the folders hold this run's pairs only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from negdata.pairs.images import IndexedJpegs
from negdata.pairs.layout import NEGPAIRS_FILE, PARQUET, REJECTS_FILE, WDS
from negdata.records import SPLITS, NegPairRecord, Split, write_parquet
from negdata.shards import Location, write_json_atomic
from negdata.wds import Sample, write_tar

PAIRS_PER_TAR = 5000  # 10,000 samples: a CC12M shard's size


def samples(pair: NegPairRecord, images: IndexedJpegs) -> Iterator[Sample]:
    """A pair's two WebDataset samples, A then B."""
    shared = {
        "pair_id": pair.pair_id,
        "object": pair.object,
        "similarity": pair.similarity,
        "overlap": pair.overlap,
    }
    sides = (
        ("a", pair.key_a, pair.key_b, pair.caption_a),
        ("b", pair.key_b, pair.key_a, pair.caption_b),
    )
    for side, key, other, caption in sides:
        yield {
            "__key__": f"{pair.pair_id}_{side}",
            "jpg": images.read(key),
            "txt": caption,
            "json": {**shared, "side": side, "key": key, "other_key": other, "caption": caption},
        }


def _clear_splits(folder: Location) -> None:
    """Remove the split datasets an earlier run wrote under ``folder``."""
    for name in (PARQUET, WDS):
        written: list[Location] = list((folder / name).glob("*/*"))  # {split}/{file}
        for path in written:
            path.unlink()


def clear_published(folder: Location) -> None:
    """Remove everything captioning wrote under ``folder``: with ``pairs.captions`` off, an
    earlier run's published pairs must not pass for these."""
    for name in (NEGPAIRS_FILE, REJECTS_FILE):
        (folder / name).unlink(missing_ok=True)
    _clear_splits(folder)


def publish_pairs(
    folder: Location, published: Sequence[NegPairRecord], images: IndexedJpegs
) -> dict[str, dict[str, int]]:
    """Write the split datasets of ``published`` under ``folder``; the pairs and tars written
    per split."""
    _clear_splits(folder)
    by_split: dict[Split, list[NegPairRecord]] = {split: [] for split in SPLITS}
    for pair in published:
        by_split[pair.split].append(pair)
    written: dict[str, dict[str, int]] = {}
    for split, pairs in by_split.items():
        if not pairs:
            continue
        write_parquet(folder / PARQUET / split / f"{PARQUET}.parquet", NegPairRecord, pairs)
        sizes: dict[str, int] = {}
        for start in range(0, len(pairs), PAIRS_PER_TAR):
            name = f"{start // PAIRS_PER_TAR:05d}.tar"
            chunk = pairs[start : start + PAIRS_PER_TAR]
            stream = (sample for pair in chunk for sample in samples(pair, images))
            sizes[name] = write_tar(folder / WDS / split / name, stream)
        write_json_atomic(folder / WDS / split / "sizes.json", sizes)
        written[split] = {"pairs": len(pairs), "tars": len(sizes)}
    return written
