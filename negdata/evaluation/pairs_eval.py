"""An open_clip model on a run's NegPairs (``pairs/negpairs.parquet``), scored as MediConfusion
scores its pairs: for each pair, is each caption closer to its own image than to the other one?
Individual accuracy counts the two captions apart; set accuracy counts a pair right only when
both are (chance: 0.5 and 0.25). Per object too: which differences the model sees.

Images are read from the ingested ``shards/`` tars of the two images."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from negdata.evaluation.clip_eval import Clip, image_features, text_features
from negdata.pairs.stage import FOLDER, NEGPAIRS_FILE
from negdata.records import NegPairRecord, read_parquet
from negdata.shards import Location, shard_name
from negdata.wds import read_tar


@dataclass(frozen=True)
class PairsData:
    """A run's published pairs and the JPEG of every image they name, by key."""

    pairs: list[NegPairRecord]
    images: dict[str, bytes]


@dataclass(frozen=True)
class PairScores:
    pairs: int
    individual: float | None  # captions matched to their own image, of 2 per pair
    set: float | None  # pairs whose two captions both are
    by_object: dict[str, tuple[int, int]]  # object -> (pairs right as a set, pairs)


def read_pairs(run: Location) -> PairsData:
    path = run / FOLDER / NEGPAIRS_FILE
    if not path.exists():
        raise ValueError(f"{run}: no {FOLDER}/{NEGPAIRS_FILE} (negdata pairs with pairs.captions)")
    pairs = list(read_parquet(path, NegPairRecord))
    wanted: dict[int, set[str]] = {}
    for pair in pairs:
        wanted.setdefault(pair.shard_a, set()).add(pair.key_a)
        wanted.setdefault(pair.shard_b, set()).add(pair.key_b)
    images: dict[str, bytes] = {}
    for shard, keys in sorted(wanted.items()):
        for sample in read_tar(run / "shards" / f"{shard_name(shard)}.tar"):
            if sample["__key__"] in keys and "jpg" in sample:
                images[sample["__key__"]] = sample["jpg"]
    missing = {k for keys in wanted.values() for k in keys} - images.keys()
    if missing:
        raise ValueError(f"{run}: no image for {len(missing)} paired keys, e.g. {min(missing)}")
    return PairsData(pairs, images)


def evaluate_pairs(clip: Clip, data: PairsData, batch_size: int = 64) -> PairScores:
    if not data.pairs:
        return PairScores(0, None, None, {})
    keys = sorted(data.images)
    row = {key: i for i, key in enumerate(keys)}
    images = image_features(clip, [data.images[k] for k in keys], batch_size)
    texts = text_features(
        clip, [c for p in data.pairs for c in (p.caption_a, p.caption_b)], batch_size
    )
    right = 0
    sets: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for i, pair in enumerate(data.pairs):
        a, b = images[row[pair.key_a]], images[row[pair.key_b]]
        with_x, without_x = texts[2 * i], texts[2 * i + 1]
        own_a = bool(with_x @ a > with_x @ b)  # the caption of A is closer to A
        own_b = bool(without_x @ b > without_x @ a)
        right += own_a + own_b
        sets[pair.object] += own_a and own_b
        totals[pair.object] += 1
    n = len(data.pairs)
    return PairScores(
        pairs=n,
        individual=right / (2 * n),
        set=sum(sets.values()) / n,
        by_object={obj: (sets[obj], totals[obj]) for obj in sorted(totals)},
    )


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def report_pairs(clip: Clip, scores: PairScores, run: Location) -> str:
    """What ``negdata eval-clip --task pairs`` prints."""
    weights = clip.weights or "random init (no --pretrained)"
    lines = [
        f"{clip.name}, weights: {weights}; {run}, NegPairs",
        f"NegPairs: {scores.pairs} pairs, individual accuracy {_number(scores.individual)} "
        f"(chance 0.500), set accuracy {_number(scores.set)} (chance 0.250)",
        f"  {'object':<16}{'pairs':>6}{'set accuracy':>14}",
    ]
    for obj, (right, total) in scores.by_object.items():
        lines.append(f"  {obj:<16}{total:>6}{_number(right / total):>14}")
    return "\n".join(lines)
