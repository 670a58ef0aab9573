"""The qualification judge: what a sentence claims that the known objects make false."""

from __future__ import annotations

import pytest

from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.detect.lexicon import lexicon_for
from negdata.qualify.images import load_images
from negdata.qualify.truth import false_captions, false_claims, false_options
from negdata.records import CaptionRecord

COCO = lexicon_for("coco")
# A living room: one cat, two dogs, a couch; nothing else.
ROOM = {"cat": 1, "dog": 2, "couch": 1}


@pytest.mark.parametrize(
    "text",
    [
        "A cat sleeps on the couch, but there is no bird.",
        "There is no tv in this room; a cat and two dogs share the couch.",
        "Two dogs and a cat rest on a couch, with no bird in sight.",
        "Only animals and a couch are here, no person.",
        "A cat on a couch beside a lamp, but no tv.",  # a lamp: not judged
    ],
)
def test_a_true_sentence_has_no_false_claim(text: str) -> None:
    assert false_claims(text, ROOM, COCO) == []


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("A cat sleeps on the couch, but there is no dog.", ["negates dog, which is there"]),
        (
            "A bird sits on the couch; there is no tv.",
            ["affirms bird, which is not there"],
        ),
        (
            "Only a cat sleeps on the couch; there is no bird.",
            ["says that is all, but dog is there too"],
        ),
        ("Two cats nap on the couch, but no bird.", ["counts cat as two, but 1 there"]),
        ("A dog and a cat on a couch, with no bird.", ["counts dog as a, but 2 there"]),
        ("There are no animals on the couch.", ["negates animal, which is there"]),
        (
            "The dog is a horse, and there is no bird.",
            ["affirms horse, which is not there", "says one object is another"],
        ),
    ],
)
def test_a_false_sentence_names_each_false_claim(text: str, claims: list[str]) -> None:
    assert false_claims(text, ROOM, COCO) == claims


def test_the_same_sentence_is_true_of_one_image_and_false_of_another() -> None:
    text = "A cat on the couch, but there is no dog."

    assert false_claims(text, {"cat": 1, "couch": 1}, COCO) == []
    assert false_claims(text, ROOM, COCO) == ["negates dog, which is there"]


def _caption(image: str, text: str) -> CaptionRecord:
    return CaptionRecord(
        key=f"{image}_0",
        image_key=image,
        caption=text,
        negated="bird",
        negated_label="bird",
        style="affirmation_first",
        generator="llm",
        original_caption="",
        affirmed=[],
        prompt=None,
        model=None,
        config_hash="test",
    )


def test_only_captions_with_a_false_claim_are_listed() -> None:
    truth = {"room": ROOM, "street": {"car": 1}}
    captions = [
        _caption("room", "A cat sleeps on the couch, but there is no bird."),
        _caption("street", "A car is parked on the street, but there is no dog."),
        _caption("street", "Two cars wait at the light; no bird."),
    ]

    assert false_captions(captions, truth, COCO) == [
        "street: 'Two cars wait at the light; no bird.': counts car as two, but 1 there"
    ]


def test_an_mcq_is_false_where_its_key_is() -> None:
    """A question built on the truth is keyed right; the same question about an image where
    its negative is there has a false answer or a true wrong option."""
    mcq = build_mcq("room", ["cat", "couch"], "bird", McqBalancer("seed"), "test")
    assert false_options([mcq], {"room": ROOM}, COCO) == []

    found = false_options([mcq], {"room": {**ROOM, "bird": 1}}, COCO)
    assert found, "a bird that is there makes the question's key untrue"
    assert all(line.startswith("room: MCQ ") for line in found)


def test_every_shipped_caption_is_true_of_its_image() -> None:
    """The shipped set's truth and captions agree: an original caption that the judge found
    false would make every sentence built on it suspect."""
    for image in load_images():
        assert false_claims(image.caption, image.objects, COCO) == [], image.key
