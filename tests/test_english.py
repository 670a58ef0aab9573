"""Articles, number and natural names, through inflect, where inflect alone gets them wrong too."""

from __future__ import annotations

import pytest

from negdata.english import article_errors, be, join_objects, natural, plural, with_article


@pytest.mark.parametrize(
    ("noun", "phrase", "verb"),
    [
        ("bus", "a bus", "is"),  # inflect alone reads "bus" as the plural of "bu"
        ("glass", "a glass", "is"),
        ("lens", "a lens", "is"),
        ("umbrella", "an umbrella", "is"),
        ("hour glass", "an hour glass", "is"),
        ("unicorn", "a unicorn", "is"),
        ("wine glass", "a wine glass", "is"),
        ("boats", "boats", "are"),
        ("glasses", "glasses", "are"),
        ("people", "people", "are"),
        ("children", "children", "are"),
        ("mice", "mice", "are"),
        ("scissors", "scissors", "are"),
        ("sheep", "sheep", "are"),
        ("broccoli", "broccoli", "is"),  # a mass noun: no article, no plural
        ("luggage", "luggage", "is"),
    ],
)
def test_article_and_number(noun: str, phrase: str, verb: str) -> None:
    assert with_article(noun) == phrase
    assert be(noun) == verb


def test_plurals_and_lists() -> None:
    assert [plural(n) for n in ("knife", "person", "bus", "boats", "broccoli")] == [
        "knives",
        "people",
        "buses",
        "boats",
        "broccoli",
    ]
    assert join_objects(["dog", "apple", "boats"]) == "a dog, an apple and boats"


def test_class_names_in_natural_form() -> None:
    assert natural("safety_vehicle") == "safety vehicle"
    assert natural("  Traffic   Light ") == "traffic light"
    with pytest.raises(ValueError):
        with_article(" _ ")


def test_an_article_that_disagrees_with_the_next_word_is_found() -> None:
    """What an LLM caption must not publish ("a espresso"), and what is right though it looks
    odd: "a unicorn", "a one-way", "an hour", "an FBI agent"."""
    caption = "Without a wine glass in sight, a espresso sits on a table, but there is no fork."
    assert article_errors(caption) == ["a espresso"]
    assert article_errors("An cat and a umbrella.") == ["An cat", "a umbrella"]
    fine = "A unicorn, a one-way street, a utility car, an hour, an FBI agent and a European."
    assert article_errors(fine) == []
    # an initialism said as letters or as a word: either article
    assert article_errors("A sedan and an SUV, a NASA rocket, a LED lamp, an LED strip.") == []
