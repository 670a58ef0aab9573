"""Word salad: the orders of words no English writer publishes, and what stays English."""

from __future__ import annotations

import pytest

from negdata.validate.grammar import broken_sentence, garbled


@pytest.mark.parametrize(
    "text",
    [
        "Not not a cat cat here.",
        "A bench, no, cat, the.",
        "Kite yes image the; person absent is was.",
        "This image features a kite but no.",
        "Elephant an a walk together and horse.",
        "Three oranges no apples,.",
        "A no vases features this around clocks.",
        "A this pair of scissors shows image.",
        "Bench no a just - dogs here.",
        "Here single umbrella a not be can seen.",
        "The luggage nobody with is.",
        "There are think and horses cows i.",
        "Five water boats on the are.",
        "The dog is is on the sofa.",
    ],
)
def test_a_word_order_that_is_never_english_is_garbled(text: str) -> None:
    assert garbled(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zero cars on the highway at 4 a.m.",
        "The kitchen does not have a refrigerator, only a small oven.",
        "Is there a dog? No. A cat sleeps on the couch.",
        "A 'No Parking' sign next to a hydrant.",
        "That that dog is missing is clear.",
        "Is visible a horse, but not is visible the rider.",  # read in a caption
        "vintage red car parked street old town travel europe tourism no people",
        "Commuters wait for the A train, and no bus is in sight.",
        "The No. 12 bus pulls up at the corner.",
        "A desk with a laptop and a can of soda, no television.",
        "The shelter dogs the gala was raising money for were not allowed inside.",
        "The kids are not around, but their bicycles are.",
        "A no-parking sign, and no cars on the street.",
        "Close-up: all there is is a sink with one bowl in it, no cups.",
        "What it is is a cot, not a bed.",
    ],
)
def test_english_and_alt_text_are_not_garbled(text: str) -> None:
    assert not garbled(text)


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("Benches the is picture cats shows green no.", True),
        ("Yeah no though fork pizzas sure for.", True),
        ("Image is kite having, cat not is featuring.", True),
        ("Bench potted the yes cat no image.", True),
        ("Cats picture benches but green no shows this.", True),
        ("Is there a cat? No. A bench, though.", False),
        ("A horse standing in a stall with no saddle on.", False),
        ("A bench with nothing to sit on.", False),
        ("Is there a dog in the picture? No, only a cat.", False),
        ("This picture shows hot dogs, but no pizzas.", False),
        ("And street people the cars fill.", True),
        ("Are two trains visible.", True),
        ("Are there two trains? Yes, and no bus.", False),
        ("Don't see any boats in the harbor today.", False),
        ("Looks like there's a cake here, but no wine glasses.", False),
    ],
)
def test_the_parse_shows_a_shuffled_sentence(text: str, broken: bool) -> None:
    assert broken_sentence(text) is broken
