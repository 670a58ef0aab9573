"""``make audit-truth``: true captions through the real gate, and each with a label flipped."""

from __future__ import annotations

import json
from pathlib import Path

from negdata.validate.audit import audit_set, report


def test_a_true_caption_publishes_and_every_flip_of_it_is_refused(tmp_path: Path) -> None:
    cases = [
        {"id": "a", "construction": "plain", "text": "A red bus waits at the stop, but there is "
         "no dog.", "objects": {"bus": "affirmed", "dog": "negated", "cat": "unmentioned"}},
        {"id": "b", "construction": "implicit", "text": "The kennel stands empty by the bus.",
         "objects": {"dog": "negated", "bus": "affirmed"}},
        {"id": "c", "construction": "plain", "text": "A red bus on the street.",
         "objects": {"bus": "affirmed"}},  # negates nothing: no negated caption to audit
    ]  # fmt: skip
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases))

    found = audit_set("mine", path, "coco", tuned=False)

    assert found.true == {"explicit": 1, "implicit": 1}
    assert found.published["explicit"] == 1  # the plain negation publishes
    assert found.published["implicit"] == 0  # world knowledge: refused, and counted
    assert found.refused == {"not_negated": 1}
    assert found.false == 4  # per negated caption: the bus made absent, the dog made present
    assert found.false_published == 0
    assert found.false_per_1000 == 0.0
    lines = report([found]).splitlines()
    assert lines[1].split() == ["mine", "never", "2", "1.000", "0.000", "4", "0", "0.00"]


def test_an_exclusive_caption_is_also_false_when_an_unmentioned_object_is_there(
    tmp_path: Path,
) -> None:
    """ "Only a cat": a dog, a bed or anything else present makes it false, so the audit flips
    each unmentioned object to present too; a caption that claims no exclusivity is not made
    false by an object it does not mention."""
    text = "Only a cat sleeps on the couch; there is no dog."
    objects = {"cat": "affirmed", "couch": "affirmed", "dog": "negated", "bed": "unmentioned"}
    path = tmp_path / "set.jsonl"
    path.write_text(
        json.dumps({"id": "x", "construction": "exclusive", "text": text, "objects": objects,
                    "exclusive": True}) + "\n"
        + json.dumps({"id": "y", "construction": "plain", "text": "A cat sleeps on the couch; "
                      "there is no dog.", "objects": objects}) + "\n"
    )  # fmt: skip

    found = audit_set("mine", path, "coco", tuned=False)

    assert found.true == {"explicit": 2} and found.published["explicit"] == 2
    assert found.false == 4 + 3  # x: cat, couch absent; dog, bed present. y: no bed flip
    assert found.false_published == 0  # "only" with the bed there is refused
