"""An open_clip model on a run's NegPairs (``pairs/negpairs.parquet``), scored as MediConfusion
scores its pairs: for each pair, is each caption closer to its own image than to the other one?
Individual accuracy counts the two captions apart; set accuracy counts a pair right only when
both are (chance: 0.5 and 0.25). Per object too: which differences the model sees.

Images are read from the ingested ``shards/`` tars of the two images."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from negdata.clip_models import Clip
from negdata.evaluation.clip_eval import image_features, number, text_features
from negdata.pairs.images import indexed_jpegs
from negdata.pairs.layout import FOLDER, NEGPAIRS_FILE
from negdata.records import NegPairRecord, read_parquet
from negdata.shards import Location


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
    sides = {(p.shard_a, p.key_a) for p in pairs} | {(p.shard_b, p.key_b) for p in pairs}
    with indexed_jpegs(run, sides) as jpegs:
        return PairsData(pairs, {key: jpegs.read(key) for _, key in sorted(sides)})


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


def report_pairs(clip: Clip, scores: PairScores, run: Location) -> str:
    """What ``negdata eval-clip --task pairs`` prints."""
    weights = clip.weights or "random init (no --pretrained)"
    lines = [
        f"{clip.name}, weights: {weights}; {run}, NegPairs",
        f"NegPairs: {scores.pairs} pairs, individual accuracy {number(scores.individual)} "
        f"(chance 0.500), set accuracy {number(scores.set)} (chance 0.250)",
        f"  {'object':<16}{'pairs':>6}{'set accuracy':>14}",
    ]
    for obj, (right, total) in scores.by_object.items():
        lines.append(f"  {obj:<16}{total:>6}{number(right / total):>14}")
    return "\n".join(lines)
