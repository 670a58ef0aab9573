"""English for the text negdata writes itself: object names in natural form, articles and number.

Inflection comes from ``inflect`` (irregular plurals, "an hour", "a unicorn", "people",
"scissors"); two gaps of its own are closed here: it "singularises" any word that ends in -s
("bus" -> "bu"), so a word counts as plural only when inflect would not also pluralise it as a
singular with -es; and it has no notion of mass nouns, which take no article and no plural.
"""

from __future__ import annotations

import re
from functools import cache

import inflect

# Vocabulary labels that name a substance or a collection rather than one countable thing.
MASS_NOUNS = frozenset(
    {"broccoli", "luggage", "baggage", "furniture", "equipment", "food", "seafood", "sushi",
     "pasta", "rice", "lettuce", "meat", "bread", "cheese", "grass", "snow", "water", "hair",
     "jewelry", "jewellery", "clothing", "garbage", "trash", "rubbish", "cauliflower", "spinach",
     "corn", "popcorn", "fruit", "candy", "toast", "butter", "cereal", "soup", "salad"}
)  # fmt: skip

_ENGINE = inflect.engine()


def natural(name: str) -> str:
    """A class name or model noun as a caption writes it: ``"safety_vehicle"`` -> ``"safety
    vehicle"``, ``"Traffic  Light"`` -> ``"traffic light"``."""
    return " ".join(re.sub(r"[_\s]+", " ", name).split()).lower()


def _head(noun: str) -> str:
    words = natural(noun).split()
    if not words:
        raise ValueError("empty object name")
    return words[-1]


@cache
def is_plural(noun: str) -> bool:
    """Whether ``noun`` (its last word) is plural: "boats", "people", "scissors", "sheep"; not
    "bus", "glass" or "broccoli"."""
    head = _head(noun)
    if head in MASS_NOUNS:
        return False
    singular = _ENGINE.singular_noun(head)
    if singular is False:
        return False
    return singular == head or _ENGINE.plural_noun(head) != f"{head}es"


def is_mass(noun: str) -> bool:
    return _head(noun) in MASS_NOUNS


def be(noun: str) -> str:
    """The verb for "there ___ no ``noun``": "are" for plurals, "is" otherwise."""
    return "are" if is_plural(noun) else "is"


def with_article(noun: str) -> str:
    """``"bus"`` -> ``"a bus"``, ``"umbrella"`` -> ``"an umbrella"``; plurals and mass nouns
    stay bare ("boats", "broccoli")."""
    noun = natural(noun)
    if is_plural(noun) or is_mass(noun):
        return noun
    return str(_ENGINE.a(noun))


def plural(noun: str) -> str:
    """``"knife"`` -> ``"knives"``, ``"person"`` -> ``"people"``; plurals and mass nouns as they
    are."""
    noun = natural(noun)
    if is_plural(noun) or is_mass(noun):
        return noun
    return str(_ENGINE.plural_noun(noun))


def counted(noun: str, count: int | None) -> str:
    """``noun`` as ``count`` of it: ``("person", 3)`` -> ``"people"``; one, none known, or a
    mass noun: as it is. Two or more are a plural, never a number: a detector that misses one
    of four people counts three, and "three people" would be false where "people" is true."""
    noun = natural(noun)
    if count is None or count < 2 or is_mass(noun):
        return noun
    return plural(noun)


def join_objects(nouns: list[str]) -> str:
    """ "a dog, a cat and two-word phrases", each with its article."""
    phrases = [with_article(n) for n in nouns]
    if len(phrases) <= 1:
        return "".join(phrases)
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


_ARTICLE_AND_WORD = re.compile(r"\b(an?)\s+([A-Za-z][\w'-]*)", re.IGNORECASE)


_INITIALISM = re.compile(r"[A-Z]{2,5}s?")


def article_errors(text: str) -> list[str]:
    """Every "a"/"an" in ``text`` that disagrees with the sound of the next word, as inflect
    hears it ("a espresso", "an cat"; "a unicorn", "an hour" are fine). An initialism may be
    said as letters or as a word ("an SUV", "a NASA rocket"): either article is fine."""
    wrong = []
    for match in _ARTICLE_AND_WORD.finditer(text):
        article, word = match.group(1).lower(), match.group(2)
        if _INITIALISM.fullmatch(word):
            continue
        if str(_ENGINE.a(word)).split(" ", 1)[0].lower() != article:
            wrong.append(match.group(0))
    return wrong
