"""Every content noun of a caption accounted for (the ``unaccounted_noun`` gate).

A noun that heads its phrase ("a lamp", "the bus stop": stop, not bus) is accounted for when it:

- names an object of the run's vocabulary (the polarity gates then check it against the
  evidence: affirmed ones present, negated ones absent);
- is a word of the original caption, after cleaning (``compose.alt_text``): the source said it;
- is a scene word (``scene_words.yaml``: COCO-Stuff's background classes, places, positions in
  the picture, amounts and times).

Anything else ("a lamp" the evidence cannot see, "no big cat" that no detector names) is a claim
nothing backs. Nouns are read from the parse (``validate.parser``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from negdata.compose.alt_text import clean_alt_text
from negdata.detect.lexicon import Lexicon
from negdata.detect.vocab import singular
from negdata.validate.negation.words import CROSS_MARKS, NOT_OBJECTS, TICK_MARKS
from negdata.validate.parser import parse

if TYPE_CHECKING:  # spaCy (and torch, which thinc imports) only load to parse
    from spacy.tokens import Token

SCENE_WORDS_FILE = Path(__file__).with_name("scene_words.yaml")
_NOT_OBJECTS = frozenset(NOT_OBJECTS)
# Check marks, which the small parser takes for names and joins the words around them by.
_MARKS = re.compile(f"[{CROSS_MARKS}{TICK_MARKS}]\ufe0f?")
# A list's lines, each opening with a capital the parser takes for a name's: "Desk \u2714\nChair".
_LINE_START = re.compile(r"\s*\n\s*([A-Z])(?=[a-z])")


@cache
def _scene_groups() -> dict[str, frozenset[str]]:
    groups: dict[str, list[str]] = yaml.safe_load(SCENE_WORDS_FILE.read_text())
    return {name: frozenset(singular(w) for w in words) for name, words in groups.items()}


@cache
def scene_words() -> frozenset[str]:
    return frozenset().union(*_scene_groups().values())


def _source_words(original: str, lexicon: Lexicon) -> set[str]:
    return {singular(w) for w in re.findall(r"[a-z]+", clean_alt_text(original, lexicon).lower())}


def _verb_read_as_noun(token: Token, lexicon: Lexicon) -> bool:
    """ "A red bus waits at the stop": the small parser reads "bus waits" as one noun. A plural
    that heads a sentence with no verb, right after the noun it would compound, is the verb,
    unless the two name an object ("fire hydrants")."""
    left = token.doc[token.i - 1] if token.i else None
    return (
        token.tag_ == "NNS"
        and left is not None
        and lexicon.name(f"{left.lower_} {token.lower_}") is None
        and token.dep_ == "ROOT"
        and left.dep_ == "compound"
        and left.tag_ == "NN"
        and not any(t.pos_ in {"VERB", "AUX"} for t in token.sent if t.i < token.i)
    )


def _noun(token: Token, text: str, lexicon: Lexicon) -> bool:
    """A noun; a lower-case word the parser calls a name, listed with a noun ("satsumas and
    nanas in the bowl"); or a capitalised word that starts a sentence where the small parser
    reads a name or an adjective: "Cooker and microwave side by side" (a name to it), "Mobile
    lying on a paperback" (an adjective as the subject); not "Luna napping on the bed", nor
    "Golden retriever on the back seat" (the word before an object's name is its modifier)."""
    if token.pos_ == "NOUN" or _listed_lower_case_name(token):
        return True
    if not token.is_sent_start or not token.text.istitle():
        return False
    if token.i + 1 < len(token.doc) and lexicon.name(singular(token.nbor().lower_)):
        return False
    if token.pos_ == "ADJ":  # "Mobile lying": the subject, right before its verb
        after = token.nbor() if token.i + 1 < len(token.doc) else None
        if token.dep_ == "ROOT":  # "Mobile, remote, laptop": the first of a list of nouns
            return any(c.dep_ == "conj" and c.pos_ == "NOUN" for c in token.children)
        return token.dep_ == "nsubj" and after is not None and after.pos_ in {"VERB", "AUX"}
    if token.pos_ != "PROPN":
        return False
    lowered = text[: token.idx] + token.lower_ + text[token.idx + len(token) :]
    again = parse(lowered)
    if len(again) != len(token.doc):
        return False
    lower = again[token.i]  # a noun of its own there, not the modifier of the next one
    own = lower.pos_ == "NOUN" and lower.dep_ not in {"compound", "amod"}
    return own or _listed_lower_case_name(lower)


def _listed_lower_case_name(token: Token) -> bool:
    """A lower-case word the parser calls a name, listed with a noun ("satsumas and nanas",
    "desk, monitor") or the subject of a verb ("chonky boi has claimed the bed"): a noun it does
    not know."""
    if token.pos_ != "PROPN" or not token.text.islower() or not token.is_alpha:
        return False
    if token.dep_ in {"nsubj", "nsubjpass"}:
        return token.head.pos_ in {"VERB", "AUX"}
    if token.dep_ == "ROOT":  # "desk, monitor, no keyboard": the first of a list of nouns
        return any(c.dep_ in {"conj", "appos"} and c.pos_ == "NOUN" for c in token.children)
    return token.dep_ == "conj" and token.head.pos_ in {"NOUN", "PROPN"}


def _nominal(token: Token) -> bool:
    """Whether the head of the compound right before it is a noun: not chat shorthand or a
    word the parser takes for a noun ("the meter lmao", "tennis racket present": the racket is
    the noun), nor a verb the parser makes the object of a preposition ("on a two-wheeler rides
    past")."""
    if token.lower_ in _scene_groups()["not_nouns"]:
        return False
    return not (token.pos_ == "VERB" and token.dep_ == "pobj")


def _contents(token: Token, lexicon: Lexicon) -> bool:
    of = token.head
    return token.dep_ == "pobj" and of.lower_ == "of" and lexicon.name(of.head.lower_) is not None


def unaccounted_nouns(text: str, original: str, lexicon: Lexicon) -> list[str]:
    """The content nouns of ``text`` that name no object of ``lexicon``, are not in the cleaned
    ``original`` caption and are no scene word, in order."""
    scene = scene_words()
    source = _source_words(original, lexicon)
    text = _MARKS.sub(" , ", text)  # "\u2705 desk \u274c mouse": a list
    text = _LINE_START.sub(lambda m: " , " + m.group(1).lower(), text)
    found: list[str] = []
    for token in parse(text):
        if not _noun(token, text, lexicon) or token.like_num:
            continue
        if (
            token.dep_ == "compound"
            and token.head.i > token.i
            and (token.head.i > token.i + 1 or _nominal(token.head))
            and not _verb_read_as_noun(token.head, lexicon)
            and not any(t.is_punct for t in token.doc[token.i + 1 : token.head.i])
        ):
            # the modifier of another noun: "bus stop"; but "a rig idles" heads its own, and so
            # does a noun the parser joins to one past a colon ("desk setup tbh: laptop")
            continue
        if _verb_read_as_noun(token, lexicon) or token.tag_ == "VBG":
            continue  # "dogs playing": a verb, whatever the parser calls it
        if _contents(token, lexicon):
            continue  # "a glass of wine", "a bowl of soup": what a named object holds
        word = singular(token.lower_)
        phrase = " ".join(t.lower_ for t in token.lefts if t.dep_ == "compound")
        if {word, token.lemma_.lower()} & (scene | source):
            continue
        compound = f"{phrase} {word}".strip()
        words = compound.split()  # "a glass coffee table" is no object either
        named = not any(" ".join(words[i:]) in _NOT_OBJECTS for i in range(len(words)))
        if named and (lexicon.name(word) or lexicon.name(compound)):
            continue  # an object the polarity gates check ("a coffee table" is none)
        if word not in found:
            found.append(word)
    return found
