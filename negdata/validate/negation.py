"""Negation cues and their scope: does a caption affirm, negate, or not mention an object?

A caption is split into clauses at sentence punctuation and contrast words ("but", "while",
...). Inside a clause, an object after a pre-nominal cue ("no", "without", "not", ...) is
negated, and so is an object followed by a post-nominal cue ("is missing", "is absent",
"nowhere to be seen"). Fixed phrases that contain a cue word but negate no object ("not only",
"no doubt", "nothing but", ...) are removed first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from negdata.detect.vocab import singular

Polarity = Literal["affirmed", "negated", "unmentioned"]

FALSE_FRIENDS = (
    "not only", "no doubt", "nothing but", "no longer", "not far from", "not far", "never mind",
    "no matter", "not least", "none other than", "not to mention",
)  # fmt: skip
PRE_CUES = frozenset(
    {"no", "not", "n't", "without", "never", "nor", "neither", "none", "nothing", "nobody",
     "lacking", "lacks", "lack", "free-of", "devoid-of", "empty-of", "absence-of"}
)  # fmt: skip
POST_CUES = (
    "is missing", "are missing", "missing", "is absent", "are absent", "absent",
    "nowhere to be seen", "nowhere in sight", "is not present", "are not present",
    "is not visible", "are not visible", "is not there", "are not there",
)  # fmt: skip
CLAUSE_BREAKS = frozenset(
    {"but", "while", "whereas", "although", "though", "yet", "however", "instead", "except"}
)
DETERMINERS = frozenset({"a", "an", "the", "this", "that", "its", "his", "her", "their", "some"})
_PUNCT_BREAK = re.compile(r"[.;:!?()\"]")
_TOKEN = re.compile(r"n't|[a-z]+(?:-of)?|,")


def _prepare(text: str) -> str:
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"(\w)n't\b", r"\1 n't", text)
    text = re.sub(r"\bcannot\b", "can n't", text)
    for phrase in ("free of", "devoid of", "empty of", "absence of"):
        text = text.replace(phrase, phrase.replace(" ", "-"))
    for phrase in FALSE_FRIENDS:
        text = re.sub(rf"\b{phrase}\b", " ", text)
    return text


def clauses(text: str) -> list[list[str]]:
    """Token lists, one per clause; commas stay as tokens (they may end a scope)."""
    result: list[list[str]] = []
    for chunk in _PUNCT_BREAK.split(_prepare(text)):
        current: list[str] = []
        for token in _TOKEN.findall(chunk):
            if token in CLAUSE_BREAKS:
                if current:
                    result.append(current)
                current = []
            else:
                current.append(token)
        if current:
            result.append(current)
    return result


def _find(tokens: list[str], term: list[str]) -> list[int]:
    """Start indices where ``term`` (singular words) occurs, plural forms matched too."""
    n = len(term)
    return [
        i
        for i in range(len(tokens) - n + 1)
        if [singular(t) for t in tokens[i : i + n]] == term or tokens[i : i + n] == term
    ]


def _pre_negated(tokens: list[str], at: int) -> bool:
    """A cue earlier in the clause, unless a fresh item ("..., a cat", "and the dog") intervenes."""
    for j in range(at - 1, -1, -1):
        if tokens[j] in PRE_CUES:
            return True
        fresh_item = tokens[j + 1] in DETERMINERS or tokens[j + 1] in ("and", "with")
        if tokens[j] in (",", "and", "with") and fresh_item:
            return False
    return False


def _post_negated(tokens: list[str], end: int) -> bool:
    rest = " ".join(t for t in tokens[end:] if t != ",")
    return any(re.match(rf"^(\w+ ){{0,2}}{cue}\b", rest) for cue in POST_CUES)


def mentions(text: str, terms: Iterable[str]) -> list[Polarity]:
    """The polarity of each mention of the object named by any of ``terms``."""
    found: list[Polarity] = []
    term_tokens = [[singular(w) for w in t.split()] for t in terms]
    for tokens in clauses(text):
        covered: set[int] = set()
        for term in sorted(term_tokens, key=len, reverse=True):
            for at in _find(tokens, term):
                span = set(range(at, at + len(term)))
                if span & covered:
                    continue
                covered |= span
                negated = _pre_negated(tokens, at) or _post_negated(tokens, at + len(term))
                found.append("negated" if negated else "affirmed")
    return found


def polarity(text: str, terms: Iterable[str]) -> Polarity:
    """``affirmed`` if any mention affirms the object, else ``negated`` if one negates it."""
    found = mentions(text, terms)
    if "affirmed" in found:
        return "affirmed"
    return "negated" if found else "unmentioned"
