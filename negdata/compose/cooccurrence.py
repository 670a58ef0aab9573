"""Which absent objects are plausible negatives: how often each label is present together with
what this image shows, counted over the shard's own evidence, and, where the shard has not seen
them together, whether COCO files them under the same or a related supercategory.

NegBench negates objects that could be in the picture ("no fork" beside a pizza); a random
absent label ("no elephant" in a kitchen) is true but teaches a model little. A shard of
CC12M holds 10,000 images, enough to count which labels keep company; a small shard, or a rare
label, falls back on COCO's supercategories (``coco_supercategories.yaml``, with its source).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from itertools import permutations
from pathlib import Path

import yaml

from negdata.config import DetectConfig
from negdata.detect.vocab import VocabularyName
from negdata.records import Evidence
from negdata.verify import present_labels


@dataclass(frozen=True)
class Cooccurrence:
    """Images each label is present in, and each ordered pair of labels present together."""

    seen: Counter[str] = field(default_factory=Counter)
    together: Counter[tuple[str, str]] = field(default_factory=Counter)

    @classmethod
    def of(cls, evidence: Iterable[Evidence], cfg: DetectConfig) -> Cooccurrence:
        seen: Counter[str] = Counter()
        together: Counter[tuple[str, str]] = Counter()
        for ev in evidence:
            present = sorted(set(present_labels(ev, cfg)))
            seen.update(present)
            together.update(permutations(present, 2))
        return cls(seen, together)

    def plausibility(self, label: str, present: Iterable[str]) -> float:
        """How often ``label`` is present where each of ``present`` is, summed over them: 0
        when it was never seen with any of them."""
        return sum(self.together[(p, label)] / self.seen[p] for p in present if self.seen[p])


SUPERCATEGORIES_FILE = Path(__file__).with_name("coco_supercategories.yaml")


@cache
def _supercategories() -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """COCO label -> its supercategory, and supercategory -> the related ones."""
    data = yaml.safe_load(SUPERCATEGORIES_FILE.read_text())
    of = {label: group for group, labels in data["supercategories"].items() for label in labels}
    related = {group: frozenset(others) for group, others in data["related"].items()}
    return of, related


def kinship(label: str, present: Iterable[str], vocabulary: VocabularyName) -> int:
    """2 for each object of ``present`` in ``label``'s COCO supercategory, 1 for each in a related
    one; 0 outside the COCO vocabulary."""
    if vocabulary != "coco":
        return 0
    of, related = _supercategories()
    group = of.get(label)
    score = 0
    for p in present:
        other = of.get(p)
        if other is None or group is None:
            continue
        score += 2 if other == group else int(other in related.get(group, frozenset()))
    return score
