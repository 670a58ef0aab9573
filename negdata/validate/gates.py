"""Gates every caption and MCQ passes before publication; a failure names its reason code."""

from __future__ import annotations

import re
from dataclasses import dataclass

from negdata.compose.verify import absent_labels, present_labels
from negdata.config import Config
from negdata.detect.vocab import Lexicon
from negdata.records import CaptionRecord, Evidence, McqRecord
from negdata.validate.negation import polarity

_RESIDUE = re.compile(
    r"(caption\s*:|negat\w*\s*:|^\s*(sure|here is|here's|certainly)\b|[{}\[\]\"`]|\bjson\b|"
    r"\bstyle\b|affirmation_first|negation_first)",
    re.IGNORECASE,
)


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass(frozen=True)
class CaptionGate:
    """Checks one caption against its image's evidence."""

    cfg: Config
    lexicon: Lexicon

    def check(self, row: CaptionRecord, evidence: Evidence) -> str | None:
        """``None`` when the caption passes, else the reason code of the first failed gate."""
        text = row.caption
        if _RESIDUE.search(text):
            return "prompt_residue"
        if not 10 <= len(text) <= self.cfg.compose.max_caption_chars:
            return "length"
        if _norm(text) == _norm(row.original_caption):
            return "copy_of_original"
        if polarity(text, self.lexicon.terms(row.negated_label)) != "negated":
            return "not_negated"
        for label in absent_labels(evidence, self.cfg.detect):
            if polarity(text, self.lexicon.terms(label)) == "affirmed":
                return "affirms_absent"
        for label in present_labels(evidence, self.cfg.detect):
            if polarity(text, self.lexicon.terms(label)) == "negated":
                return "negates_present"
        return None


def option_truth(text: str, evidence: Evidence, lexicon: Lexicon, cfg: Config) -> bool | None:
    """Whether an MCQ sentence is true of the image: every affirmed object present, every negated
    one absent. ``None`` when it names an object the evidence cannot decide."""
    present = set(present_labels(evidence, cfg.detect))
    absent = set(absent_labels(evidence, cfg.detect))
    decided = False
    for label in present | absent:
        pol = polarity(text, lexicon.terms(label))
        if pol == "unmentioned":
            continue
        decided = True
        if (pol == "affirmed") != (label in present):
            return False
    return True if decided else None


def mcq_gate(mcq: McqRecord, evidence: Evidence, lexicon: Lexicon, cfg: Config) -> str | None:
    options = [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
    if len({_norm(o) for o in options}) != 4:
        return "mcq_duplicate_options"
    if any(re.search(r"\b(none|null|nan)\b|\{|\}|features\s*[.,]", o.lower()) for o in options):
        return "mcq_placeholder"
    truths = [option_truth(o, evidence, lexicon, cfg) for o in options]
    if None in truths:
        return "mcq_unverifiable"
    if truths.count(True) != 1 or not truths[mcq.correct_answer]:
        return "mcq_not_one_true"
    return None
