"""Check the LLM's free-text objects against the detector evidence through the lexicon."""

from __future__ import annotations

from collections.abc import Iterable

from negdata.config import DetectConfig
from negdata.detect.vocab import Lexicon
from negdata.records import Evidence, ObjectVerdict, Verdict


def verdict(score: float | None, cfg: DetectConfig) -> Verdict:
    if score is None:
        return "unverifiable"
    if score >= cfg.t_present:
        return "present"
    if score < cfg.t_absent:
        return "absent"
    return "uncertain"


def verify(
    nouns: Iterable[str], evidence: Evidence, lexicon: Lexicon, cfg: DetectConfig
) -> list[ObjectVerdict]:
    """One verdict per distinct noun; a noun no source covers is ``unverifiable``."""
    scores = evidence.score_map()
    seen: set[str] = set()
    verdicts = []
    for raw in nouns:
        noun = raw.strip().lower()
        if not noun or noun in seen:
            continue
        seen.add(noun)
        label = lexicon.label(noun)
        score = scores.get(label) if label is not None else None
        verdicts.append(
            ObjectVerdict(noun=noun, label=label, verdict=verdict(score, cfg), score=score)
        )
    return verdicts


def present_labels(evidence: Evidence, cfg: DetectConfig) -> list[str]:
    return [s.label for s in evidence.scores if s.score >= cfg.t_present]


def absent_labels(evidence: Evidence, cfg: DetectConfig) -> list[str]:
    return [s.label for s in evidence.scores if s.score < cfg.t_absent]
