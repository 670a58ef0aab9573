"""Per image, the two label sets pair mining needs, read from the detect stage's evidence."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from negdata.config import DetectConfig
from negdata.detect.lexicon import run_lexicon
from negdata.detect.vocab import VocabularyName
from negdata.records import Evidence, flat, iter_parquet
from negdata.shards import Location, shard_name
from negdata.verify import affirmable_labels, name_verdict


@dataclass(frozen=True)
class ImageLabels:
    """An image's verified objects: ``present``, the labels the evidence alone affirms
    (``detect.t_affirm``); ``absent``, the labels verified absent, every label each covers in
    the lexicon's hierarchy included (``verify.name_verdict``)."""

    key: str
    shard: int
    present: frozenset[str]
    absent: frozenset[str]


class Interned:
    """One frozenset per distinct label set: a run's images share a few thousand of them, so
    holding every image's sets costs little more than its key."""

    def __init__(self) -> None:
        self._sets: dict[frozenset[str], frozenset[str]] = {}

    def __call__(self, labels: frozenset[str]) -> frozenset[str]:
        return self._sets.setdefault(labels, labels)


def image_labels(
    evidence: Evidence,
    shard: int,
    vocabulary: VocabularyName,
    cfg: DetectConfig,
    interned: Interned | None = None,
) -> ImageLabels:
    """An object is absent only where the evidence says so: a label no source scores, or one
    scored between ``t_absent`` and ``t_present`` (uncertain), is in neither set."""
    intern = interned or Interned()
    lexicon = run_lexicon(vocabulary, [evidence])
    scores = evidence.score_map()
    absent = {
        label
        for label in scores  # a label no source scores is unverifiable, never absent
        if name_verdict(label, scores, lexicon, cfg)[0] == "absent"
    }
    return ImageLabels(
        key=evidence.key,
        shard=shard,
        present=intern(frozenset(affirmable_labels(evidence, cfg))),
        absent=intern(frozenset(absent)),
    )


def read_labels(
    evidence_dir: Location, shards: list[int], vocabulary: VocabularyName, cfg: DetectConfig
) -> Iterator[ImageLabels]:
    """Every image's labels, shard by shard, a Parquet row group at a time: only the label
    sets are kept, never the evidence."""
    interned = Interned()
    for shard in shards:
        path = evidence_dir / f"{shard_name(shard)}.parquet"
        for evidence in flat(iter_parquet(path, Evidence)):
            yield image_labels(evidence, shard, vocabulary, cfg, interned)
