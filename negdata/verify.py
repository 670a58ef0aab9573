"""Check objects against the detector evidence: a name's verdict comes from the labels it covers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from negdata.config import DetectConfig
from negdata.detect.lexicon import Lexicon
from negdata.english import natural
from negdata.records import Evidence, ObjectVerdict, Verdict


def name_verdict(
    name: str, scores: dict[str, float], lexicon: Lexicon, cfg: DetectConfig
) -> tuple[Verdict, float | None]:
    """Present if any covered label scores >= t_present; absent only if *every* label the name
    covers is scored and below t_absent (so "no animal" needs every animal ruled out)."""
    members = lexicon.members(name)
    covered = [scores[m] for m in members if m in scores]
    if not covered:
        return "unverifiable", None
    best = max(covered)
    if best >= cfg.t_present:
        return "present", best
    if len(covered) < len(members):
        return "unverifiable", best
    if best < cfg.t_absent:
        return "absent", best
    return "uncertain", best


def evidence_verdicts(
    evidence: Evidence, lexicon: Lexicon, cfg: DetectConfig
) -> dict[str, Verdict]:
    """The verdict of every label and hypernym of the lexicon for one image."""
    scores = evidence.score_map()
    return {name: name_verdict(name, scores, lexicon, cfg)[0] for name in lexicon.names()}


def verify(
    nouns: Iterable[str], evidence: Evidence, lexicon: Lexicon, cfg: DetectConfig
) -> list[ObjectVerdict]:
    """One verdict per distinct noun; a noun the lexicon cannot resolve is ``unverifiable``."""
    scores = evidence.score_map()
    seen: set[str] = set()
    verdicts = []
    for raw in nouns:
        noun = natural(raw)
        if not noun or noun in seen:
            continue
        seen.add(noun)
        name = lexicon.name(noun)
        verdict, score = (
            name_verdict(name, scores, lexicon, cfg) if name else ("unverifiable", None)
        )
        verdicts.append(ObjectVerdict(noun=noun, label=name, verdict=verdict, score=score))
    return verdicts


def box_counts(evidence: Evidence, cfg: DetectConfig) -> dict[str, int]:
    """Per label with a box at ``t_present``: how many such boxes the source that drew the most
    drew (two sources that see one dog draw two boxes of one dog). A label no box source sees
    at ``t_present`` has no count, whatever an oracle says."""
    per_source = Counter((b.source, b.label) for b in evidence.boxes if b.score >= cfg.t_present)
    found: dict[str, int] = {}
    for (_, label), n in per_source.items():
        found[label] = max(found.get(label, 0), n)
    return found


def present_labels(evidence: Evidence, cfg: DetectConfig) -> list[str]:
    return [s.label for s in evidence.scores if s.score >= cfg.t_present]


def affirmable_labels(evidence: Evidence, cfg: DetectConfig) -> list[str]:
    """Labels the evidence alone may affirm, named by the caption or not: scored at least
    ``t_affirm`` by a source, and at least ``t_present`` by every source that covers them."""
    return [
        s.label
        for s in evidence.scores
        if s.score >= cfg.t_affirm and (s.lowest is None or s.lowest >= cfg.t_present)
    ]


def absent_labels(evidence: Evidence, cfg: DetectConfig) -> list[str]:
    return [s.label for s in evidence.scores if s.score < cfg.t_absent]
