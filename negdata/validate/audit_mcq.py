"""Would a false or nonsense question be published? The MCQ half of ``make audit-truth``.

Each labelled question (``tests/data/mcq_paraphrase.jsonl``) goes through the real ``mcq_gate``,
with evidence built from its image's objects: every label of the vocabulary scored, the present
ones with their boxes (``"present": {"dog": 2}``). Each option is labelled ``true``, ``false``
or ``nonsense`` against those objects. A question is *good* when its keyed option is true and
every other option false; any other question (two true options, a wrong key, a nonsense option)
is *bad*, and a gate that publishes it publishes a false or nonsense statement.

Per set: bad questions published per 1,000 bad ones, the share of good ones published (yield),
and why good ones were refused. Each good question is also asked again with the words of one
distractor shuffled (seeded by its id), as a garbled generation writes them: such a question
is bad, and *salad* is how many of them are published per 1,000.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from negdata.detect.lexicon import lexicon_for
from negdata.detect.vocab import VocabularyName
from negdata.records import Evidence, McqRecord, known_evidence
from negdata.validate.audit_common import audit_config, figure
from negdata.validate.gates import mcq_gate


@dataclass
class McqAudit:
    """One set's tally."""

    name: str
    tuned: bool
    good: int = 0
    good_published: int = 0
    bad: int = 0
    bad_published: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # reasons, good questions
    salad_published: int = 0  # good questions with a distractor's words shuffled

    @property
    def yield_(self) -> float | None:
        return self.good_published / self.good if self.good else None

    @property
    def bad_per_1000(self) -> float | None:
        return 1000 * self.bad_published / self.bad if self.bad else None


def image_evidence(key: str, present: dict[str, int], vocabulary: VocabularyName) -> Evidence:
    """Evidence that covers every label: the present ones with ``present[label]`` boxes."""
    return known_evidence(key, present, lexicon_for(vocabulary).vocabulary, "labels")


def _question(case: dict[str, object]) -> McqRecord:
    options: list[str] = case["options"]  # type: ignore[assignment]
    return McqRecord(
        key=str(case["id"]),
        image_key=str(case["id"]),
        caption_0=options[0],
        caption_1=options[1],
        caption_2=options[2],
        caption_3=options[3],
        correct_answer=int(case["answer"]),  # type: ignore[call-overload]
        correct_answer_template="hybrid",
        positives=[],
        negative="",
        config_hash="audit",
    )


def audit_mcqs(name: str, path: Path, vocabulary: VocabularyName, tuned: bool) -> McqAudit:
    cfg = audit_config(vocabulary)
    lexicon = lexicon_for(vocabulary)
    found = McqAudit(name, tuned)
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        truth: list[str] = case["truth"]
        answer = int(case["answer"])
        good = truth[answer] == "true" and all(
            t == "false" for i, t in enumerate(truth) if i != answer
        )
        evidence = image_evidence(case["id"], case["present"], vocabulary)
        reason = mcq_gate(_question(case), evidence, lexicon, cfg)
        if good:
            found.good += 1
            found.good_published += reason is None
            if reason is not None:
                found.refused[reason] += 1
            salad = _shuffled(case, answer)
            found.salad_published += mcq_gate(_question(salad), evidence, lexicon, cfg) is None
        else:
            found.bad += 1
            found.bad_published += reason is None
    return found


def _shuffled(case: dict[str, object], answer: int) -> dict[str, object]:
    """``case`` with the words of its first distractor in a random order (seeded by its id)."""
    options = list(case["options"])  # type: ignore[call-overload]
    at = 1 if answer == 0 else 0
    words = options[at].rstrip(".!?").split()
    random.Random(str(case["id"])).shuffle(words)
    options[at] = " ".join(words).capitalize() + "."
    return {**case, "options": options}


def report(audits: list[McqAudit]) -> str:
    lines = [f"{'MCQ set':<10}{'tuned':<7}{'good':>6}{'yield':>7}{'bad':>6}{'published':>10}"
             f"{'per 1,000':>10}{'salad':>7}"]  # fmt: skip
    for a in audits:
        salad = 1000 * a.salad_published / a.good if a.good else None
        lines.append(
            f"{a.name:<10}{'yes' if a.tuned else 'never':<7}{a.good:>6}{figure(a.yield_, 3):>7}"
            f"{a.bad:>6}{a.bad_published:>10}{figure(a.bad_per_1000, 2):>10}"
            f"{figure(salad, 0):>7}"
        )
    for a in audits:
        reasons = ", ".join(f"{r} {n}" for r, n in a.refused.most_common(6))
        lines.append(f"{a.name}: good questions refused: {reasons or 'none'}")
    return "\n".join(lines)
