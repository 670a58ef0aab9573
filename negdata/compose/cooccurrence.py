"""Which absent objects are plausible negatives: how often each label is present together with
what this image shows, counted over the shard's own evidence.

NegBench negates objects that could be in the picture ("no fork" beside a pizza); a random
absent label ("no elephant" in a kitchen) is true but teaches a model little. A shard of
CC12M holds 10,000 images, enough to count which labels keep company.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import permutations

from negdata.config import DetectConfig
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
