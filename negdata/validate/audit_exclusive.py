"""How well ``exclusivity.exclusive`` finds a claim that nothing else is there, on sentences written
to make one ("nothing on the counter save for a microwave") or only to look as if they did ("the
only dog in the park is a beagle"). A claim missed is a false statement waiting for an object it
leaves out; a false alarm costs a true caption where something unnamed is there."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from negdata.detect.lexicon import lexicon_for
from negdata.validate.audit_common import figure
from negdata.validate.exclusivity import exclusive

# name -> (file under tests/data, tuned on): the words were added reading "exclusive" and
# "exclusive2"; the "-x" sets were never read.
EXCLUSIVE_SETS: dict[str, tuple[str, bool]] = {
    "exclusive": ("exclusive_dev.jsonl", True),
    "exclusive-x": ("exclusive_test.jsonl", False),
    "exclusive2": ("exclusive_dev2.jsonl", True),
    "exclusive2-x": ("exclusive_test2.jsonl", False),
    "exclusive3-x": ("exclusive_test3.jsonl", False),
    "exclusive3": ("exclusive_dev3.jsonl", True),
    "exclusive4-x": ("exclusive_test4.jsonl", False),
    "exclusive4": ("exclusive_dev4.jsonl", True),
    "exclusive5-x": ("exclusive_test5.jsonl", False),
    "exclusive5": ("exclusive_dev5.jsonl", True),
    "exclusive6-x": ("exclusive_test6.jsonl", False),
    "exclusive6": ("exclusive_dev6.jsonl", True),
    "exclusive7-x": ("exclusive_test7.jsonl", False),
    "exclusive8-x": ("exclusive_test8.jsonl", False),
    "exclusive9-x": ("exclusive_test9.jsonl", False),
    "exclusive7": ("exclusive_dev7.jsonl", True),
    "exclusive10-x": ("exclusive_test10.jsonl", False),
    "exclusive8": ("exclusive_dev8.jsonl", True),
    "exclusive11-x": ("exclusive_test11.jsonl", False),
    "exclusive9": ("exclusive_dev9.jsonl", True),
    "exclusive12-x": ("exclusive_test12.jsonl", False),
    "exclusive13-x": ("exclusive_test13.jsonl", False),
    "exclusive14-x": ("exclusive_test14.jsonl", False),
    "exclusive15-x": ("exclusive_test15.jsonl", False),
    "exclusive16-x": ("exclusive_test16.jsonl", False),
    "exclusive17-x": ("exclusive_test17.jsonl", False),
    "exclusive18-x": ("exclusive_test18.jsonl", False),
    "exclusive19-x": ("exclusive_test19.jsonl", False),
    "exclusive20-x": ("exclusive_test20.jsonl", False),
    "exclusive10": ("exclusive_dev10.jsonl", True),
    "exclusive11": ("exclusive_dev11.jsonl", True),
    "exclusive12": ("exclusive_dev12.jsonl", True),
    "exclusive13": ("exclusive_dev13.jsonl", True),
    "exclusive14": ("exclusive_dev14.jsonl", True),
    "exclusive15": ("exclusive_dev15.jsonl", True),
    "exclusive16": ("exclusive_dev16.jsonl", True),
    "exclusive17": ("exclusive_dev17.jsonl", True),
    "exclusive18": ("exclusive_dev18.jsonl", True),
    "exclusive21-x": ("exclusive_test21.jsonl", False),
    "exclusive22-x": ("exclusive_test22.jsonl", False),
    "exclusive23-x": ("exclusive_test23.jsonl", False),
    "exclusive24-x": ("exclusive_test24.jsonl", False),
    "exclusive25-x": ("exclusive_test25.jsonl", False),
    "exclusive26-x": ("exclusive_test26.jsonl", False),
    "exclusive27-x": ("exclusive_test27.jsonl", False),
    "exclusive28-x": ("exclusive_test28.jsonl", False),
    "exclusive29-x": ("exclusive_test29.jsonl", False),
    "exclusive30-x": ("exclusive_test30.jsonl", False),
    "exclusive19": ("exclusive_dev19.jsonl", True),
    "exclusive20": ("exclusive_dev20.jsonl", True),
    "exclusive21": ("exclusive_dev21.jsonl", True),
    "exclusive22": ("exclusive_dev22.jsonl", True),
    "exclusive23": ("exclusive_dev23.jsonl", True),
    "exclusive24": ("exclusive_dev24.jsonl", True),
    "exclusive25": ("exclusive_dev25.jsonl", True),
    "exclusive26": ("exclusive_dev26.jsonl", True),
    "exclusive27": ("exclusive_dev27.jsonl", True),
}


@dataclass(frozen=True)
class ExclusiveAudit:
    name: str
    tuned: bool
    claims: int  # sentences that claim it
    found: int  # of those, read as claiming it
    others: int  # sentences that do not
    false_alarms: int  # of those, read as claiming it


def audit_exclusive(name: str, path: Path, tuned: bool) -> ExclusiveAudit:
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    lexicon = lexicon_for("coco")
    said = [(bool(c["exclusive"]), exclusive(c["text"], lexicon)) for c in cases]
    return ExclusiveAudit(
        name,
        tuned,
        claims=sum(truth for truth, _ in said),
        found=sum(truth and read for truth, read in said),
        others=sum(not truth for truth, _ in said),
        false_alarms=sum(read and not truth for truth, read in said),
    )


def report(audits: list[ExclusiveAudit]) -> str:
    lines = [f"{'exclusive':<14}{'tuned':<7}{'claims':>7}{'recall':>8}{'others':>8}{'alarms':>8}"]
    for a in audits:
        recall = a.found / a.claims if a.claims else None
        alarms = a.false_alarms / a.others if a.others else None
        lines.append(
            f"{a.name:<14}{'yes' if a.tuned else 'never':<7}{a.claims:>7}{figure(recall):>8}"
            f"{a.others:>8}{figure(alarms):>8}"
        )
    return "\n".join(lines)
