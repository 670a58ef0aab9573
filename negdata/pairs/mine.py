"""Mining pairs: images that look alike and differ by one verified object.

A pair (A, B, X) is kept when X is verified present in A and verified absent in B, and A's other
present objects overlap B's present objects by at least ``min_overlap`` (Jaccard). From label
sets alone (``candidates``), look-alike means that overlap, and both images must show some other
object: two images that share nothing but an empty frame are no look-alike. With embeddings
(``similar_candidates``), B must also be among A's nearest images, at least ``min_similarity``
alike, and two images with no other object agree. Each image is in at most ``max_per_image``
pairs, the most similar (then the highest overlap) first, then by keys and object, so the same
inputs always give the same pairs in the same order.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from negdata.pairs.labels import ImageLabels
from negdata.pairs.neighbours import Neighbours
from negdata.records import PairRecord

# Overlaps are rounded to this many digits, so that the sort, and the file, never depend on the
# last bit of a float.
DIGITS = 6


@dataclass(frozen=True)
class Pair:
    a: ImageLabels
    b: ImageLabels
    object: str
    overlap: float
    similarity: float | None = None  # the embeddings' cosine, where there are embeddings

    def order(self) -> tuple[float, float, str, str, str]:
        return (-(self.similarity or 0.0), -self.overlap, self.a.key, self.b.key, self.object)

    @property
    def id(self) -> str:
        """``pair_id``: the response cache's item and the published row's id."""
        return pair_id(self.a.key, self.b.key, self.object)

    def record(self) -> PairRecord:
        return PairRecord(
            pair_id=self.id,
            key_a=self.a.key,
            key_b=self.b.key,
            object=self.object,
            overlap=self.overlap,
            similarity=self.similarity,
            shard_a=self.a.shard,
            shard_b=self.b.shard,
            present_a=sorted(self.a.present),
            present_b=sorted(self.b.present),
        )


def pair_id(key_a: str, key_b: str, label: str) -> str:
    """Stable across runs: the two keys and the object, hashed."""
    return hashlib.sha256(f"{key_a}\0{key_b}\0{label}".encode()).hexdigest()[:16]


def jaccard(x: frozenset[str], y: frozenset[str], empty: float = 0.0) -> float:
    """Their Jaccard index; ``empty`` where both are empty."""
    union = len(x | y)
    return round(len(x & y) / union, DIGITS) if union else empty


def candidates(
    images: Sequence[ImageLabels], min_overlap: float, dropped: Counter[str], per_object: int
) -> list[Pair]:
    """The pairs that pass all but the per-image cap, at most ``per_object`` for each image and
    object X, of at most ``8 * per_object`` looked at. At ``min_overlap`` 1 B's present set
    must equal A's less X: a hash join on the set. Below 1, B must share one of A's other
    objects: a join on each label. Each A looks through its near images from a place of its own
    (its key's hash), so that a million images of a person alone are not all offered the same
    first few, and the work per A is bounded.
    ``dropped`` counts what was looked at and refused: ``object_not_absent`` (X present,
    uncertain or unverifiable in B) and ``below_overlap``."""
    exact = min_overlap >= 1.0
    by_set: dict[frozenset[str], list[int]] = defaultdict(list)
    by_label: dict[str, list[int]] = defaultdict(list)
    for index, image in enumerate(images):
        if not image.present:
            continue
        if exact:
            by_set[image.present].append(index)
        else:
            for label in image.present:
                by_label[label].append(index)
    found: list[Pair] = []
    for a in images:
        if len(a.present) < 2:  # X and at least one other object
            continue
        for label in sorted(a.present):
            rest = a.present - {label}
            if exact:
                near: Sequence[int] = by_set.get(rest, ())
            else:
                near = sorted({i for other in rest for i in by_label[other]})
            start = _start(a.key, len(near))
            taken = 0
            for step in range(min(len(near), 8 * per_object)):  # looked at: bounded too
                if taken == per_object:
                    break
                b = images[near[(start + step) % len(near)]]
                if label not in b.absent:  # also excludes A itself, where X is present
                    dropped["object_not_absent"] += 1
                    continue
                overlap = jaccard(rest, b.present)
                if overlap < min_overlap:
                    dropped["below_overlap"] += 1
                    continue
                found.append(Pair(a, b, label, overlap))
                taken += 1
    return found


def similar_candidates(
    images: Sequence[ImageLabels],
    neighbours: Neighbours,
    min_similarity: float,
    min_overlap: float,
    dropped: Counter[str],
) -> list[Pair]:
    """The pairs that pass all but the per-image cap among each image A's nearest images B.
    ``dropped`` counts ``below_similarity`` (a neighbour too far), and per neighbour near enough
    and object X of A's that B does not show, ``object_not_absent`` (X uncertain or
    unverifiable in B) and ``below_overlap``."""
    found: list[Pair] = []
    for i, a in enumerate(images):
        if not a.present:
            continue
        for j, similarity in zip(neighbours.ids[i], neighbours.similarity[i], strict=True):
            if j < 0:
                break
            if similarity < min_similarity:
                dropped["below_similarity"] += 1
                continue
            b = images[j]
            for label in sorted(a.present - b.present):
                if label not in b.absent:
                    dropped["object_not_absent"] += 1
                    continue
                overlap = jaccard(a.present - {label}, b.present, empty=1.0)
                if overlap < min_overlap:
                    dropped["below_overlap"] += 1
                    continue
                found.append(Pair(a, b, label, overlap, round(float(similarity), DIGITS)))
    return found


def _start(key: str, size: int) -> int:
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % size if size else 0


def capped(pairs: Iterable[Pair], max_per_image: int, dropped: Counter[str]) -> list[Pair]:
    """The pairs in order (most similar, highest overlap, then keys and object), each image in
    at most ``max_per_image`` of them; the rest are counted as ``over_image_cap``."""
    used: Counter[str] = Counter()
    kept = []
    for pair in sorted(pairs, key=Pair.order):
        if used[pair.a.key] >= max_per_image or used[pair.b.key] >= max_per_image:
            dropped["over_image_cap"] += 1
            continue
        used[pair.a.key] += 1
        used[pair.b.key] += 1
        kept.append(pair)
    return kept


def mine(
    images: Sequence[ImageLabels],
    min_overlap: float,
    max_per_image: int,
    similar: tuple[Neighbours, float] | None = None,
) -> tuple[list[Pair], dict[str, int]]:
    """The kept pairs in their published order, and the count of each reason a pair was
    dropped. ``similar``: the images' nearest neighbours and ``min_similarity``, to mine among
    them; None mines from the label sets alone."""
    dropped: Counter[str] = Counter(object_not_absent=0, below_overlap=0, over_image_cap=0)
    if similar is None:
        # A few candidates per image and object leave the cap room to choose among.
        found = candidates(images, min_overlap, dropped, per_object=4 * max_per_image)
    else:
        dropped["below_similarity"] = 0
        neighbours, min_similarity = similar
        found = similar_candidates(images, neighbours, min_similarity, min_overlap, dropped)
    kept = capped(found, max_per_image, dropped)
    return kept, dict(sorted(dropped.items()))


def histogram(values: Iterable[float], bins: int = 10) -> dict[str, int]:
    """Values in [0, 1] per bin of width 1/bins, ``"0.9-1.0"`` the last (1.0 included; a
    negative cosine counts in the first)."""
    counts = [0] * bins
    for value in values:
        counts[max(min(int(value * bins), bins - 1), 0)] += 1
    return {f"{i / bins:.1f}-{(i + 1) / bins:.1f}": n for i, n in enumerate(counts)}
