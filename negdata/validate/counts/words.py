"""The words a count is said in, and the tokens it is read from.

``COUNTS`` maps a count word to how many it says ("a": one, "several": three or more);
``tokenize`` turns a sentence into words, numbers and stops where a number may be a count
("a three-year-old dog", "IMG_2041", "day 3" count nothing); ``Count`` is one count a sentence
states for one of its objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from negdata.detect.vocab import singular
from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.words import (
    AND_SIGN,
    NUMBER_WORDS,
    NUMBERS,
    NUMERALS,
    TALLY_BULLET,
    TENS,
    YES,
)

POSSESSIVES = frozenset({"my", "our", "your", "his", "her", "its", "their"})
# A count word before a noun: (fewest, most); ``None``: no upper bound.
COUNTS: dict[str, tuple[int, int | None]] = {
    "a": (1, 1),
    "an": (1, 1),
    "one": (1, 1),
    "single": (1, 1),
    "lone": (1, 1),
    "solitary": (1, 1),
    "solo": (1, 1),  # "solo traveler"
    "sole": (1, 1),
    "alone": (1, 1),  # "the bear is alone", "the kite flies on its own" (``alone.by_itself``)
    "both": (2, 2),
    "twin": (2, 2),
    "dozen": (12, 12),
    **{word: (n, n) for n, word in zip(range(20, 60, 10), TENS, strict=True)},
    "pair": (2, 2),
    "couple": (2, 2),
    "newlyweds": (2, 2),
    "handful": (3, None),
    "few": (2, None),
    "several": (3, None),
    "multiple": (2, None),
    "many": (3, None),
    "numerous": (3, None),
    "rows": (2, None),  # "a row of sailboats", "lines of taxis" (``read``)
    **{word: (n, n) for n, word in enumerate(NUMBER_WORDS, start=2)},
    # "its rider", "our car": one, said of a singular name (``read``)
    **dict.fromkeys(POSSESSIVES, (1, 1)),
}
# The upper bound of a count said of none there: "not a parent in sight" checks no box.
DENIED = 0
ARTICLES = frozenset({"a", "an"})
# Counts said in passing, as an article or a possessive says one ("a dog", "its rider", "the
# bear is alone") or a row some ("a row of chairs"): checked where boxes count, grammar where
# none do; every other count the evidence must back.
GRAMMAR = ARTICLES | POSSESSIVES | {"alone", "rows"}
EXPLICIT = frozenset(COUNTS) - GRAMMAR
# Names of a group of people, not of one: "a crowd" counts no person; and of what is not
# counted one by one: "a man directs traffic" counts no car.
GROUPS = frozenset({"crowd", "crew", "family", "team", "band", "group", "audience", "squad"})
TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?|[,;.:()|]")  # "(0.92)": a score, no count
_NUMERALS = "|".join(sorted(NUMERALS))  # for patterns
_A_NUMBER = rf"(?:\d+|{_NUMERALS})"
# A day of a month is a date: "Sept 14 2019", "14 Sept", "3rd of June" ("two march past" and
# "2 may" are no dates).
_MONTHS = (
    "january|february|april|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
# A number joined to the word after it is part of an adjective, and a decade is a time: "a
# three-year-old dog", "a 2-slice toaster", "a 27-inch monitor", "a 1960s diner"; a number
# joined to letters before it is part of a name ("Canon EOS R5"), and one over another a
# rating or a date ("10/10", "3/4").
_NO_COUNT = re.compile(
    r"(?<!\d)\d{4}-\d\d-\d\d(?!\d)|"  # "screenshot_2023-06-11": a date
    r"\b\d{1,2}[:.]\d\d(?:[:.]\d\d)?\b|"  # "03:14", "at 14.32.10": a time
    rf"\b{_A_NUMBER}-(?=[a-z])|\b\d+s\b|(?<=[a-z])(?<!\bx)\d+|\b\d+(?:/\d+)+\b"
    r"|\b0\d+|(?<=_)\d+"  # "DSC_0091", "IMG_12": a file's number
    r"|\b\d+(?=[a-z])"  # "4k", "1080p", "EOS 5D", "3rd": a resolution, a model, a rank
    r"|(?<=[a-z]-)\d+"  # "stock-img-2231": a name's number
    r"|\(\d+\)(?=\.(?:png|jpe?g|gif|webp|heic|tiff?)\b)"  # "kitchen_FINAL(2).png": a copy's
    rf"|\b(?:{_MONTHS}|march|may)\.? \d{{1,2}}(?:st|nd|rd|th)?\b"  # "Sept 14": a day
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)? (?=(?:of )?(?:{_MONTHS})\b)"  # "14 Sept"
    r"|\b\d{1,2} (?=(?:march|may)(?:[,:;.]| \d{4}\b))"  # "14 May:" ("two may", "2 may" no date)
    # portions gone count no box: "two pizzas, four slices gone", "three slices missing"
    rf"|\b{_A_NUMBER} (?=(?:slices?|pieces?|wedges?|bites?) (?:are |were |have been )?"
    r"(?:missing|gone|eaten|taken|removed)\b)"
    rf"|\bnot {_A_NUMBER} but (?={_A_NUMBER}\b)"  # "not two but three elephants": three
)
# A number that names one of a series is no count: "Kenya safari day 3", "a train at platform
# 7", "Scene photo 2 of 5", "iPhone 12", "gate two".
_SERIES = (
    "day|platform|gate|track|route|terminal|chapter|page|photo|image|shot|slide|episode|season"
    "|exit|aisle|hole|lap|stage|act|round|week|part"
)
_INDEXED = re.compile(
    rf"\b({_SERIES}) #?(?:\d+(?: of \d+|/\d+)?|{_NUMERALS}|one)\b"
    r"|\b(iphone|pixel|galaxy|room|ward|no\.?|number|bus|flight|highway|interstate|row|seat"
    r"|court|bay|pier|berth|dock|zone|block|unit|apt|suite|cam|camera) (?:#|no\. )?\d+\b"
)
_BED_SIZE = re.compile(rf"\b(\d+|{_NUMERALS}) (?:single|double)(?= beds?\b)")
_HEAD_OF = re.compile(rf"\b(\d+|{_NUMERALS}) head of\b")
_PACK = re.compile(rf"\b(\d+|{_NUMERALS})-(pack|piece|set)\b")
# A group sized by its people: "our three-person team", "a one-man band" (not "a two-man tent").
_CREW = re.compile(
    rf"\b(\d+|{_NUMERALS})-(?:person|man|woman|member|strong) "
    r"(?:team|crew|band|family|group|squad|party|choir|orchestra)\b"
)
# A dash between spaces, or a long one, ends a phrase: "Honolulu, 2016 - surfers paddle out"
# counts no surfer.
_DASH = re.compile(r"\s[-\u2013\u2014]+\s|[\u2013\u2014]")


@dataclass(frozen=True)
class Count:
    """A count the sentence states for one of its objects: ``word`` before ``name``."""

    name: str
    word: str
    fewest: int
    most: int | None
    at: int  # the count word's token
    end: int  # the token after the object's name
    bound: bool = False  # a count with no noun, of the name before it (``bound.bound_counts``)

    @property
    def numbered(self) -> bool:
        """Whether a number states the count ("two", "12"), not an article or a word like
        "alone"."""
        return self.word in EXPLICIT or self.word.isdigit()


# Labels one of which is a pair: "a pair of skis" is one box.
PAIRED = frozenset({"skis", "scissors"})


def is_number(word: str) -> bool:
    """A number word, or digits under 1,000 (a year or a file's number counts nothing)."""
    return word in NUMERALS or (word.isdigit() and int(word) < 1000)


def single(tokens: list[str], mention: Mention) -> bool:
    """Whether ``mention`` names one thing: a singular that names no group ("a dog", not "a
    crowd", "a couple")."""
    last = tokens[mention.end - 1]
    return singular(last) == last and last not in GROUPS | TWO


def denied_before(tokens: list[str], mention: Mention) -> bool:
    """Whether "no" or "not" stands in the three words before ``mention``: "no other dogs",
    "not one person", "no horses"."""
    return bool({"no", "not"} & set(tokens[max(0, mention.start - 3) : mention.start]))


def tokenize(text: str) -> list[str]:
    """The words, numbers and stops of ``text`` where a number may be a count."""
    text = _DASH.sub(" ; ", AND_SIGN.sub(" and ", text.lower()))
    text = re.sub(r"[ \t]*\n\s*", " ; ", text)  # a line ends a phrase: "dog: 1\ncat: 0"
    text = _ASKED.sub(" : ", text)  # "Horses? One.": a checklist's answer, "horses: one"
    text = TALLY_BULLET.sub(" , ", text)  # "cows 3 \u2022 horses 0": a tally's items
    text = _EACH_PLACE.sub("some ", text)  # "there's one on each corner": one each, many
    # "the one and only umbrella", "the first and only car": one
    text = re.sub(r"\b(?:one|first|last) and only\b", "only", text)
    text = re.sub(r"\b([a-z]+)-and-([a-z]+)\b", r"\1 \2", text)  # "a black-and-white cow": one
    text = _INDEXED.sub(lambda m: m.group(1) or m.group(2), text)
    text = _PACK.sub(r"\1 \2", text)  # "a six-pack of beer bottles": six bottles, a count
    text = _CREW.sub(r"\1 people", text)  # "our three-person team": three people
    text = re.sub(r"\b(\d+) ?\+", r"at least \1", text)  # "100+ bikes"
    text = _TIMES_BEFORE.sub(r"\1 ", text)  # "2x dining chairs": two chairs
    text = _TIMES_AFTER.sub(r"\2 \1", text)  # "dining chairs x2", "chairs (x4)"
    text = re.sub(r"\b(?:an?|one) ((?:[a-z]+ )?[a-z]+) or (?:two|three|so)\b", r"some \1", text)
    text = _BED_SIZE.sub(r"\1", text)  # "two single beds": two beds, each of a size
    text = _HEAD_OF.sub(r"\1", text)  # "four head of cattle": four cows
    text = re.sub(r"\b[a-z]+-(?:only|free|friendly|proof)\b", " ", text)  # "a dogs-only beach"
    return TOKEN.findall(_NO_COUNT.sub(" ", text))


# One for each of many places: "stop signs, one on each corner", "a candle at every table"
_EACH_PLACE = re.compile(
    r"\bone (?=(?:on|at|in|by|beside|under|over|above|for|per|outside) (?:each|every)\b)"
)
# A question a count answers: "Horses? One.", "Cups? 2, all empty.", "Train? Yes, one.", "Cats?
# Two of them."
_ASKED = re.compile(
    rf"(?<=[a-z])\?+[ \t]+(?:{YES}[ \t]*[,;:]?[ \t]*)?(?:(?:just|only) )?"
    rf"(?=(?:{NUMBERS}|\d+)\b(?: of them)?[ \t]*(?:[.,;!)]|$))"
)
# A listing's multiplier, before or after the name it counts: "2x chairs", "chairs (x4)".
_TIMES_BEFORE = re.compile(r"\b(\d+) ?[x\u00d7] ?(?=[a-z]{2})")
_TIMES_AFTER = re.compile(r"\b([a-z]{2,}) \(?[x\u00d7] ?(\d+)\b\)?")


TWO = frozenset({"couple", "newlyweds"})  # people two at a time


_AT_LEAST = frozenset(
    {("no", "fewer", "than"), ("no", "less", "than"), ("not", "fewer", "than"), ("at", "least")}
)


def at_least(tokens: list[str], at: int) -> int:
    """How many words before ``at`` say "or more" ("no fewer than", "at least"); 0 if none."""
    return next((len(p) for p in _AT_LEAST if tuple(tokens[max(0, at - len(p)) : at]) == p), 0)


_DIALS = frozenset({"clock", "watch", "sign", "scoreboard", "display", "screen", "meter"})


def time_or_size(tokens: list[str], i: int) -> bool:
    """ "at 4 a.m.", "reads nine", "11:58": a clock's number, and "a table for two", "for two
    hours": a size or a span; no count. (Numbers of three digits or more, "IMG_2041.jpg",
    "1920x1080", are never taken for counts.)"""
    before = tokens[i - 1] if i else ""
    after = tokens[i + 1 : i + 3]
    clock = before == ":" and tokens[i].isdigit() and i > 1 and tokens[i - 2].isdigit()
    return (
        clock  # "11:58", not "wine glasses: six of them"
        or before in {"at", "reads", "read", "past", "for", "seats", "sleeps", "serves"}
        # "the clock says 3", "the scoreboard shows 2"
        or (before in {"says", "said", "shows", "showed"} and i > 1 and tokens[i - 2] in _DIALS)
        or after[:1] in (["am"], ["pm"], ["oclock"], [":"])
        or after in (["a", "."], ["p", "."], ["a", "m"], ["p", "m"])
    )
