"""``make audit-truth``: true captions through the real gate, and each with a label flipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from negdata.validate.audit import audit_set, report
from negdata.validate.audit_exclusive import audit_exclusive
from negdata.validate.audit_exclusive import report as exclusive_report
from negdata.validate.audit_mcq import audit_mcqs
from negdata.validate.audit_mcq import report as mcq_report


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
    assert lines[1].split() == ["mine", "never", "2", "1.000", "-", "0.000", "4", "0", "0.00"]


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


def test_a_stated_count_is_backed_by_boxes_and_one_more_box_makes_it_false(
    tmp_path: Path,
) -> None:
    """ "counts": {"dog": 2}: the true evidence has two dog boxes, and one flip a third."""
    text = "Two dogs play on the grass; there is no cat."
    case = {"id": "z", "construction": "count", "text": text, "counts": {"dog": 2},
            "objects": {"dog": "affirmed", "cat": "negated"}}  # fmt: skip
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(case) + "\n")

    found = audit_set("mine", path, "coco", tuned=False)

    assert found.published["explicit"] == 1  # two boxes back "two dogs"
    assert found.false == 3  # the dogs absent, the cat present, a third dog
    assert found.false_published == 0


def test_a_count_of_zero_is_flipped_by_the_object_made_present_only(tmp_path: Path) -> None:
    """ "4 mugs, 0 spoons": one more box of a label the caption does not affirm leaves the photo
    as it was, so it is no flip; the spoon made present is the one that makes it false."""
    text = "4 mugs on the counter, 0 spoons."
    case = {"id": "z", "construction": "count", "text": text, "counts": {"cup": 4, "spoon": 0},
            "objects": {"cup": "affirmed", "spoon": "negated"}}  # fmt: skip
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(case) + "\n")

    found = audit_set("mine", path, "coco", tuned=False)

    assert found.published["explicit"] == 1
    assert found.false == 3  # the mugs absent, a spoon present, a fifth mug
    assert found.false_published == 0


def _written(path: Path, case: dict[str, object]) -> Path:
    path.write_text(json.dumps(case) + "\n")
    return path


@pytest.mark.parametrize(
    ("text", "field", "value", "objects", "without"),
    [
        # "a few birds": three boxes back it, and a fourth makes it no less true
        ("A few birds sit on the fence, and there is no cat.", "amounts", {"bird": 3},
         {"bird": "affirmed", "cat": "negated"}, "count_unverified"),
        # the surfer's board is in the photo, though no word names its label
        ("A surfer rides a wave, and there are no boats.", "also_present", ["surfboard"],
         {"person": "affirmed", "boat": "negated"}, "affirms_absent"),
    ],
)  # fmt: skip
def test_what_a_true_photo_shows_beyond_the_labels_backs_it_and_is_never_flipped(
    tmp_path: Path, text: str, field: str, value: object, objects: dict[str, str], without: str
) -> None:
    case = {"id": "z", "construction": "plain", "text": text, field: value, "objects": objects}

    found = audit_set("mine", _written(tmp_path / "set.jsonl", case), "coco", tuned=False)

    assert found.published["explicit"] == 1
    assert found.false == 2  # the affirmed object absent, the negated one present
    assert found.false_published == 0
    bare = _written(tmp_path / "bare.jsonl", {**case, field: type(value)()})
    assert audit_set("mine", bare, "coco", tuned=False).refused == {without: 1}


def test_a_question_publishes_only_when_its_key_is_the_one_true_option(tmp_path: Path) -> None:
    """Good questions publish; one with a nonsense option, one with two true options and one
    keyed to a false option are bad, and each is refused; so is a good one whose distractor's
    words are shuffled."""
    present = {"dog": 1, "frisbee": 1}
    options = [
        "A dog catches a frisbee, and there is no person.",
        "A person throws a frisbee, and there is no dog.",
        "A dog sits alone, with no frisbee anywhere.",
        "A cat chases a frisbee, but there is no dog.",
    ]
    cases = [
        {"id": "good", "present": present, "options": options, "answer": 0,
         "truth": ["true", "false", "false", "false"], "kind": "good"},
        {"id": "key", "present": present, "options": options, "answer": 1,
         "truth": ["true", "false", "false", "false"], "kind": "key_wrong"},
        {"id": "two", "present": present,
         "options": [*options[:3], "A dog and a frisbee, and no cat."], "answer": 0,
         "truth": ["true", "false", "false", "true"], "kind": "two_true"},
        {"id": "lion", "present": present,
         "options": [*options[:3], "The dog is a lion."], "answer": 0,
         "truth": ["true", "false", "false", "nonsense"], "kind": "nonsense"},
    ]  # fmt: skip
    path = tmp_path / "mcq.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases))

    found = audit_mcqs("mine", path, "coco", tuned=False)

    assert (found.good, found.good_published) == (1, 1)
    assert (found.bad, found.bad_published) == (3, 0)
    # the good question asked again with a distractor's words shuffled ("Frisbee, is there dog
    # person no throws a and a."): refused
    assert found.salad_published == 0
    assert mcq_report([found]).splitlines()[1].split() == [
        "mine",
        "never",
        "1",
        "1.000",
        "3",
        "0",
        "0.00",
        "0",
    ]


def test_a_caption_naming_what_nothing_checks_is_counted_apart(tmp_path: Path) -> None:
    """ "A lamp" is no label and the audit's captions have no original caption: such a caption
    is refused (``unaccounted_noun``), and its yield is reported apart."""
    case = {"id": "l", "construction": "plain", "text": "A red bus waits by a lamp, but there "
            "is no dog.", "objects": {"bus": "affirmed", "dog": "negated"}}  # fmt: skip
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(case) + "\n")

    found = audit_set("mine", path, "coco", tuned=False)

    assert found.true == {"unchecked": 1} and found.published["unchecked"] == 0
    assert found.refused == {"unaccounted_noun": 1}
    assert report([found]).splitlines()[1].split()[3:6] == ["-", "0.000", "-"]


def test_a_kind_affirmed_with_none_of_its_labels_shown_is_counted_apart(tmp_path: Path) -> None:
    """ "A chef slices vegetables": onions, perhaps, which no label checks. Such a caption is
    refused unless the original caption says so (``affirms_unverified``), and counted apart;
    where the labels show one of the kind, it is checked as any other."""
    cases = [
        {"id": "v", "construction": "plain", "text": "A chef slices vegetables, and there is no "
         "microwave.", "objects": {"person": "affirmed", "microwave": "negated"}},
        {"id": "w", "construction": "plain", "text": "A chef slices vegetables, and there is no "
         "microwave.", "objects": {"person": "affirmed", "carrot": "affirmed",
                                   "microwave": "negated"}},
    ]  # fmt: skip
    path = tmp_path / "set.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases))

    found = audit_set("mine", path, "coco", tuned=False)

    assert found.true == {"unchecked": 1, "explicit": 1}
    assert found.published == {"unchecked": 0, "explicit": 1}
    assert found.refused == {"affirms_unverified": 1}
    assert found.false_published == 0


def test_exclusive_claims_found_and_false_alarms_are_counted(tmp_path: Path) -> None:
    said = [
        ("Nothing on the counter save for a microwave; no toaster.", True),
        ("A mug of cocoa and that's the entire picture. No spoon.", True),
        ("A cup beside a lamp, with no spoon.", True),
        ("The view alone is worth the trip: a dog on the lawn and no cats.", False),
        ("Two dogs on the lawn, no cats.", False),
    ]
    lines = [{"id": f"x{i}", "text": t, "exclusive": e} for i, (t, e) in enumerate(said)]
    path = tmp_path / "x.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    found = audit_exclusive("x", path, tuned=False)
    assert (found.claims, found.found, found.others, found.false_alarms) == (3, 2, 2, 1)
    assert exclusive_report([found]).splitlines()[1].split() == [
        "x", "never", "3", "0.667", "2", "0.500"
    ]  # fmt: skip
