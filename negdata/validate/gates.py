"""Gates every caption and MCQ passes before publication; a failure names its reason code."""

from __future__ import annotations

import re
from dataclasses import dataclass

from negdata.compose.verify import evidence_verdicts
from negdata.config import Config
from negdata.detect.lexicon import Lexicon
from negdata.records import CaptionRecord, Evidence, McqRecord, Verdict
from negdata.validate.negation import analyze

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
        polarities = analyze(text, self.lexicon)
        if polarities.get(row.negated_label) != "negated":
            return "not_negated"
        verdicts = evidence_verdicts(evidence, self.lexicon, self.cfg.detect)
        for name, pol in polarities.items():
            if pol == "affirmed" and verdicts.get(name) == "absent":
                return "affirms_absent"
            if pol == "negated" and verdicts.get(name) == "present":
                return "negates_present"
        return None


def option_truth(verdicts: dict[str, Verdict], text: str, lexicon: Lexicon) -> bool | None:
    """Whether an MCQ sentence is true of the image: everything it affirms is present and
    everything it negates is absent. ``None`` when it names something the evidence cannot decide."""
    polarities = analyze(text, lexicon)
    if not polarities:
        return None
    truth = True
    for name, pol in polarities.items():
        verdict = verdicts.get(name, "unverifiable")
        if verdict not in ("present", "absent"):
            return None
        truth = truth and (verdict == "present") == (pol == "affirmed")
    return truth


def mcq_gate(mcq: McqRecord, evidence: Evidence, lexicon: Lexicon, cfg: Config) -> str | None:
    options = [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
    if len({_norm(o) for o in options}) != 4:
        return "mcq_duplicate_options"
    if any(re.search(r"\b(none|null|nan)\b|\{|\}|features\s*[.,]", o.lower()) for o in options):
        return "mcq_placeholder"
    verdicts = evidence_verdicts(evidence, lexicon, cfg.detect)
    truths = [option_truth(verdicts, o, lexicon) for o in options]
    if None in truths:
        return "mcq_unverifiable"
    if truths.count(True) != 1 or not truths[mcq.correct_answer]:
        return "mcq_not_one_true"
    return None
