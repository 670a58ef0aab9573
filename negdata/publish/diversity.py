"""How varied the published captions are, per generator and style: distinct-n and frame reuse.

distinct-n is the share of a group's word n-grams that are unique. A caption's *frame* is its
text with the objects it negates and affirms replaced by a placeholder ("there is no <obj> in
this photo of a <obj>"); frame reuse is the share of captions whose frame another caption of the
group also uses. Templates reuse frames by design; an LLM that only fills slots would too.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from negdata.records import CaptionRecord

WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
NGRAMS = (1, 2, 3)
PLACEHOLDER = "<obj>"


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def distinct_n(texts: Iterable[list[str]], n: int) -> float | None:
    """Unique n-grams over all n-grams of the tokenised ``texts``; None when there are none."""
    grams: Counter[tuple[str, ...]] = Counter()
    for tokens in texts:
        grams.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    total = sum(grams.values())
    return len(grams) / total if total else None


def frame(record: CaptionRecord) -> str:
    """The caption with every negated or affirmed object (singular or plural) as a placeholder."""
    text = " ".join(words(record.caption))
    objects = {" ".join(words(noun)) for noun in (record.negated, *record.affirmed)} - {""}
    for phrase in sorted(objects, key=lambda p: (-len(p), p)):  # "hot dog" before "dog"
        text = re.sub(rf"\b{re.escape(phrase)}(?:e?s)?\b", PLACEHOLDER, text)
    return text


def frame_reuse(records: list[CaptionRecord]) -> float | None:
    counts = Counter(frame(r) for r in records)
    return sum(c for c in counts.values() if c > 1) / len(records) if records else None


def diversity(records: Iterable[CaptionRecord]) -> dict[str, dict[str, Any]]:
    """``{"llm/affirmation_first": {"captions": .., "distinct_1": .., .., "frame_reuse": ..}}``."""
    groups: defaultdict[str, list[CaptionRecord]] = defaultdict(list)
    for record in records:
        groups[f"{record.generator}/{record.style}"].append(record)
    report: dict[str, dict[str, Any]] = {}
    for name, group in sorted(groups.items()):
        tokens = [words(r.caption) for r in group]
        report[name] = {
            "captions": len(group),
            **{f"distinct_{n}": _round(distinct_n(tokens, n)) for n in NGRAMS},
            "frame_reuse": _round(frame_reuse(group)),
        }
    return report


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
