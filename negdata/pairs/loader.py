"""Training on NegPairs with both images of a pair in one batch.

A contrastive loss learns a pair's difference only when both images are in the batch: each
caption must then beat the look-alike image, not only unrelated ones. open_clip's WebDataset
loader shuffles samples in a buffer of thousands, which parts a pair's two adjacent samples.
``pairs_together`` shuffles whole pairs instead: a stage for a ``webdataset`` pipeline, placed
where open_clip shuffles samples. Every batch of an even size then holds both images of each
pair it holds (docs/outputs.md has the recipe)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

Sample = dict[str, Any]


def _pair_of(sample: Sample) -> str:
    key: str = sample["__key__"]
    pair, _, side = key.rpartition("_")
    if side not in ("a", "b") or not pair:
        raise ValueError(f"{key}: not a NegPairs sample (keys are {{pair_id}}_a, {{pair_id}}_b)")
    return pair


def _units(samples: Iterable[Sample]) -> Iterator[list[Sample]]:
    """Consecutive samples of one pair, A then B, as one unit; an error for a lone side."""
    unit: list[Sample] = []
    for sample in samples:
        pair = _pair_of(sample)
        if unit and _pair_of(unit[0]) != pair:
            raise ValueError(f"{unit[0]['__key__']}: its pair's other side does not follow it")
        unit.append(sample)
        if len(unit) == 2:
            yield unit
            unit = []
    if unit:
        raise ValueError(f"{unit[0]['__key__']}: its pair's other side does not follow it")


def pairs_together(
    buffer: int = 1000, seed: int = 0
) -> Callable[[Iterable[Sample]], Iterator[Sample]]:
    """A pipeline stage that shuffles pairs, ``buffer`` of them at a time (seeded), and passes
    each on as its two samples, A then B."""

    def stage(samples: Iterable[Sample]) -> Iterator[Sample]:
        rng = random.Random(seed)
        held: list[list[Sample]] = []
        for unit in _units(samples):
            if len(held) < buffer:
                held.append(unit)
                continue
            index = rng.randrange(len(held))
            held[index], unit = unit, held[index]
            yield from unit
        rng.shuffle(held)
        for unit in held:
            yield from unit

    return stage
