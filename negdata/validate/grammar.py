"""Word salad: text no English writer would publish, as a garbled or shuffled generation reads.

Two depths. :func:`garbled` finds word orders that are never English, with no parse: a word said
twice ("not not cake cake", but "all there is is a sink"), a sentence left hanging on "the", "of" or
"but no", an article before a stop ("image the;"), two forms of "be" in a row ("absent is was"), two
articles in a row ("an a"), a comma just before the end ("no apples,."), an article before a word
that never follows one ("a no vases", "a this pair", "the are"), "no" before an article, "be" before
a modal, a preposition before a verb ("nobody with is"), a sentence that ends on "I" or "they".
Every caption and option is held to it. :func:`broken_sentence` also finds "not" before "is"
("backpack not is featuring"), a start no statement has ("And the street people", "Are two trains
visible."), and asks the parse (``validate.parser``) what a shuffle leaves: an article before what
never follows one ("the is", "an of"), "no" before a verb ("hot no shows this"), or a sentence that
ends on a preposition after no verb ("spoon sandwiches sure for."). A caption in another language's
word order ("not is visible the rider") is read (``negation.forms``), and the tagger misreads a few
true captions ("A moped leaning" tags "moped" a verb), so only the options of a question, a sentence
each, are held to it: a question refused costs one question, a nonsense option published teaches the
wrong thing.
"""

from __future__ import annotations

import itertools
import re

from negdata.validate.parser import parse

_BE = r"(?:is|are|was|were|am)"
# Not after "there" or "it": "all there is is a sink", "what it is is a cot" are English.
_NOT_WHAT_IS = r"(?<!\bthere )(?<!\bit )"
_WORD_ORDER = re.compile(
    # a word said twice in a row; but "all there is is a sink", "what it is is a cot"
    rf"{_NOT_WHAT_IS}\b(?!(?:that|had|very|no|bye|ha|so)\b)([a-z]+) \1\b"
    # a sentence left hanging on a word that needs one after it ("Horse, no, bear, the.")
    r"|\b(?:the|an?|of|and|or|but(?: no)?)\W*$"
    # an article before a stop ("Backpack yes image the;"), not "4 a.m."
    r"|\b(?:the|an?)\s*(?:[;,!?]|\.(?!m\.))"
    # two forms of "be" in a row ("person absent is was")
    rf"|{_NOT_WHAT_IS}\b{_BE}\s+{_BE}\b"
    # two articles in a row ("elephant an a walk"), not "the A train"
    r"|\b(?:the|an?) (?-i:the|an?)\b"
    # a comma or colon just before the end ("three oranges no apples,.")
    r"|[,:;]\s*[.!?]\s*$"
    # an article before what never follows one ("a no vases", "A this pair", "a not be")
    # ("The No. 12 bus" is a name)
    r"|\b(?:the|an?) (?:(?-i:no)|this|that|these|those|my|your|his|her|its|our|their|some|any|"
    r"not|there|i|you|we|they|he|she|it|would|could|should)\b(?!-)"
    # "no" before an article ("Bench no a just")
    r"|\bno (?:an?|the|this|these|those)\b"
    # a form of "be" before a modal ("a not be can seen"), a preposition before a verb ("near
    # can you", "nobody with is")
    r"|\b(?:be|been|being) (?:can|could|will|would|should|must|may|might)\b"
    r"|\b(?:with|of|at|by|near|without|into|onto|beside|behind) "
    r"(?:is|are|was|were|can)\b"
    # a sentence that ends on a subject pronoun ("There are think and horses cows i.")
    r"|\b(?:i|we|they|he|she)\W*$"
    # an article before a form of "be" ("on the are")
    r"|\b(?:the|an?) (?:are|am|is|was|were|be|been)\b",
    re.IGNORECASE,
)
# What a preposition that ends a sentence may follow: a verb ("nothing to sit on"), a noun
# ("nobody aboard" is an adverb), another preposition ("out of").
_NO_HEAD = frozenset({"RB", "JJ", "UH", "DT"})
# "not" before "is" ("backpack not is featuring"): word order carried over from another language
# ("not is visible the rider"), which the checker reads in a caption (``negation.forms``)
_NOT_BE = re.compile(rf"\bnot\s+{_BE}\b", re.IGNORECASE)
_ARTICLES = frozenset({"a", "an", "the", "every"})
# What never follows an article: a verb that agrees with a subject, a preposition, a conjunction,
# an interjection ("the is", "an of", "the and", "the yes").
_NOT_AFTER_ARTICLE = frozenset({"VBZ", "VBD", "MD", "IN", "CC", "TO", "WDT", "EX", "UH"})
_FINITE = frozenset({"VBZ", "VBD", "MD"})
_STOPS = frozenset({".", ",", ";", "!", "?"})


def garbled(text: str) -> bool:
    """Whether ``text`` has a word order that is never English (see the module's doc)."""
    return _WORD_ORDER.search(text) is not None


# A statement cannot start with a conjunction that joins it to nothing, nor with the verb of a
# question it does not ask ("Are two trains visible."); "Don't see any boats" is a statement.
_JOINS = frozenset({"and", "or", "nor"})
_ASKING = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have"})


def _bad_start(text: str, first: str, second: str) -> bool:
    if first in _JOINS:
        return True
    return first in _ASKING and second not in {"n't", "not"} and "?" not in text


def broken_sentence(text: str) -> bool:
    """Whether ``text`` says "not is", or its parse shows a shuffle: a start no statement has
    ("And boat surfers", "Is no shown bed."), an article before a verb, a preposition, a
    conjunction, an interjection or a stop, "no" before a verb, or a sentence that ends on a
    preposition after an adverb, adjective, interjection or determiner."""
    if _NOT_BE.search(text):
        return True
    doc = parse(text)
    if len(doc) > 1 and _bad_start(text, doc[0].lower_, doc[1].lower_):
        return True
    for word, after in itertools.pairwise(doc):
        if word.lower_ in _ARTICLES and (after.tag_ in _NOT_AFTER_ARTICLE or after.text in _STOPS):
            return True
        if word.lower_ == "no" and after.tag_ in _FINITE:
            return True  # "no shows", where "no" is no answer
    for sentence in doc.sents:
        words = [w for w in sentence if not w.is_punct]
        if len(words) >= 2 and words[-1].tag_ == "IN" and words[-2].tag_ in _NO_HEAD:
            return True
    return False
