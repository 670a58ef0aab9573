"""Caption and MCQ gates: each with a passing and a failing case."""

from __future__ import annotations

import pytest

from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.config import Config
from negdata.detect.lexicon import lexicon_for
from negdata.publish.stage import select_captions
from negdata.records import Box, CaptionRecord, Evidence, LabelScore
from negdata.validate.gates import CaptionGate, mcq_gate, option_truth
from negdata.validate.negation.denials import unread_double_negation

CFG = Config.model_validate(
    {
        "input": {"path": "unused.tsv"},
        "detect": {"sources": [{"kind": "labels", "path": "unused.json"}]},
    }
)
EV = Evidence(
    key="k",
    boxes=[],
    scores=[
        LabelScore(label="bus", score=0.95),
        LabelScore(label="person", score=0.9),
        LabelScore(label="dog", score=0.0),
        LabelScore(label="cat", score=0.01),
        LabelScore(label="bicycle", score=0.3),
    ],
    sources=["t"],
)
GATE = CaptionGate(CFG, lexicon_for("coco"))


def _caption(text: str, generator: str = "llm", negated: str = "dog") -> CaptionRecord:
    return CaptionRecord(
        key="k_0",
        image_key="k",
        caption=text,
        negated=negated,
        negated_label=negated,
        style="affirmation_first",
        generator=generator,  # type: ignore[arg-type]
        original_caption="A red bus with people on a street.",
        affirmed=["bus"],
        prompt=None,
        model=None,
        config_hash="h",
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("A red bus waits at the stop, but there is no dog.", None),
        ("There is no dog here; people board a red bus.", None),
        ("A red bus waits at the stop next to a dog.", "not_negated"),
        ("A red bus waits at the stop with a cat, but no dog.", "affirms_absent"),
        ("Red bus the; people board is was, dog no.", "garbled"),
        ("A red bus, and nobody would deny that there is no dog.", "double_negation"),
        ("A red bus; not a window on this street is without a flag, no dog.", "double_negation"),
        # a denial of what is left empty: every seat taken, every passenger carrying something
        ("Not a single seat on the red bus is unoccupied, and no dog.", "double_negation"),
        (
            "Not one of the people boarding the red bus came empty-handed; no dog.",
            "double_negation",
        ),
        ("People board a red bus that is empty of dogs, and there is no dog.", None),
        ("Hardly a seat on the red bus was unoccupied, and no dog.", "double_negation"),
        ("There isn't a seat on the red bus that's empty, and no dog.", "double_negation"),
        ("It wouldn't be a bus stop without a red bus waiting, and no dog.", "double_negation"),
        ("There's no pretending the red bus isn't full of people; no dog.", "double_negation"),
        ("Hardly a seat on the red bus is empty, and yet no dog.", "double_negation"),
        # a denial of going: every one still there
        ("Not one person has left the platform, the red bus waits, and no dog.", "double_negation"),
        ("The red bus is not short of people, nor of bicycles, and no dog.", "double_negation"),
        ("Nowhere on the red bus is there not a person, and no dog.", "double_negation"),
        # a denial of a state: none there to most authors, every one shut to some
        ("Not one window on the red bus is open, and no dog.", "double_negation"),
        # a pronoun for what was denied, said where it is
        (
            "People carry no dog on the red bus - it's curled up and asleep at the stop.",
            "unresolved_anaphor",
        ),
        ("No dog on the red bus - it's stuck in the doorway.", "unresolved_anaphor"),
        ("There's no dog on the red bus; it's napping at the stop.", "unresolved_anaphor"),
        # ... but not a denial whose subject ends before the verb: nobody there, as read
        ("Nobody is left on the red bus now that the people have gone, no dog.", "negates_present"),
        # a sentence that takes back what it said
        (
            "People board a red bus. Actually, there is no bus here, and no dog.",
            "self_contradiction",
        ),
        # a cleft's contrast: is the car there? Authors read it both ways
        ("It's the red bus, not the car, that's late, and there is no dog.", "contrast_cleft"),
        ("It's a red bus, not a dog, that people board.", None),
        # a pronoun or a count for what a denial names: the rules bind neither to its noun
        ("A red bus, and no dog on the seat; it's curled up on the floor.", "unresolved_anaphor"),
        ("No dogs on the left of the red bus, but several sit on the right.", "unresolved_anaphor"),
        ("A red bus, and no dog on the seat, but there's one on the floor.", "unresolved_anaphor"),
        ("A red bus, no dogs on the seats - they're all on the floor.", "unresolved_anaphor"),
        ("No dog on the red bus, but a man brings one aboard.", "unresolved_anaphor"),
        ("A red bus, and no dogs were harmed; one eats.", "unresolved_anaphor"),
        ("The driver of the red bus isn't holding a dog, though his wife is.",
         "unresolved_anaphor"),
        ("The cats aren't on the red bus today, but the people are, and there's no dog.",
         "unresolved_anaphor"),
        # a place full of what was denied, or of nothing the caption names
        ("No dogs on the left of the red bus, the right is lined with them.", "unresolved_anaphor"),
        ("Far from empty, the street has no free spot left, and no dog.", "unresolved_anaphor"),
        ("The red bus is far from empty: people board it, and there is no dog.", None),
        ("People board a red bus with no dog, but the man is wearing one.", "unresolved_anaphor"),
        ("A red bus and a car, and there is no dog on either.", "unresolved_anaphor"),
        ("By the red bus the men have no dogs but the women do.", "unresolved_anaphor"),
        ("People have no dogs on the red bus, but the man beside them does.", "unresolved_anaphor"),
        ("The red bus has no dog on it; one is already waiting at the stop.", "unresolved_anaphor"),
        ("People on a red bus, one is asleep, and there is no dog.", None),
        # ... unless the clause before names one thing, there: the count is its own (the bus's,
        # which no box here counts)
        ("It's not that there's no red bus: there's one, and no dog.", "count_unverified"),
        ("No dog on the red bus; there is one at the stop.", "unresolved_anaphor"),
        ("You can't say it lacks a red bus, since it has one; no dog.", "count_unverified"),
        ("Just the red bus and me at the stop; no dog, no one else.", "unresolved_anaphor"),
        # a bunch of what? Of the dogs just denied, or of what is there
        ("No dogs on the red bus, though the bunch at the stop is noisy.", "unresolved_anaphor"),
        ("People board a red bus in a bunch, and there is no dog.", None),
        ("People sit on the red bus, but no dog does.", None),
        # "either" of the two it counts: no anaphor, a count the evidence's boxes must back
        ("Two red buses, and there is no dog on either.", "count_unverified"),
        ("The red bus is late, not the car; both are pictured, no dog.", "unresolved_anaphor"),
        ("A red bus on the street, but no dog; it's a grey day.", None),
        ("People board a red bus, and there is no dog on it.", None),
        ("No dog and no bus on this street.", "negates_present"),
        ("A red bus with people on a street.", "copy_of_original"),
        ('Caption: "A bus, but no dog."', "prompt_residue"),
        ("No dog.", "length"),
        ("Here is a caption: a bus, but no dog.", "prompt_residue"),
        ("A red bus and a bicycle, but there is no dog.", "affirms_unverified"),
        # Every noun accounted for: a lamp nothing can see is a claim nothing backs.
        ("A red bus by a lamp, but no dog.", "unaccounted_noun"),
        # the parser reads "rig idles" as one noun: "rig" heads it all the same
        ("A trucker's rig idles by the red bus, and there's no dog.", "unaccounted_noun"),
        ("People board a red bus, and there is no dog or lion.", "unaccounted_noun"),
        # a list's lines open with capitals the parser takes for names
        ("Street audit\nBus \u2714\nLamp \u2714\nDog \u2718", "unaccounted_noun"),
        ("A red bus on the street under a grey sky, but no dog.", None),
        # Under the length limit in characters, over CLIP's 77 tokens: the negation is cut off.
        ("A red bus waits, " + "tall, " * 36 + "but there is no dog.", "too_long_for_clip"),
        ("A red bus waits, " + "tall, " * 20 + "but there is no dog.", None),
        ("A red bus with a tennis racket, but no dog.", "affirms_unverified"),
        # Exclusive claims: the person is present too.
        ("No dog can be seen here, only a bus.", "exclusive_not_true"),
        ("There is no dog, just a red bus on the street.", "exclusive_not_true"),
        ("Nothing but a red bus on the street, and no dog.", "exclusive_not_true"),
        ("No dog can be seen here, only a bus and people.", None),
        ("Not only a bus but people too, and no dog.", None),
        # "the only bus" counts buses; "just outside" limits a place; "only shows" all there is
        ("The only bus on the street is red, and there is no dog.", "count_unverified"),
        ("Just outside, a red bus waits on the street, and there is no dog.", None),
        ("The photo only shows a red bus, and no dog.", "exclusive_not_true"),
        ("Apart from a red bus, nothing is on the street; no dog.", "exclusive_not_true"),
        # A negation the evidence cannot back: the bicycle scores in the uncertain band.
        ("People board a red bus; there is no dog and no bicycle.", "negates_undecided"),
        # a denial of a denial the rules do not rewrite
        ("You'd be hard pressed to find a red bus without a driver; no dog.", "double_negation"),
        ("You won't find a single empty seat on the red bus; no dog.", "double_negation"),
        ("Don't think there isn't a red bus here: it's by the curb. No dog.", "double_negation"),
        ("There's no way there isn't a red bus in this street; no dog.", "double_negation"),
        ("It's not like the red bus is missing - it's right there. No dog.", "double_negation"),
        ("It's not as if I didn't expect a red bus, and there it was. No dog.", "double_negation"),
        ("The depot never runs out of red buses; what it hasn't got is a dog.", "double_negation"),
        ("Can't confirm the absence of a red bus: one is by the curb. No dog.", "double_negation"),
        ("Nobody at the bus stop is boarding the red bus; no dog.", "double_negation"),
        ("You'd never call this street empty of red buses, but there isn't a dog.",
         "double_negation"),
        ("There's never a moment the stop isn't busy: a red bus waits. No dog.", "double_negation"),
        ("It's false that the red bus is missing. No dog.", "double_negation"),
        ("Never a day without a red bus at this stop, and there's no dog.", None),
        ("None of the four seats on the red bus is empty; no dog.", "double_negation"),
        ("I didn't fail to spot the red bus; no dog though.", "double_negation"),
        ("Not one person in the red bus is standing; no dog.", "double_negation"),
        ("Far from there being no red bus, one fills the street; no dog.", "double_negation"),
        ("Not once did the red bus leave the stop; no dog.", "double_negation"),
        ("Not once is the red bus free of people; no dog.", "double_negation"),
        ("Would I say there's no red bus? No - it's by the curb. No dog.", "double_negation"),
        ("A red bus parked far from the house, and no dog in sight.", None),
        # a denial of what was done to a thing that is there, or of what it lacks
        ("Not a single red bus has been cleared of snow, and no dog.", "double_negation"),
        ("Not a single red bus has made it out of the depot; no dog.", "double_negation"),
        ("Three red buses at the stop, none cleaned yet, and no dog.", "double_negation"),
        ("Not one of the people on the red bus lacks a ticket; no dog.", "double_negation"),
        ("The red bus isn't unused: people board it. And no, there isn't a dog.", None),
        ("No red bus has been seen, and there is no dog.", "negates_present"),  # still a denial
        # "one" for what a denial names, or someone else doing it
        ("People board a red bus, none without a bag; the driver has a small black one. No dog.",
         "double_negation"),
        ("The man isn't holding a dog, though the woman beside him has a little white one. "
         "A red bus waits.", "unresolved_anaphor"),
        ("The boy isn't the one walking the dog - his dad is - by the red bus.",
         "unresolved_anaphor"),
        # what runs on legs is no machine switched off: "no dogs are running" is no dog
        ("People board a red bus and no dogs are running around.", None),
        # "not even ... without": the people are there
        ("Not even the rain leaves the red bus without its people; no dog.", "double_negation"),
        ("Not even a dog: the people on the red bus sit without one.", None),
        ("The red bus is seldom without people, and now is no different; no dog.",
         "double_negation"),
        ("Seldom is the red bus without people, and today is no exception; no dog.",
         "double_negation"),
        # a denial of a lack the rules cannot rewrite, or of a shut state: people are there
        ("The red bus could hardly be called peopleless, though no dog is aboard.",
         "double_negation"),
        ("Don't imagine for a moment that the red bus has no people: it is packed. No dog.",
         "double_negation"),
        ("Not one door of the red bus is closed, and people get on; no dog.", "double_negation"),
        # one that has none: every one has some
        ("There isn't a seat on the red bus that has no person in it; no dog.",
         "double_negation"),
        ("Seldom is the café without people, and a red bus waits; no dog.", "double_negation"),
        ("People on a red bus that has no dog aboard.", None),
        ("Not a window of the red bus is people-free; no dog.", "double_negation"),
        ("Nobody could argue the red bus is peopleless; no dog.", "double_negation"),
        ("Nobody could say the red bus lacks people; no dog.", None),  # read as it is meant
        ("Not a bottle on the red bus is unopened, and people drink; no dog.", "double_negation"),
        ("Not a single person on the red bus is unshaven; no dog.", "double_negation"),
        # "-less" with no hyphen, an inverted "never ... without", a denying question answered
        ("The red bus isn't peopleless, and the street isn't busless; no dog.", "double_negation"),
        ("Never have I seen a street without a red bus, and there's no dog.", "double_negation"),
        ("Is the street without a red bus? No. Is there a dog? No.", "double_negation"),
        ("Is the red bus gone? No. A dog? No.", "double_negation"),
        ("It's hard to find a seat on the red bus without a person; no dog.", "double_negation"),
        ("Is there a red bus? Yes. A dog? No.", None),
        ("Nobody would describe the street as empty of red buses; no dog.", "double_negation"),
        ("Rarely is the bus stop bench-free, and there is no bus.", "double_negation"),
        ("The kitchen never goes without cups; there's no toaster.", "double_negation"),
        ("Nobody on the beach is not laughing, and there's no umbrella.", "double_negation"),
        ("It's not the lack of a dog that surprises; no cat is here.", "double_negation"),
        ("Nobody would say the beach is deserted, yet no boat is out.", "double_negation"),
        ("Rarely has this pier been without anglers, but no boat is moored.", "double_negation"),
        ("Nobody left the desk bare of books, and there's no laptop.", "double_negation"),
        ("Not one bottle on the table has been uncorked, and there's no cake.", "double_negation"),
        ("Calling the field empty of sheep would be wrong; there is no dog.", "double_negation"),
        ("The hall is not empty of benches, nor of people; no clock.", "double_negation"),
        ("The cafe is busy, there's no empty seat, and no dog.", "double_negation"),
        ("No way the desk is bookless, though there's no laptop.", "double_negation"),
        ("The field lacks neither horses nor grass, yet it lacks cows.", "double_negation"),
        ("Pigeons are hardly absent from the square, but there's no bus.", "double_negation"),
        ("There's hardly an absence of sheep here, but not a single dog.", "double_negation"),
        ("It would be wrong to think the desk is laptop-free; no mouse.", "double_negation"),
        ("Nobody seeing this picture could claim there were no cars; no bus.", "double_negation"),
        ("Ain't nobody gonna tell me this street don't have cars; no bus.", "double_negation"),
        ("There's no way you'd call the beach empty of people, yet no dog.", "double_negation"),
        ("Don't assume the yard has no dogs; there's no cat.", "double_negation"),
        ("Not a single bench in the park isn't wet, and there's no dog.", "double_negation"),
        ("No one would call this plaza uncrowded, but there's no bus.", "double_negation"),
        ("Not a seat on the red bus sits empty; no dog.", "double_negation"),
        ("Not even a rainy night keeps the street free of red buses, yet no dog.",
         "double_negation"),
        ("Hardly a bus on the street isn't red, and there's no dog.", "double_negation"),
        ("Nobody would accuse this pizza of being cheeseless; no fork or knife beside it.",
         "double_negation"),
        ("Nobody would call the bus empty; it's packed. But there isn't a suitcase aboard.",
         "double_negation"),
        ("Nobody is not smiling at this wedding table, where there's no cake yet.",
         "double_negation"),
        ("She's the only one in the office without a laptop; there's no tv either.",
         "double_negation"),
        ("The library table is hardly bookless, but there is no sign of a cup.", "double_negation"),
        ("Not a single slice of the pizza is gone, not a single fork is used; no guest.",
         "double_negation"),
        ("You'd be hard-pressed to find a branch of this tree not holding a bird; no cat.",
         "double_negation"),
        ("The bookshelf could never be accused of being bookless, yet there's no vase.",
         "double_negation"),
        ("It can't be said the broccoli was forgotten, but the carrots were.", "double_negation"),
        ("Saying the runway lacks planes would be wrong, but saying it lacks people would be "
         "right.", "double_negation"),
        ("Neither is the runway without a plane nor the sky without birds; no truck.",
         "double_negation"),
        ("The conference table is far from laptopless, yet there isn't a cup in the room.",
         "double_negation"),
        ("Nobody on the red bus is ticketless; no dog.", "double_negation"),
        ("Nowhere on the red bus is without a person; no dog.", "double_negation"),
        ("Rare is the red bus without a person, and there's no dog.", "double_negation"),
        ("It isn't the red bus that's loud but the people on it; no dog.", "contrast_cleft"),
    ],
)  # fmt: skip
def test_caption_gates(text: str, reason: str | None) -> None:
    assert GATE.check(_caption(text), EV) == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # a denial of a denial that names only what the rest says plainly is there
        ("The street isn't bus-free: there is a red bus. No dog.", None),
        ("Nothing about this street is bus-free: a red bus is parked here. No dog.", None),
        ("The stop isn't deserted - people board a red bus - yet no dog.", None),
        ("Hardly a bus-free street: a red bus is parked, yet there's no dog.", None),
        # ... but not where the rest leaves it unsaid or denies it
        ("You couldn't call the street bus-free, but there's no dog.", "double_negation"),
        ("The street isn't bus-free: one is parked. No dog.", "double_negation"),
        ("The stop is rarely without a dog, but a red bus is here and no dog today.",
         "double_negation"),
        # ... and what it says is checked as ever
        ("The street isn't bus-free: there is a red bus. Nobody would say there is no dog.",
         "not_negated"),
        ("The stop isn't deserted: people board a red bus. A dog sits by the curb.",
         "not_negated"),
        ("The stop isn't deserted: people board a red bus with a cat. No dog.", "affirms_absent"),
    ],
)  # fmt: skip
def test_a_double_negation_the_rest_says_plainly(text: str, reason: str | None) -> None:
    """However the denial of a denial is read, the caption says what its other clauses say."""
    assert GATE.check(_caption(text), EV) == reason


def test_a_double_negation_said_plainly_is_held_to_the_boxes_without_it_too() -> None:
    """ "Nobody's missing" leaves room for one more person than the rest names; the rest alone
    counts five."""
    text = (
        "Nobody's missing from the family photo - mom, dad and their three kids sit on a red "
        "bus - and no dog."
    )
    person = Box(label="person", score=0.9, x0=0.0, y0=0.0, x1=1.0, y1=1.0, source="t")
    bus = person.model_copy(update={"label": "bus"})
    six = EV.model_copy(update={"key": "six", "boxes": [bus] + [person] * 6})
    assert GATE.check(_caption(text), six) == "count_not_true"


@pytest.mark.parametrize(
    "text",
    [
        # what ``prepare`` writes for an empty place, or a "wireless" mouse, denies nothing twice
        "Empty street save for a single parked motorcycle. No cars, no people.",
        "A totally empty road with one lone traffic light. No cars, no one walking.",
        "The laptop sits open on the sofa, its wireless mouse missing.",
    ],
)
def test_a_single_denial_is_no_double_negation(text: str) -> None:
    assert not unread_double_negation(text)


def _every_label_scored(scores: dict[str, float]) -> Evidence:
    """Evidence as a COCO detector gives it: every label scored, 0 unless ``scores`` says."""
    return Evidence(
        key=f"all {sorted(scores.items())}",  # the gate keeps verdicts by image key
        boxes=[],
        scores=[
            LabelScore(label=label, score=scores.get(label, 0.0))
            for label in sorted(lexicon_for("coco").vocabulary)
        ],
        sources=["t"],
    )


@pytest.mark.parametrize(
    ("text", "scores", "reason"),
    [
        ("A country road with no vehicles.", {}, None),
        ("A country road with no vehicles.", {"truck": 0.9}, "negates_present"),
        ("A country road with no vehicles.", {"bicycle": 0.3}, "negates_undecided"),
        # "no other": the kind less what the sentence affirms
        ("A bicycle leans on a wall, and there are no other vehicles.", {"bicycle": 0.9}, None),
        ("A bicycle leans on a wall, and no vehicles are parked.", {"bicycle": 0.9}, None),
        (
            "A bicycle leans on a wall, and there are no other vehicles.",
            {"bicycle": 0.9, "motorcycle": 0.9},
            "negates_present",
        ),
        ("A bicycle leans on a wall, and no vehicles are parked.", {"car": 0.9}, "not_negated"),
        # a denied kind with its exception: no other member, whatever else is there
        ("No vehicles on the road except a bicycle.", {"bicycle": 0.9}, None),
        ("No vehicles on the road except a bicycle.", {"bicycle": 0.9, "person": 0.9}, None),
        (
            "No vehicles on the road except a bicycle.",
            {"bicycle": 0.9, "motorcycle": 0.9},
            "negates_present",
        ),
    ],
)
def test_a_kind_negated_negates_each_member_the_sentence_does_not_affirm(
    text: str, scores: dict[str, float], reason: str | None
) -> None:
    row = _caption(text, negated="car" if reason != "not_negated" else "bicycle")
    row = row.model_copy(update={"original_caption": ""})
    assert GATE.check(row, _every_label_scored(scores)) == reason


@pytest.mark.parametrize(
    ("scores", "reason"),
    [
        ({"motorcycle": 0.9}, None),
        ({"motorcycle": 0.9, "bus": 0.9}, "negates_present"),
        ({"motorcycle": 0.9, "truck": 0.3}, "negates_undecided"),
    ],
)
def test_all_there_is_of_a_kind_negates_the_other_members(
    scores: dict[str, float], reason: str | None
) -> None:
    """ "The only vehicle is a motorcycle": one motorcycle, no bus, and no other vehicle the
    evidence leaves open."""
    row = _caption("The only vehicle on the road is a motorcycle.", negated="bus")
    row = row.model_copy(update={"original_caption": ""})
    one = Box(label="motorcycle", score=0.9, x0=0.0, y0=0.0, x1=1.0, y1=1.0, source="t")
    evidence = _every_label_scored(scores).model_copy(update={"boxes": [one]})
    assert GATE.check(row, evidence) == reason


@pytest.mark.parametrize(
    ("text", "scores", "reason"),
    [
        ("A surfer rides a wave, and there are no dogs on the beach.", {"surfboard": 0.9}, None),
        ("A surfer rides a wave, and there are no dogs on the beach.", {}, "affirms_absent"),
        ("A surfer rides a wave, and there are no dogs on the beach.", {"surfboard": 0.3}, None),
        ("Nothing but a skier on the slope, and no dogs.", {"skis": 0.9}, None),
        ("Nothing but a man on the slope, and no dogs.", {"skis": 0.9},
         "exclusive_not_true"),
        # a rider the sentence denies implies nothing
        ("No skiers on the slope, just a man, and no dogs.", {}, None),
        ("No dogs on the slope, just a skier.", {}, "affirms_absent"),
    ],
)  # fmt: skip
def test_a_rider_implies_the_gear_the_evidence_must_not_rule_out(
    text: str, scores: dict[str, float], reason: str | None
) -> None:
    row = _caption(text).model_copy(update={"original_caption": ""})
    assert GATE.check(row, _every_label_scored({"person": 0.9, **scores})) == reason


def test_a_denied_rider_denies_the_gear_the_sentence_does_not_affirm() -> None:
    """ "No cyclists" says to most readers that there are no bikes; "bikes racked" has them."""
    row = _caption("A quiet lane with a sheep, no cyclists and no cars.", negated="car")
    row = row.model_copy(update={"original_caption": ""})
    bike = _every_label_scored({"sheep": 0.9, "bicycle": 0.9})
    assert GATE.check(row, bike) == "negates_present"
    assert GATE.check(row, _every_label_scored({"sheep": 0.9})) is None
    racked = row.model_copy(update={"caption": "Bikes racked by the wall, no cyclists, no cars."})
    assert GATE.check(racked, _every_label_scored({"bicycle": 0.9})) is None
    other = row.model_copy(update={"caption": "A cyclist rides by, no other cyclists, no cars."})
    assert GATE.check(other, _every_label_scored({"person": 0.9, "bicycle": 0.9})) is None
    beach = row.model_copy(update={"caption": "The lane wasn't without its cyclists, but no cars."})
    assert GATE.check(beach, _every_label_scored({"person": 0.9, "bicycle": 0.9})) is None
    listed = row.model_copy(
        update={"caption": "A quiet lane with a sheep, no cars, cyclists or walkers."}
    )
    assert GATE.check(listed, bike) == "negates_present"  # one denial over its list


def test_a_phrase_that_names_no_object_is_unaccounted() -> None:
    """ "a coffee table" is no dining table: nothing checks it."""
    assert GATE.unaccounted(_caption("A sofa and a coffee table, but no dog.")) == ["table"]
    assert GATE.unaccounted(_caption("A sofa and a dining table, but no dog.")) == []
    across = "Two sofas face each other across a glass coffee table, and there is no dog."
    assert GATE.unaccounted(_caption(across)) == ["table"]


def test_check_marks_part_the_items_of_a_list() -> None:
    """The small parser reads emoji as names and joins the words around them by them: the desk
    between two marks is a noun nothing checks."""
    marks = _caption("\u2705 cat \u2705 laptop \u2705 desk \u274c mouse \u274c mug")
    assert GATE.unaccounted(marks) == ["desk"]


def test_a_capitalised_first_word_is_a_noun_where_it_stands_for_one() -> None:
    """The small parser reads "Hoover" as a name and "Mobile" as an adjective when a sentence
    starts with them; a name ("Luna") stays one, and a modifier of an object's name is none."""
    assert GATE.unaccounted(_caption("Hoover in the corner, no telly on the wall.")) == ["hoover"]
    assert GATE.unaccounted(_caption("Mobile lying on a paperback, no cup.")) == ["mobile"]
    assert GATE.unaccounted(_caption("Luna napping on the bed, no dog in sight.")) == []
    assert GATE.unaccounted(_caption("Golden retriever on the back seat, no cat.")) == ["seat"]


def test_a_lower_case_word_the_parser_calls_a_name_is_a_noun() -> None:
    """Listed with a noun, or the subject of a verb: no name is written in lower case."""
    assert GATE.unaccounted(_caption("Satsumas and nanas in the bowl, no apples.")) == ["nana"]
    boi = _caption("chonky boi has claimed the whole bed again, no dog to bother him")
    assert GATE.unaccounted(boi) == ["boi"]
    assert GATE.unaccounted(_caption("Desk, monitor, no keyboard.")) == ["desk"]
    assert GATE.unaccounted(_caption("desk, monitor, no keyboard.")) == ["desk"]
    assert GATE.unaccounted(_caption("Laptop - no; phone, mug, keyboard - yes.")) == []


def test_chat_shorthand_is_no_noun() -> None:
    """ "lol", "ngl", "tbh": no object, whatever the parser calls them; "pic" is the picture."""
    assert GATE.unaccounted(_caption("ngl the cat won the sofa lol, no dog in this pic tbh")) == []


def test_a_compound_needs_a_noun_for_its_head() -> None:
    """The small parser compounds a noun with a verb ("a two-wheeler rides past") or with chat
    shorthand ("the meter lmao"), and heads a list of nouns with an adjective ("Mobile,
    remote"): each is a noun nothing checks."""
    wheeler = _caption("A kid on a two-wheeler rides past the red bus, with no dog.")
    assert GATE.unaccounted(wheeler) == ["wheeler"]
    meter = _caption("not a single dog, just my bike chained to the meter lmao")
    assert GATE.unaccounted(meter) == ["meter"]
    assert GATE.unaccounted(_caption("Mobile, remote, laptop, no keyboard, no dog.")) == ["mobile"]
    assert GATE.unaccounted(_caption("Red bus, bus stop, no dog.")) == []
    # joined past a colon to the noun after it: "setup" modifies no laptop
    setup = _caption("Pretty cozy desk setup tbh: laptop, a mug of coffee... no mouse, though.")
    assert GATE.unaccounted(setup) == ["setup"]


def test_a_file_name_with_a_label_no_reading_places_is_refused() -> None:
    """ "beach-umbrella-chairs": an umbrella to one reader, umbrella chairs to another."""
    row = _caption("hero_img__beach-umbrella-chairs--nobody", negated="person")
    evidence = _every_label_scored({"chair": 0.9, "umbrella": 0.9})
    assert GATE.check(row, evidence) == "unaccounted_noun"


def test_a_file_name_that_denies_a_run_of_two_names_is_refused() -> None:
    """ "no-people-plane-at-window": no people and a plane to one reader, no plane to another;
    "no-people-no-boards" says each."""
    chairs = _every_label_scored({"chair": 0.9})  # and no plane: the second reading's photo
    row = _caption("airport-gate-b22-empty-chairs-no-people-plane-at-window.jpg", negated="person")
    assert GATE.check(row, chairs) == "unaccounted_noun"
    row = _caption("airport-gate-b22-empty-chairs-no-people-no-dogs.jpg", negated="person")
    assert GATE.check(row, chairs) is None


def test_a_verb_that_needs_an_object_implies_it() -> None:
    """ "A teenager texts on a bench": a phone, which the evidence must not rule out."""
    row = _caption("A teenager texts on a park bench with her backpack beside her, and no dog.")
    seen = {"person": 0.9, "bench": 0.9, "backpack": 0.9}
    assert GATE.check(row, _every_label_scored(seen)) == "affirms_absent"
    there = _every_label_scored({**seen, "cell phone": 0.9})
    assert GATE.check(row, there) is None


def test_a_kind_with_none_of_its_labels_there_may_be_affirmed_only_from_the_original() -> None:
    """ "A chef slices vegetables" with no broccoli or carrot: onions, perhaps. The labels do
    not rule the kind out; the original caption must say so."""
    row = _caption("A chef slices vegetables, and there is no dog.")
    evidence = _every_label_scored({"person": 0.9})
    assert GATE.check(row, evidence) == "affirms_unverified"
    said = row.model_copy(update={"original_caption": "chef slicing vegetables"})
    assert GATE.check(said, evidence) is None


def test_objects_named_by_the_original_caption_may_be_affirmed_unless_absent() -> None:
    original = "A red bus and a bicycle on a street."
    mentioned = _caption("A bus and a bicycle, but there is no dog.")
    mentioned = mentioned.model_copy(update={"original_caption": original})
    assert GATE.check(mentioned, EV) is None  # bicycle is uncertain, but the caption names it
    lying = mentioned.model_copy(update={"caption": "A bus, a cat and a bicycle, but no dog."})
    assert GATE.check(lying, EV) == "affirms_absent"
    assert GATE.unaccounted(_caption("A bus by a lamp and a guitar, no dog.")) == [
        "lamp",
        "guitar",
    ]
    # A noun of the original caption is accounted for: the source said it.
    lamp = _caption("A red bus by a lamp, but no dog.").model_copy(
        update={"original_caption": "A red bus by a street lamp."}
    )
    assert GATE.check(lamp, EV) is None


def test_template_stands_in_only_when_the_llm_caption_fails() -> None:
    good_llm = _caption("A bus idles by the curb, and no dog is around.")
    bad_llm = _caption("A bus idles by the curb beside a dog.")
    template = _caption("A picture of a bus, but there is no dog.", generator="template")

    accepted, rejects = select_captions([good_llm, template], {"k": EV}, GATE)
    assert [a.generator for a in accepted] == ["llm"] and rejects == []

    accepted, rejects = select_captions([bad_llm, template], {"k": EV}, GATE)
    assert [a.generator for a in accepted] == ["template"]
    assert [(r.reason, r.stage) for r in rejects] == [("not_negated", "validate")]
    assert "a template stands in" in rejects[0].detail


def test_duplicate_captions_of_one_image_are_rejected() -> None:
    first = _caption("A bus idles by the curb, and no dog is around.")
    second = first.model_copy(
        update={"key": "k_1", "caption": "A bus idles by the curb, and NO dog is around."}
    )
    accepted, rejects = select_captions([first, second], {"k": EV}, GATE)
    assert [a.key for a in accepted] == ["k_0"]
    assert [(r.key, r.reason) for r in rejects] == [("k_1", "duplicate")]


def test_mcq_gate_accepts_built_questions_and_catches_broken_ones() -> None:
    balancer = McqBalancer("s")
    lexicon = lexicon_for("coco")
    for _ in range(6):
        mcq = build_mcq("k", ["bus", "person"], "dog", balancer, "h")
        assert mcq_gate(mcq, EV, lexicon, CFG) is None
    duplicate = mcq.model_copy(update={"caption_1": mcq.caption_0})
    assert mcq_gate(duplicate, EV, lexicon, CFG) == "mcq_duplicate_options"
    wrong_key = mcq.model_copy(update={"correct_answer": (mcq.correct_answer + 1) % 4})
    assert mcq_gate(wrong_key, EV, lexicon, CFG) == "mcq_not_one_true"
    unknown = build_mcq("k", ["bus"], "giraffe", balancer, "h")
    assert mcq_gate(unknown, EV, lexicon, CFG) == "mcq_unverifiable"


def test_a_distractor_may_name_what_nothing_checks_only_where_it_is_false_already() -> None:
    """ "A desk lamp and no bus" beside a bus is false whatever the lamp; "a desk lamp and a
    bus" may be true, and the keyed option must name nothing unchecked."""
    lexicon = lexicon_for("coco")
    mcq = build_mcq("k", ["bus", "person"], "dog", McqBalancer("x"), "h")
    slot = (mcq.correct_answer + 1) % 4
    false_already = mcq.model_copy(update={f"caption_{slot}": "A desk lamp, but no bus."})
    assert mcq_gate(false_already, EV, lexicon, CFG) is None
    maybe_true = mcq.model_copy(update={f"caption_{slot}": "A desk lamp beside a bus."})
    assert mcq_gate(maybe_true, EV, lexicon, CFG) == "mcq_unaccounted_noun"
    key = f"caption_{mcq.correct_answer}"
    keyed = mcq.model_copy(update={key: f"{getattr(mcq, key).rstrip('.')} by a desk lamp."})
    assert mcq_gate(keyed, EV, lexicon, CFG) == "mcq_unaccounted_noun"


@pytest.mark.parametrize(
    "option", ["This image features None.", "A bus, and no [OBJECT_2].", "A bus and no <label>."]
)
def test_mcq_with_a_placeholder_object_is_rejected(option: str) -> None:
    mcq = build_mcq("k", ["bus", "person"], "dog", McqBalancer("x"), "h")
    broken = mcq.model_copy(update={"caption_2": option})
    assert mcq_gate(broken, EV, lexicon_for("coco"), CFG) == "mcq_placeholder"


def test_mcq_option_over_clips_context_is_rejected() -> None:
    mcq = build_mcq("k", ["bus", "person"], "dog", McqBalancer("x"), "h")
    long = "This image features a bus, " + "very " * 70 + "but not a dog."
    broken = mcq.model_copy(update={"caption_1": long})
    assert mcq_gate(broken, EV, lexicon_for("coco"), CFG) == "mcq_too_long_for_clip"


def test_a_word_inside_a_longer_object_name_is_no_object_of_its_own() -> None:
    """ "tennis racket" is one noun: its "tennis" is no noun of its own."""
    row = _caption("A red bus, but there is no tennis racket.", negated="tennis racket")
    assert GATE.unaccounted(row) == []


def test_words_for_the_picture_itself_are_not_new_objects() -> None:
    row = _caption("There is no dog in this picture, but there is a bus in the frame.")
    assert GATE.unaccounted(row) == []
    # Nor are places, the background, amounts or what a named object holds.
    row = _caption("In the background, a group of people board a bus with a cup of coffee.")
    assert GATE.unaccounted(row) == []


@pytest.mark.parametrize(
    ("text", "true"),
    [
        ("This image features only a bus.", False),  # a person is there too
        ("This image features just a bus and a person.", True),
        ("This image features a bus.", True),
        ("This image features not only a bus.", True),
    ],
)
def test_an_exclusive_option_is_true_only_when_it_leaves_nothing_present_out(
    text: str, true: bool
) -> None:
    lexicon = lexicon_for("coco")
    verdicts = GATE.verdicts(EV)
    assert option_truth(verdicts, text, lexicon) is true


def test_what_only_the_parse_reads_is_held_to_the_evidence_too() -> None:
    """The rules read the toaster's removal and not the microwave ("to make room for the new
    microwave"); the parse affirms it. With no microwave there, the caption is refused."""
    text = "The toaster has been removed from the counter to make room for the new microwave."
    row = _caption(text, negated="toaster")
    scores = [LabelScore(label="toaster", score=0.0), LabelScore(label="microwave", score=0.9)]
    there = Evidence(key="m", boxes=[], scores=scores, sources=["t"])
    assert GATE.check(row.model_copy(update={"image_key": "m"}), there) is None
    scores = [LabelScore(label="toaster", score=0.0), LabelScore(label="microwave", score=0.0)]
    gone = Evidence(key="g", boxes=[], scores=scores, sources=["t"])
    assert GATE.check(row.model_copy(update={"image_key": "g"}), gone) == "affirms_absent"


def test_an_option_whose_truth_depends_on_the_reader_decides_nothing() -> None:
    """ "Only one person" beside a bus is a count to some readers and all there is to others;
    "a person" beside two people is true to some and false to others. A question must not hang
    on either: the option is undecided (``mcq_unverifiable``), not false."""
    lexicon = lexicon_for("coco")
    verdicts = GATE.verdicts(EV)
    assert option_truth(verdicts, "Only one person waits, and there is no dog.", lexicon) is None
    assert option_truth(verdicts, "Only a person waits, and there is no dog.", lexicon) is False
    two = {"person": 2, "bus": 1}
    assert option_truth(verdicts, "A person waits by a bus, with no dog.", lexicon, two) is None
    three = "Three people wait by a bus, with no dog."
    assert option_truth(verdicts, three, lexicon, two) is False
    # beside people, "nobody holds a dog" is no one there to some, no one with a dog to others;
    # "nobody on the bus" is the people on it to most, and none there to some
    holds = "Nobody is holding a dog."
    assert option_truth(verdicts, holds, lexicon) is None
    scores = [s for s in EV.scores if s.label != "person"] + [LabelScore(label="person", score=0)]
    empty = GATE.verdicts(EV.model_copy(update={"key": "empty", "scores": scores}))
    assert option_truth(empty, holds, lexicon) is True  # nobody there, and no dog
    on_it = "Nobody on the bus is holding a dog."
    assert option_truth(verdicts, on_it, lexicon) is None
    assert option_truth(empty, on_it, lexicon) is None


def test_an_option_that_affirms_an_absent_object_is_false_whatever_its_count() -> None:
    """No box counts an absent dog, but "several dogs" beside none is false, not undecided."""
    lexicon = lexicon_for("coco")
    verdicts = GATE.verdicts(EV)
    assert option_truth(verdicts, "Several dogs wait by a bus.", lexicon, {"bus": 1}) is False
    assert option_truth(verdicts, "Several buses wait, with no dog.", lexicon, {"bus": 1}) is False
    assert option_truth(verdicts, "Several buses wait, with no dog.", lexicon, {}) is None


@pytest.mark.parametrize(
    "option",
    [
        "Doughnut doughnut image features not not cake cake.",
        "The bus is a lion, and no dog.",
        "The bus in this image is not a bus.",
        "Bus, no, dog, the.",
        "There is no bus in the image, except for the bus in the image.",
        "Two buses are shown, but the photo contains no buses.",
        "There is a bus here, 但是没有dog。",  # slipped into another language
        "The bus is a penguin, and a dog is not.",  # the first mention, not the longest
        "The bus, which is a lion, waits.",
        "The bus is secretly a lion.",
        "Bus yes photo the; dog absent is was.",  # word salad, by word order alone
        "Photo is bus having, dog not is showing.",
        "Dog the and picture buses shows red no.",  # an article before a conjunction
        "Yeah no though bus people sure for.",  # ends on a preposition after no verb
    ],
)
def test_a_garbled_or_identity_option_is_nonsense(option: str) -> None:
    mcq = build_mcq("k", ["bus", "person"], "dog", McqBalancer("x"), "h")
    broken = mcq.model_copy(update={"caption_3": option})
    assert mcq_gate(broken, EV, lexicon_for("coco"), CFG) == "mcq_nonsense"
