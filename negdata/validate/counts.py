"""The counts a sentence states, read from its words and checked against the boxes.

A count ("a person", "two dogs", "a lone cat", "several cars") is checked against the boxes
where the evidence has them (``count_problem``). Where it has none (a label oracle), an article
("a bench") is taken as grammar, not as a count, but a number or "lone" cannot be backed and is
refused. Counts said together add up ("a man and a woman", "a mother with three children"),
and one said again does not ("two people, a man and a woman").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from negdata.detect.lexicon import HYPERNYMS, Lexicon
from negdata.detect.vocab import singular
from negdata.english import plural
from negdata.validate.exclusivity import VOID_WORDS, exclusive
from negdata.validate.negation import mention_terms
from negdata.validate.negation.mentions import Mention, build_index, find_mentions
from negdata.validate.negation.words import (
    AND_SIGN,
    COPULAS,
    GEAR,
    NUMBER_WORDS,
    NUMERALS,
    PREPOSITIONS,
    TENS,
    THEIRS,
)

POSSESSIVES = frozenset({"my", "our", "your", "his", "her", "its", "their"})
# A count word before a noun: (fewest, most); ``None``: no upper bound.
COUNTS: dict[str, tuple[int, int | None]] = {
    "a": (1, 1),
    "an": (1, 1),
    "one": (1, 1),
    "single": (1, 1),
    "lone": (1, 1),
    "sole": (1, 1),
    "alone": (1, 1),  # "the bear is alone", "the kite flies on its own" (``_alone``)
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
    "rows": (2, None),  # "a row of sailboats", "lines of taxis" (``_count_word``)
    **{word: (n, n) for n, word in enumerate(NUMBER_WORDS, start=2)},
    # "its rider", "our car": one, said of a singular name (``_count_word``)
    **dict.fromkeys(POSSESSIVES, (1, 1)),
}
# The upper bound of a count said of none there: "not a parent in sight" checks no box.
DENIED = 0
# What is wrong with a count (``count_problem``).
CountProblem = Literal["count_not_true", "count_unverified"]
ARTICLES = frozenset({"a", "an"})
# Counts said in passing, as an article or a possessive says one ("a dog", "its rider", "the
# bear is alone") or a row some ("a row of chairs"): checked where boxes count, grammar where
# none do; every other count the evidence must back.
GRAMMAR = ARTICLES | POSSESSIVES | {"alone", "rows"}
EXPLICIT = frozenset(COUNTS) - GRAMMAR
# One person by themselves, whoever the sentence says it of.
ALONE = re.compile(
    r"\b(?:alone|by (?:him|her|them)sel(?:f|ves)|on (?:his|her|their) own|"
    r"(?:no one|nobody) else)\b",
    re.IGNORECASE,
)
# Names of a group of people, not of one: "a crowd" counts no person; and of what is not
# counted one by one: "a man directs traffic" counts no car.
_GROUPS = frozenset({"crowd", "crew", "family", "team", "band", "group", "audience", "squad"})
_NOT_ONE_BY_ONE = frozenset(
    {"traffic", "furniture", "luggage", "baggage", "cutlery", "silverware", "wildlife",
     "livestock", "equipment", "gear", "tableware", "crockery",
     "crowded", "bustling"}  # "a bustling station": people, of a number no article says
)  # fmt: skip
# A place full of people: "a woman crosses a busy street" is one of many there.
_BUSY = re.compile(r"\b(?:busy|crowded|bustling|packed|thronged|teeming)\b", re.IGNORECASE)
_STOPS = frozenset(
    {",", ";", ".", ":", "(", ")", "|", "and", "or", "with", "of", "no", "not", "without", "the"}
)
# Words no count reaches past to its noun: "no one is there to pet it" counts no pet.
_NO_ADJECTIVE = _STOPS | PREPOSITIONS | {"is", "are", "was", "were", "to", "there"}
TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?|[,;.:()|]")  # "(0.92)": a score, no count
_NUMERALS = "|".join(sorted(NUMERALS))  # for patterns
# A number joined to the word after it is part of an adjective, and a decade is a time: "a
# three-year-old dog", "a 2-slice toaster", "a 27-inch monitor", "a 1960s diner"; a number
# joined to letters before it is part of a name ("Canon EOS R5"), and one over another a
# rating or a date ("10/10", "3/4").
_NO_COUNT = re.compile(
    r"(?<!\d)\d{4}-\d\d-\d\d(?!\d)|"  # "screenshot_2023-06-11": a date
    r"\b\d{1,2}[:.]\d\d(?:[:.]\d\d)?\b|"  # "03:14", "at 14.32.10": a time
    rf"\b(?:\d+|{_NUMERALS})-(?=[a-z])|\b\d+s\b|(?<=[a-z])(?<!\bx)\d+|\b\d+(?:/\d+)+\b"
    r"|\b0\d+|(?<=_)\d+"  # "DSC_0091", "IMG_12": a file's number
    r"|\b\d+(?=[a-z])"  # "4k", "1080p", "EOS 5D", "3rd": a resolution, a model, a rank
    r"|(?<=[a-z]-)\d+"  # "stock-img-2231": a name's number
)
# A number that names one of a series is no count: "Kenya safari day 3", "a train at platform
# 7", "Scene photo 2 of 5", "iPhone 12", "gate two".
_SERIES = (
    "day|platform|gate|track|route|terminal|chapter|page|photo|image|shot|slide|episode|season"
    "|exit|aisle|hole|lap|stage|act|round|week|part"
)
_INDEXED = re.compile(
    rf"\b({_SERIES}) #?(?:\d+(?: of \d+)?|{_NUMERALS}|one)\b"
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
# A checklist's count after its noun: "Cups: two", "rackets x2", "Oranges (three)", "Cow:
# present, two", "horses, one." (a comma only where the count ends the item).
_AFTER = frozenset({":", "(", "x"})
_STATED = frozenset({"present", "observed", "seen", "visible", "counted", ","})


@dataclass(frozen=True)
class Count:
    """A count the sentence states for one of its objects: ``word`` before ``name``."""

    name: str
    word: str
    fewest: int
    most: int | None
    at: int  # the count word's token
    end: int  # the token after the object's name
    bound: bool = False  # a count with no noun, of the name before it (``_bound_counts``)

    @property
    def numbered(self) -> bool:
        """Whether a number states the count ("two", "12"), not an article or a word like
        "alone"."""
        return self.word in EXPLICIT or self.word.isdigit()


# ... and the speaker by themself: one person ("just me n my backpack").
_ME_ALONE = re.compile(r"\b(?:just|only|simply) (?:me|myself)\b", re.IGNORECASE)


Found = tuple[str, int]  # a count word and where it is


# Labels one of which is a pair: "a pair of skis" is one box.
PAIRED = frozenset({"skis", "scissors"})


def _count_word(
    tokens: list[str], mention: Mention, named: set[int], starts: Mapping[int, str]
) -> Found | None:
    """The count word of the noun phrase that ends in ``mention``: "two (big) dogs", "a lone
    cat", "a couple of dogs", "a handful of cups", "3 cars", "the only dog" (one), "three of
    us", "two pairs of scissors"; ``None`` for a bare noun, for "the only dogs" (all there
    are), "a pair of skis" (one pair) and a mention that qualifies the next of another name
    (``starts``, mention start -> name: "a pizza oven" counts no pizza), and past a word of
    another mention (``named``): "two people playing frisbee" count no frisbee."""
    at = mention.start - 1
    last = tokens[mention.end - 1]
    qualifies = starts.get(mention.end, mention.name) != mention.name
    if qualifies and singular(last) == last and not tokens[mention.end].endswith("ing"):
        return None
    if at >= 1 and tokens[at] == "only" and tokens[at - 1] == "the":
        return ("sole", at) if singular(last) == last else None
    if at >= 1 and tokens[at] == "the" and _in_only_list(tokens, at):
        return ("alone", at) if singular(last) == last else None  # "only the train": one
    of = _portion_of(tokens, at, named)
    if of is not None:
        word = tokens[of - 2]  # "one slice of pizza", "two slices of (pepperoni) pizza": a box each
        return (word, of - 2) if word in COUNTS or word.isdigit() else None
    if at >= 2 and tokens[at] == "of" and tokens[at - 1] == "pairs" and mention.name in PAIRED:
        word = tokens[at - 2]
        return (word, at - 2) if word in COUNTS or word.isdigit() else None
    if at >= 2 and tokens[at] in _OWNERS and tokens[at - 1] == "of":
        word = tokens[at - 2]  # "all three of our cats", "two of the dogs" (``_counts``)
        partitive = _number(word) or word == "both"
        return (word, at - 2) if partitive else None
    if at >= 1 and tokens[at] == "of" and tokens[mention.start] == "us":
        before = tokens[at - 1]  # "three of us": the whole party
        return (before, at - 1) if before in COUNTS or before.isdigit() else None
    if last in _TWO and (at < 0 or tokens[at] not in ARTICLES | POSSESSIVES | {"of"}):
        return last, mention.end - 1  # "elderly couple sharing a bench": two people
    for _ in range(4):  # up to three adjectives: "a single old-fashioned red bus"
        if at >= 1 and tokens[at] == "of" and tokens[at - 1] in {"pair", "couple", "handful"}:
            return _group_of_few(tokens, at, mention)  # "a pair of (lawn) chairs"
        if at >= 1 and tokens[at] == "of" and tokens[at - 1] in _ROWS and singular(last) != last:
            return "rows", at - 1  # "a row of (small) sailboats": two or more
        if at < 0 or tokens[at] in _NO_ADJECTIVE or at in named:
            return None
        word = tokens[at]
        if word in ARTICLES | POSSESSIVES and last in _GROUPS | _NOT_ONE_BY_ONE:
            return None  # "a crowd", "his family": one group, of people it does not count
        if word in ARTICLES and last in _TWO:
            return last, mention.end - 1  # "a couple walking a dog", "the newlyweds": two
        if word in ARTICLES and singular(last) != last:
            return None  # "a toddler in a sun hat chases pigeons": the article is the hat's
        if word in POSSESSIVES and singular(last) != last:
            return None  # "her children": however many she has
        if word in COUNTS or (_number(word) and not _time(tokens, at)):
            return word, at  # not "Maui 2019 surfboards", "8:15am commuters"
        at -= 1
    return None


def _portion_of(tokens: list[str], at: int, named: set[int]) -> int | None:
    """Where "of" is after a portion ("slices of"), up to two words before ``at``."""
    for of in (at, at - 1, at - 2):
        if of >= 2 and tokens[of] == "of" and tokens[of - 1] in _PORTIONS:
            return of
        if of < 0 or tokens[of] in _NO_ADJECTIVE or of in named:
            return None
    return None


def _in_only_list(tokens: list[str], at: int) -> bool:
    """Whether the "the" at ``at`` follows "only" or "just", or ends a list they open: "only the
    train", "just the giraffe", "just the two of us and the dog" (one dog)."""
    if tokens[at - 1] in {"only", "just"}:
        return True
    if tokens[at - 1] not in {"and", ","}:
        return False
    for j in range(at - 2, max(-1, at - 11), -1):
        if tokens[j] in {";", ".", ":"}:
            return False
        if tokens[j] in {"only", "just"} and tokens[j + 1] == "the":
            return True
    return False


def _group_of_few(tokens: list[str], at: int, mention: Mention) -> Found | None:
    """The count of "a pair of", "a couple of", "a handful of" (``at``: "of"): two, two, three
    or more; but "a pair of scissors" is one (``_counts``)."""
    if tokens[at - 1] == "pair" and mention.name in PAIRED:
        one = tokens[at - 2] if at >= 2 else ""
        if at < 2 or not one.isalnum():
            return "one", at - 1  # "Pair of skis, no snowboard": one pair
        return (one, at - 2) if one in {"a", "one", "single"} else None
    return tokens[at - 1], at - 1


def _number(word: str) -> bool:
    """A number word, or digits under 1,000 (a year or a file's number counts nothing)."""
    return word in NUMERALS or (word.isdigit() and int(word) < 1000)


def _group_of(tokens: list[str], mention: Mention) -> Found | None:
    """The size of the group ``mention`` heads: "a giraffe family of four" (four giraffes)."""
    at = mention.end
    if tokens[at : at + 2] not in ([g, "of"] for g in _GROUPS | _HERDS):
        return None
    word = tokens[at + 2] if at + 2 < len(tokens) else ""
    return (word, at + 2) if _number(word) else None


def _people_of(
    tokens: list[str], names: Mapping[str, tuple[str, ...]], mentions: list[Mention]
) -> list[Count]:
    """People a group's size counts, with no noun before or after it: "a family of five at the
    picnic" (not "a giraffe family of four", "a group of four friends")."""
    if "person" not in names:
        return []
    named = {m.start for m in mentions} | {m.end for m in mentions}
    found = []
    for i in range(len(tokens) - 2):
        word = tokens[i + 2]
        alone = i not in named and i + 3 not in named
        if tokens[i] in _GROUPS and tokens[i + 1] == "of" and _number(word) and alone:
            n = int(word) if word.isdigit() else COUNTS[word][0]
            found.append(Count("person", word, n, n, i + 2, i + 3))
    return found


_HERDS = frozenset({"herd", "pack", "flock", "pod", "pride", "troop"})
# What stands in a row: "a row of sailboats", "a line of taxis" (two or more, ``_count_word``).
_ROWS = frozenset({"row", "rows", "line", "lines", "fleet", "queue", "column", "rank"})


def _count_after(tokens: list[str], mention: Mention) -> Found | None:
    """The count a checklist states after ``mention`` ("Cups: two", "Children present: two"), or
    an apposition ("chairs, thirty of them,"), else ``None``."""
    at = mention.end
    while at < len(tokens) and tokens[at] in _STATED - {","}:
        at += 1
    first = tokens[at] if at < len(tokens) else ""
    if first not in _AFTER | {","}:
        return None
    at += 1
    while at < len(tokens) and tokens[at] in _STATED | _ABOUT:  # "commuters, maybe thirty of them"
        at += 1
    word = tokens[at] if at < len(tokens) else ""
    if (word not in COUNTS and not word.isdigit()) or word in ARTICLES:
        return None
    of_them = tokens[at + 1 : at + 3] == ["of", "them"]  # "not without chairs, thirty of them"
    after = at + 3 if of_them else at + 1
    closes = tokens[after] if after < len(tokens) else "."
    if closes not in {",", ";", ".", ")", "and"}:
        return None  # "Fruit bowl: 2 oranges": the count of the next noun
    return (word, at) if of_them or first != "," or closes in {";", ".", ")"} else None


_PORTIONS = frozenset({"slice", "slices", "piece", "pieces", "wedge", "wedges"})
_OWNERS = POSSESSIVES | {"the", "these", "those"}
_SOLE = frozenset({"only", "sole", "one", "single", "lone"})
_THING = frozenset({"thing", "item", "object", "one", "piece"})


def _count_predicate(tokens: list[str], mention: Mention) -> Found | None:
    """The count a predicate states of a singular ``mention``: "the laptop is the sole item on
    the bed", "cake is the one and only thing" (one), else ``None``."""
    after = tokens[mention.end : mention.end + 6]
    last = tokens[mention.end - 1]
    if len(after) < 4 or after[0] not in COPULAS or after[1] != "the" or after[2] not in _SOLE:
        return None
    at = 3
    while at < len(after) - 1 and after[at] not in _THING and after[at] in _SOLE | {"and"}:
        at += 1
    if after[at] in _THING and singular(last) == last:
        return ("sole", mention.end + 2)
    return None


# What one thing does by itself, said after it: "the bear is alone", "the kite flies on its own",
# "the giraffe has the place to itself"; and "nobody but the dog", said before it.
_BY_ITSELF = (
    ("alone",), ("by", "itself"), ("by", "himself"), ("by", "herself"), ("on", "its", "own"),
    ("on", "his", "own"), ("on", "her", "own"), ("to", "itself"), ("to", "himself"),
    ("to", "herself"),
)  # fmt: skip
_NONE_BUT = frozenset({"nobody", "one"})  # "no one but"; "nothing but sheep" may be many


def _alone(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """One of what a sentence says is by itself: the singular name before "alone", "by
    itself", "on its own" or "to itself", the first of its clause ("the collie works the flock
    on her own": the collie), or after "nobody but the"."""
    found = []
    for i in range(len(tokens)):
        phrase = next((p for p in _BY_ITSELF if tuple(tokens[i : i + len(p)]) == p), None)
        if phrase is not None:
            before = [m for m in mentions if m.end <= i]
            clause = [m for m in before if not {",", ";", ".", ":"} & set(tokens[m.end : i])]
            subject = clause[0] if clause else before[-1] if before else None
        elif tokens[i] == "but" and i and tokens[i - 1] in _NONE_BUT:
            subject = next((m for m in mentions if i < m.start <= i + 3), None)
        else:
            continue
        if subject is not None and singular(tokens[subject.end - 1]) == tokens[subject.end - 1]:
            found.append(Count(subject.name, "alone", 1, 1, i, subject.end))
    return found


# What is set apart from a denial of its kind: "apart from the pilot, there are no people".
_EXCEPTIONS = (("apart", "from"), ("aside", "from"), ("besides",), ("except",), ("for",),
               ("other", "than"), ("save",), ("but",))  # fmt: skip


def _one_of_its_kind(
    tokens: list[str], mentions: list[Mention], bare: list[Mention]
) -> list[Count]:
    """One of what a sentence names with no count and denies any other of: "the dog (...)
    with no other dogs", "no other dog besides the beagle", "apart from the pilot, there are no
    people" (or nobody). ``bare``: the mentions no count word counts."""
    denied: dict[str, list[Mention]] = {}
    for m in mentions:
        if {"no", "not"} & set(tokens[max(0, m.start - 3) : m.start]):
            denied.setdefault(m.name, []).append(m)  # "no other dogs", "not one person"
    said = " ".join(tokens)
    nobody = "nobody" in tokens or "no one" in said
    thing = re.search(r"\b(?:not|t) (?:a|one|a single) thing\b", said)  # "isn't a thing"
    nothing = bool(VOID_WORDS & set(tokens) or thing)
    found = []
    for m in bare:
        last = tokens[m.end - 1]
        kin = [d for d in denied.get(m.name, []) if d is not m]
        if m in denied.get(m.name, []) or singular(last) != last:
            continue
        # "lorry jackknifed across the road, no other vehicles": its kind's others denied
        kinds = [d for k, ds in denied.items() if m.name in HYPERNYMS.get(k, ()) for d in ds]
        others = [d for d in kin + kinds if "other" in tokens[max(0, d.start - 2) : d.start]]
        named = [n for n in mentions if n.name == m.name and n not in kin]
        before = tokens[: _owner_start(tokens, m.start)] if m.start else []
        set_apart = any(tuple(before[-len(p) :]) == p for p in _EXCEPTIONS)
        # "apart from the pilot, nobody", "there isn't a thing on the counter besides the toaster"
        alone = kin or (m.name == "person" and nobody) or nothing
        if (others and named == [m]) or (set_apart and alone):
            found.append(Count(m.name, "alone", 1, 1, max(m.start - 1, 0), m.end))
    return found


def _but_the_one(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """One of what a denial sets a pronoun apart from: "no dogs except the one on the porch",
    "no cars on the street but a single one"."""
    found = []
    for m in mentions:
        after = tokens[m.end : m.end + 9]
        denied = "no" in tokens[max(0, m.start - 3) : m.start]
        found += [
            Count(m.name, "one", 1, 1, m.end + i, m.end)
            for p in _EXCEPTIONS
            for i in range(len(after) - len(p))
            if denied and tuple(after[i : i + len(p)]) == p and _the_one(after[i + len(p) :])
        ]
    return found


def _the_one(words: list[str]) -> bool:
    """Whether ``words`` start with a pronoun for one thing: "(for) the one", "a single one",
    "ours" ("no other cars on the ferry besides ours")."""
    words = words[1:] if words[:1] == ["for"] else words
    if words[:1] and words[0] in THEIRS:
        return words[1:2] != ["are"] and words[1:2] != ["were"]
    return words[:2] in (["the", "one"], ["a", "one"]) or words[:3] == ["a", "single", "one"]


def _owner_start(tokens: list[str], start: int) -> int:
    """Where the determiner of a mention starting at ``start`` starts: "the", "his", "her", or
    "the lifeguard's" (tokenized "the lifeguard s"); 0 where there is none."""
    if tokens[start - 1] in {"the", "his", "her"}:
        return start - 1
    if start >= 3 and tokens[start - 1] == "s" and tokens[start - 3] == "the":
        return start - 3
    return 0


def _paired(tokens: list[str], bare: list[Mention]) -> list[Count]:
    """One each of two singular names of one object with no count word, joined by "and" as a
    headline writes them ("foal and mare", "bride & groom", "Mum and the baby": two horses, two
    people) or one name said again after a comma ("car, car, truck"), or two different names
    the second of which the first stands beside, in one clause ("foal standing on wobbly legs
    beside the mare"), or lies on ("newborn asleep on Dad's chest")."""
    found = []
    ones: dict[int, Mention] = {}  # "dog and dog and dog": three, each counted once
    for m, n in itertools.pairwise(bare):
        if m.name != n.name or not all(_one(tokens, x) for x in (m, n)):
            continue
        between = tokens[m.end : n.start]
        again = tokens[m.end - 1] == tokens[n.end - 1]
        if (set(between[:1]) <= {"and"} and set(between[1:]) <= _THE - {"a", "an"}) or (
            # "Parked: car, car, truck": two cars ("sheep, sheep, more sheep": a flock)
            again and between == [","] and plural(tokens[m.end - 1]) != tokens[m.end - 1]
        ):
            ones |= {m.start: m, n.start: n}
        elif not again and (
            _beside(between) or _on_body(between, tokens[n.end : n.end + 2])
        ):  # two, as one claim
            found.append(Count(m.name, "a", 2, 2, m.start, n.end))
    return found + [Count(x.name, "a", 1, 1, x.start, x.end) for x in ones.values()]


def _with_its_mother(tokens: list[str], bare: list[Mention]) -> list[Count]:
    """An animal, one, with "its mother" later in its clause ("elephant calf following its
    mother", "a foal nuzzling her mum": the mother named by no label's word), or a young one
    with the grown one its label also names ("foal nuzzling the mare"): two of it."""
    found = []
    starts = {n.start: n for n in bare}
    for m in bare:
        if m.name not in _ANIMALS or not _one(tokens, m):
            continue
        mother = _mother_after(tokens, m)
        if mother:
            found.append(Count(m.name, "a", 2, 2, m.start, mother))
            continue
        for i in range(m.end, len(tokens) - 1):
            if not tokens[i][0].isalnum() and tokens[i] != ",":
                break  # the sentence ends ("foal in the straw, the mare over it": one more)
            grown = starts.get(i + 1)
            if (
                tokens[m.end - 1] in _YOUNG_OF
                and tokens[i] in {"the", "its", "her"}
                and grown is not None
                and grown.name == m.name
                and _one(tokens, grown)
            ):
                found.append(Count(m.name, "a", 2, 2, m.start, grown.end))
                break
    return found


def _mother_after(tokens: list[str], m: Mention) -> int | None:
    """Where "its mother" ("their mother" of many) ends, said later in the clause of an animal
    ``m``, if it is."""
    own = {"their"} if not _one(tokens, m) else {"its", "her", "his"}  # of one, or of many
    for i in range(m.end, len(tokens) - 1):
        if not tokens[i][0].isalnum():
            return None  # the clause ends
        if tokens[i] in own and tokens[i + 1] in _PARENT:
            return i + 2
    return None


def _seats_taken(tokens: list[str]) -> list[Count]:
    """People counted by the seats they take: "only one of the four chairs is taken" (one
    person), "just two of the seats are occupied"."""
    found = []
    for i, word in enumerate(tokens[:-3]):
        number = tokens[i + 1]
        if word not in {"only", "just"} or number not in COUNTS:
            continue
        if tokens[i + 2 : i + 4] != ["of", "the"]:
            continue
        for k in range(i + 4, min(len(tokens) - 1, i + 14)):
            if not tokens[k][0].isalnum():
                break  # the clause ends
            if tokens[k] in {"is", "are", "was", "were"} and tokens[k + 1] in _TAKEN:
                fewest, most = COUNTS[number]
                said = "alone" if number == "one" else number  # one person, as "alone" is
                found.append(Count("person", said, fewest, most, i + 1, i + 2))
                break
    return found


# What one person wears or carries, one each: "three of the guests wore ties".
_WEARS = frozenset(
    {"wore", "wear", "wears", "wearing", "sported", "sporting", "carried", "carry", "carries",
     "carrying", "held", "hold", "holds", "holding"}
)  # fmt: skip


def _worn_by(tokens: list[str], found: list[Count], mentions: list[Mention]) -> list[Count]:
    """As many of a plural as the people counted among others wear or carry: "only three of
    the guests wore ties" (three ties), "two of the hikers carry umbrellas"."""
    worn = []
    for c in found:
        if c.name != "person" or not _partitive(tokens, c.at) or c.fewest < 1:
            continue
        if c.end >= len(tokens) or tokens[c.end] not in _WEARS:
            continue
        for m in mentions:
            last = tokens[m.end - 1]
            if m.start == c.end + 1 and m.name != "person" and singular(last) != last:
                worn.append(Count(m.name, c.word, c.fewest, c.fewest, c.at, m.end))
    return worn


def _gear_alone(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """One of what a rider's word implies where every other is denied: "a cyclist rides down
    the lane with no other bikes" (one bicycle)."""
    riders = {GEAR[t] for t in tokens if t in GEAR}  # one rider: "a cyclist", not "cyclists"
    found = []
    for name in riders:
        said = [m for m in mentions if m.name == name]
        others = [m for m in said if m.start and tokens[m.start - 1] == "other"]
        if others and len(others) == len(said):
            found.append(Count(name, "alone", 1, 1, others[0].start - 1, others[0].end))
    return found


def _with_young(tokens: list[str], mention: Mention, named: set[int]) -> bool:
    """ "an elephant and her calf", "a giraffe with its calf", "a bull elephant and a calf"
    (no other animal has one here), "an elephant walks with its calf": a young one no label's
    word names."""
    theirs = {"her", "its"} | (ARTICLES if mention.name in _CALVES else set())
    for i in range(mention.end, min(mention.end + 4, len(tokens) - 2)):
        young = tokens[i : i + 3]
        if young[0] in {"and", "with", "beside", "alongside"}:
            return young[1] in theirs and young[2] in _YOUNG and i + 2 not in named
        if not tokens[i].isalpha() or i in named:
            return False  # the clause ends, or names another
    return False


def _young_ones_after(tokens: list[str], mention: Mention) -> bool:
    """Young ones, in the plural and uncounted, later in the clause of a grown one whose label
    no other young name has: "an elephant leads the calves down to the river"."""
    for i in range(mention.end, min(mention.end + 6, len(tokens) - 1)):
        if not tokens[i].isalnum():
            return False
        if tokens[i] in _THE and tokens[i + 1] != singular(tokens[i + 1]):
            return singular(tokens[i + 1]) in _YOUNG
    return False


def _young_counted(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """Young ones counted beside a grown one whose label no other young name has: "one brown
    bear and two cubs" (two more bears), "an elephant with her three calves"."""
    found = []
    for m in mentions:
        if m.name not in _CALVES:
            continue
        for i in range(m.end, min(m.end + 5, len(tokens) - 1)):
            if not tokens[i].isalnum():
                break
            word, young = tokens[i], singular(tokens[i + 1])
            if _number(word) and young in _YOUNG:
                n = int(word) if word.isdigit() else COUNTS[word][0]
                found.append(Count(m.name, word, n, n, i, i + 2))
                break
    return found


def _young_before(tokens: list[str], mention: Mention, mentions: list[Mention]) -> bool:
    """A young one of ``mention``'s kind named just before it, with no count of its own:
    "calf suckling from a Jersey cow", "foal beside a mare"."""
    young = max((m for m in mentions if m.end <= mention.start), key=lambda m: m.end, default=None)
    between = tokens[young.end : mention.start] if young else []
    return (
        young is not None
        and young.name == mention.name
        and tokens[young.end - 1] in _YOUNG_OF
        and (young.start == 0 or tokens[young.start - 1] in {",", ";", ".", "|"})
        and len(between) <= 4
        and all(t.isalpha() for t in between)
    )


_CALVES = frozenset({"elephant", "giraffe", "zebra", "bear"})  # young no other label's word names


_TAKEN = frozenset({"taken", "occupied"})
_YOUNG = frozenset({"calf", "cub", "baby", "young", "youngster", "joey", "infant"})
_ANIMALS = frozenset(HYPERNYMS["animal"])
_PARENT = frozenset({"mother", "mom", "mum", "mama", "dam"})
# Young animals a label's own words name ("foal", "lamb"): with "the mare", two of it.
_YOUNG_OF = frozenset(
    {"foal", "colt", "filly", "lamb", "kid", "puppy", "pup", "kitten", "cub", "calf", "piglet",
     "fawn", "chick", "duckling", "gosling", "cygnet"}
)  # fmt: skip
_BESIDE = frozenset({"beside", "alongside", "with", "near"})
_THE = frozenset({"the", "a", "an", "her", "his", "its", "their"})


def _beside(between: list[str]) -> bool:
    """The words between two names end in "beside the", "next to her", "with a"... and hold no
    stop: the second stands beside the first."""
    rest = between[:-1] if between and between[-1] in _THE else between
    near = bool(rest) and (rest[-1] in _BESIDE or rest[-2:] == ["next", "to"])
    return near and not any(not word[0].isalnum() for word in between)


def _on_body(between: list[str], after: list[str]) -> bool:
    """ "newborn asleep on Dad's chest": the second name's owner holds the first."""
    return (
        bool(between)
        and between[-1] in {"on", "in", "against", "across"}
        and all(word[0].isalnum() for word in between)
        and len(after) == 2
        and after[0] == "s"
        and after[1] in _BODY
    )


_BODY = frozenset({"chest", "lap", "arms", "arm", "shoulders", "shoulder", "back", "knee", "hip"})


def _one(tokens: list[str], mention: Mention) -> bool:
    last = tokens[mention.end - 1]
    return singular(last) == last and last not in _GROUPS | _TWO


def _tokens(text: str) -> list[str]:
    """The words, numbers and stops of ``text`` where a number may be a count."""
    text = _DASH.sub(" ; ", AND_SIGN.sub(" and ", text.lower()))
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


# A listing's multiplier, before or after the name it counts: "2x chairs", "chairs (x4)".
_TIMES_BEFORE = re.compile(r"\b(\d+) ?[x\u00d7] ?(?=[a-z]{2})")
_TIMES_AFTER = re.compile(r"\b([a-z]{2,}) \(?[x\u00d7] ?(\d+)\b\)?")


def _another(tokens: list[str]) -> bool:
    """ "... while another watches", "... the other sleeps" (not "no other boats")."""
    return "another" in tokens or any(
        w in {"other", "others"} and i and tokens[i - 1] == "the" for i, w in enumerate(tokens)
    )


def counts(text: str, names: Mapping[str, tuple[str, ...]]) -> list[Count]:
    """The counts ``text`` states for the objects ``names`` (name -> its terms)."""
    return _counts(text, names)[0]


def _counts(text: str, names: Mapping[str, tuple[str, ...]]) -> tuple[list[Count], set[str]]:
    """``counts``, and the names ``text`` also gives as someone's, in the plural and with no
    count ("a woman and her children": as many people as there are, two at least), or with no
    determiner beside no number ("Commuters huddle, a man checks his phone"). A plural
    said again ("two dogs ... just the dogs") or denied ("no other dogs") adds none."""
    tokens = _tokens(text)
    found: list[Count] = []
    uncounted = set()
    bare_plurals: dict[str, list[Mention]] = {}  # name -> its bare plurals
    definite: dict[str, Mention] = {}  # name -> "the man" said before any count of it
    mentions = find_mentions(tokens, build_index(names))
    named = {i for m in mentions for i in range(m.start, m.end)}
    starts = {m.start: m.name for m in mentions}
    for mention in mentions:
        stated = (
            _group_of(tokens, mention)
            or _count_word(tokens, mention, named, starts)
            or _count_after(tokens, mention)
            or _count_predicate(tokens, mention)
        )
        if stated is None:
            last = tokens[mention.end - 1]
            own = starts.get(mention.end, mention.name) == mention.name
            theirs = POSSESSIVES & set(tokens[max(0, mention.start - 2) : mention.start])
            if singular(last) != last and own and (theirs or _served(tokens, mention)):
                uncounted.add(mention.name)
            elif singular(last) != last and own and _bare_plural(tokens, mention):
                bare_plurals.setdefault(mention.name, []).append(mention)
            elif (
                singular(last) == last
                and _definite(tokens, mention.start)
                and not any(c.name == mention.name for c in found)
            ):
                definite.setdefault(mention.name, mention)
            continue
        word, at = stated
        if tokens[at - 1 : at] in (["hardly"], ["scarcely"], ["barely"]):
            continue  # "hardly a table without a wine glass": nearly every one of many
        each = _each_of(tokens, at, mention.end, found) if word in ARTICLES else None
        if each is not None:  # "seven horses trot by, each carrying a rider": seven riders
            found.append(Count(mention.name, word, each.fewest, each.most, at, mention.end))
            continue
        if word in ARTICLES and _distributive(tokens, at):
            continue  # "not a single table without a wine glass on it": one each
        if tokens[mention.end : mention.end + 1] in (["per"], ["each"], ["apiece"]):
            continue  # "three cats, one cat per chair", "a lamp each": one for each of many
        if word in ARTICLES and tokens[at - 1 : at] and tokens[at - 1] in _LACKING_ANY:
            continue  # "you can't say it lacks a microwave": any at all, however many
        before = tokens[max(0, at - 2) : at]
        if before[-1:] in (["no"], ["not"]) or before in (
            ["not", "a"],
            ["not", "an"],
            ["nowhere", "a"],
        ):
            # "not a parent in sight", "not a single fork", "no two dogs alike": a count of none
            # there (``DENIED``); but "not just three sheep", "isn't without a microwave"
            found.append(Count(mention.name, word, 0, DENIED, at, mention.end))
            continue
        fewest, most = (int(word), int(word)) if word.isdigit() else COUNTS[word]
        if word == "dozen" and "half" in tokens[max(0, at - 2) : at]:
            fewest = most = 6  # "a half dozen ducks", "half a dozen"
        if _at_least(tokens, at):
            most = None  # "no fewer than five kites": five or more
        if most is not None and _approximate(tokens, at, most):
            slack = max(1, most // 4)  # "about thirty of us": some more or fewer; "nearly ten"
            under = tokens[at - 1] in {"nearly", "almost"}
            fewest, most = max(1, fewest - slack), most if under else most + slack
        if _partitive(tokens, at) and tokens[at - 1 : at] != ["all"] and word != "both":
            most = None  # "three of the dogs": of more, maybe; "all three of them": three
        if word == "one" and _another(tokens[mention.end :]):
            fewest = most = 2  # "one dog chases a ball while another watches": two
        if mention.name in _ANIMALS and most == 1 and _with_young(tokens, mention, named):
            fewest = most = 2  # "an elephant and her calf": the calf no label names
        if mention.name in _ANIMALS and most is not None and _mother_after(tokens, mention):
            # "a foal trots beside its mother", "two ducklings paddle after their mother"
            fewest, most = fewest + 1, most + 1
        if mention.name in _ANIMALS and most == 1 and _young_before(tokens, mention, mentions):
            fewest = most = 2  # "calf suckling from a Jersey cow"
        if mention.name in _CALVES and most == 1 and _young_ones_after(tokens, mention):
            fewest, most = 3, None  # "an elephant matriarch leads the calves to the river"
        if word in GRAMMAR and tokens[mention.end - 1] in _HERDS | _GROUPS:
            fewest, most = 2, None  # "the shepherd leads his flock": one flock, of sheep
        found.append(Count(mention.name, word, fewest, most, at, mention.end))
    # "The vendor hands a hot dog to a teenager": one before the one counted, two in all; but
    # "the chef, a young woman": the same one
    found += [
        Count(name, "the", 1, 1, m.start, m.end)
        for name, m in definite.items()
        if any(c.name == name and c.at > m.end and tokens[m.end : c.at] != [","] for c in found)
    ]
    bare = [m for m in mentions if not any(c.end == m.end for c in found)]
    more = (
        _listed_ones(tokens, found, bare)
        + _alone(tokens, mentions)
        + _one_of_its_kind(tokens, mentions, bare)
        + _but_the_one(tokens, mentions)
        + _paired(tokens, bare)
        + _with_its_mother(tokens, bare)
        + (_seats_taken(tokens) if "person" in names else [])
        + _people_of(tokens, names, mentions)
        + _gear_alone(tokens, mentions)
        + _worn_by(tokens, found, mentions)
        + _young_counted(tokens, mentions)
        + _bound_counts(tokens, mentions)
    )
    # "Commuters huddle, a man checks his phone": more people than the man; but "3 people,
    # people smiling" says the three again, as "4 kids, children playing" may: of people, any
    # word may say them again, of others only the same ("geese, a pair of swans": more birds)
    numbered = [c for c in found if c.numbered]
    # ... and "Birds, yes - three pigeons on the sill": a count right after says which
    again = {
        c.name
        for c in numbered
        for m in bare_plurals.get(c.name, ())
        if c.name == "person"
        or singular(tokens[c.end - 1]) == singular(tokens[m.end - 1])
        or (0 < c.at - m.end <= 3 and set(tokens[m.end : c.at]) <= _APPOSITION)
    }
    return found + more, uncounted | (set(bare_plurals) - again)


def _bare_plural(tokens: list[str], mention: Mention) -> bool:
    """Whether ``mention`` is a plural with no determiner that opens its clause or joins a list:
    "Commuters huddle under umbrellas, a man checks his phone" (people, more than the man)."""
    return mention.start == 0 or tokens[mention.start - 1] in _CLAUSE_OPENERS


def _served(tokens: list[str], mention: Mention) -> bool:
    """Whether ``mention`` is a plural with no determiner that others are said to be among,
    with or to serve: "a waitress carries pizzas to a table of students", "a guide walks among
    tourists" (more people than the waitress and the guide)."""
    before = tokens[max(0, mention.start - 2) : mention.start]
    return before[-1:] in (["to"], ["among"], ["with"], ["past"]) or before == ["table", "of"]


_CLAUSE_OPENERS = frozenset({",", ";", ".", ":", "(", "and", "while", "as", "but", "where", "with"})
# What may stand between a plural and the count that says which they are: "Birds, yes - three".
_APPOSITION = frozenset({",", ";", ":", "(", "yes"})


def _listed_ones(tokens: list[str], found: list[Count], bare: list[Mention]) -> list[Count]:
    """One each of the singular names listed beside a count of their kind: "a bride and groom"
    (two people), "Grandad, mum and two kids" (four)."""
    counted = [c for c in found if c.word in ARTICLES | EXPLICIT or c.word.isdigit()]
    ones = []
    for name in {c.name for c in counted}:
        singles = [m for m in bare if m.name == name and _one(tokens, m)]
        filler = {i for m in singles for i in range(m.start, m.end)} | {
            i for i, t in enumerate(tokens) if t in {",", "and"}
        }
        spans = sorted(
            [(m.start, m.end) for m in singles] + [(c.at, c.end) for c in counted if c.name == name]
        )
        listed: set[tuple[int, int]] = set()
        for (s1, e1), (s2, e2) in itertools.pairwise(spans):
            if e1 < s2 and set(range(e1, s2)) <= filler:
                listed |= {(s1, e1), (s2, e2)}
        ones += [
            Count(name, "a", 1, 1, m.start, m.end) for m in singles if (m.start, m.end) in listed
        ]
    return ones


def _distributive(tokens: list[str], at: int) -> bool:
    """Whether the article at ``at`` counts one for each of many: "not a single table without
    a wine glass on it", "every bench has a pigeon on it", "not one of the motorbikes lacked a
    rider", "everyone's got a phone out". ("A spoon in each" of two cups is a count, two.)"""
    if at < 1 or tokens[at - 1] not in _EACH_VERBS:
        return False
    clause = set(itertools.takewhile(lambda t: t[0].isalnum(), reversed(tokens[: at - 1])))
    if clause & {"every", "each", "always", "hardly", "scarcely", "never", "everyone", "everybody"}:
        return True
    return tokens[at - 1] in _LACKING and bool(clause & {"not", "no", "nobody"})


_LACKING = frozenset({"without", "lacked", "lacks", "lack", "lacking"})
_LACKING_ANY = _LACKING | {"missing"}  # "lacks a microwave": not even one


def _definite(tokens: list[str], start: int) -> bool:
    """Whether the mention at ``start`` opens with "the", "this" or "that", past an adjective:
    "the street vendor", "the man"."""
    before = tokens[max(0, start - 2) : start]
    return before[-1:] in (["the"], ["this"], ["that"]) or (
        len(before) == 2 and before[0] == "the" and before[1].isalpha() and before[1] not in COUNTS
    )


def _each_of(tokens: list[str], at: int, end: int, found: list[Count]) -> Count | None:
    """The count of the many an article after "each" counts one for: "seven horses, each
    carrying a rider", "two dogs, each with a ball", or before it: "both kids hold a kite each";
    ``None`` where no count came before."""
    after = tokens[end : end + 1] in (["each"], ["apiece"])
    before = "each" in tokens[max(0, at - 3) : at] and at > 0 and tokens[at - 1] in _EACH_VERBS
    if not (after or before):
        return None
    counted = [c for c in found if c.at < at and c.word not in GRAMMAR]
    return counted[-1] if counted else None


_EACH_VERBS = _LACKING | {"with", "has", "have", "had", "got", "holds", "hold", "holding",
                          "carries", "carry", "carrying"}  # fmt: skip


_TWO = frozenset({"couple", "newlyweds"})  # people two at a time
_ABOUT = frozenset(
    {"about", "around", "roughly", "approximately", "nearly", "almost", "some", "maybe", "perhaps"}
)


def _approximate(tokens: list[str], at: int, most: int) -> bool:
    """Whether the number at ``at`` is said roughly: "about thirty of us", "nearly ten bikes";
    "around" only of many ("around forty guests"), not "chairs around one table"."""
    word, before = tokens[at], tokens[at - 1] if at else ""
    if before not in _ABOUT or not (word in NUMERALS or word.isdigit()):
        return False
    return before != "around" or most >= 10


_AT_LEAST = frozenset(
    {("no", "fewer", "than"), ("no", "less", "than"), ("not", "fewer", "than"), ("at", "least")}
)


def _at_least(tokens: list[str], at: int) -> int:
    """How many words before ``at`` say "or more" ("no fewer than", "at least"); 0 if none."""
    return next((len(p) for p in _AT_LEAST if tuple(tokens[max(0, at - len(p)) : at]) == p), 0)


def _partitive(tokens: list[str], at: int) -> bool:
    """Whether the count at ``at`` counts some of the ones named after it: "three of the dogs",
    "two of our guests"."""
    of_the = tokens[at + 1 : at + 3]
    return len(of_the) == 2 and of_the[0] == "of" and of_the[1] in _OWNERS


def stray_number(text: str, stated: list[Count]) -> bool:
    """Whether ``text`` has a number that is none of the counts ``stated`` of its objects:
    "there are five", "a set of 4". Such a count is a claim no box can check. Zero and "one"
    (a pronoun as often as a count) are left out."""
    tokens = _tokens(text)
    used = {count.at for count in stated}
    return any(
        i not in used
        and (
            (
                (word in NUMERALS or (word.isdigit() and 0 < int(word) < 100))
                and not _time(tokens, i)
                and not (word.isdigit() and i > 0 and tokens[i - 1] in _MODELS)
            )
            or _pronoun_count(tokens, i)
        )
        for i, word in enumerate(tokens)
    )


# A camera's, a drone's or a phone's model: "DJI Mavic 2", "iPhone 12", "GoPro Hero 9".
_MODELS = frozenset({"mavic", "iphone", "pixel", "hero", "gopro", "phantom", "eos", "xperia"})
_CAUGHT = frozenset(
    {"caught", "spotted", "saw", "seen", "got", "found", "shows", "showed", "captured"}
)
_THERE_IS = (["there", "s"], ["there", "is"], ["there", "was"])


def _pronoun_count(tokens: list[str], i: int) -> bool:
    """A count of what an earlier clause named: "there's a pair of them", "this shot caught
    one"."""
    word, after = tokens[i], tokens[i + 1 : i + 3]
    if word == "pair":
        return after in (["of", "them"], ["of", "these"], ["of", "those"])
    ends = not after or after[0] in {",", ".", ";", ":", "and", "but", "too", "here", "today"}
    caught = (i > 0 and tokens[i - 1] in _CAUGHT) or tokens[i - 2 : i] in _THERE_IS
    return word == "one" and ends and caught


# A count with no noun after what says there are some, or who has some: "it's not that there
# are no cars: there's one", "you can't say the kitchen lacks a microwave, since it has two",
# "there's a pair of them", "not a room without a plant: the bathroom has one"
# (``_bound_counts``).
_THERE_ARE_SOME = (
    ["there", "s"],
    ["there", "is"],
    ["there", "are"],
    ["there", "was"],
    ["there", "were"],
)
_HAVING = frozenset(
    {"has", "have", "had", "holds", "hold", "held", "carries", "carry", "carried", "brings",
     "bring", "brought", "uses", "used", "gets", "got", "finds", "found", "wears", "wore",
     "shares", "shared", "grabs", "grabbed"}
)  # fmt: skip
_CLAUSE_ENDS = PREPOSITIONS | {",", ".", ";", ":", "(", ")", "and", "but", "too", "though", "left"}


def _bound_counts(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """Counts with no noun, each of the one name the clause before names: "it's not that there
    are no cars: there's one" (one car); none where that clause names two ("no dog on the sofa;
    there is one on the floor"). ``count_problem`` holds them to a name the caption affirms."""
    found = []
    for i, word in enumerate(tokens):
        of_them = tokens[i + 1 : i + 3] == ["of", "them"]  # "there are six of them"
        pair = word == "pair" and tokens[i - 1 : i] == ["a"] and of_them
        start = i - 1 if pair else i
        end = i + 3 if of_them else i + 1
        counted = pair or word == "one" or _number(word)
        # "there are no fewer than five": five or more
        least = _at_least(tokens, start)
        there = tokens[start - least - 2 : start - least] in _THERE_ARE_SOME
        # "it's not that there are no bikes - three are chained to the railings"
        some_are = start > 0 and tokens[start - 1] in _CLAUSE_STOPS and word != "one"
        some_are = some_are and tokens[end : end + 1] in (["are"], ["were"])
        if not counted or not (there or some_are or (start > 0 and tokens[start - 1] in _HAVING)):
            continue
        if tokens[end : end + 1] and tokens[end] not in _CLAUSE_ENDS and not some_are:
            continue  # "there are three lamps": a count of what no name is
        name = _clause_before(tokens, mentions, start - least - (0 if some_are else 1))
        if name is not None:
            fewest, most = (int(word), int(word)) if word.isdigit() else COUNTS[word]
            # "three are yellow and one is still green": four; "no fewer than five": or more
            more = _rest_are(tokens, end) if some_are else 0
            fewest, most = fewest + more, None if least or most is None else most + more
            found.append(Count(name, word, fewest, most, i, end, bound=True))
    return found


_CLAUSE_STOPS = frozenset({",", ";", ".", ":", "("})
_BEING = frozenset({"is", "are", "was", "were"})


def _rest_are(tokens: list[str], end: int) -> int:
    """How many more the sentence's next parts count after a part ends at ``end``: "three are
    yellow and one is still green" (one more)."""
    more = 0
    for i in range(end, len(tokens) - 2):
        if tokens[i] == ".":
            break
        word = tokens[i + 1]
        part = tokens[i] in {"and", ",", ";", "but", "while"} and tokens[i + 2] in _BEING
        if part and (word == "one" or _number(word)):
            more += int(word) if word.isdigit() else COUNTS[word][0]
    return more


def _clause_before(tokens: list[str], mentions: list[Mention], at: int) -> str | None:
    """The one name the clause before the one at ``at`` mentions, if its own names none."""
    stops = [k for k in range(at) if tokens[k] in _CLAUSE_STOPS]
    if not stops:
        return None
    end = stops[-1]
    start = stops[-2] if len(stops) > 1 else -1
    if any(end < m.start < at for m in mentions):
        return None
    names = {m.name for m in mentions if start < m.start and m.end <= end}
    return names.pop() if len(names) == 1 else None


def _time(tokens: list[str], i: int) -> bool:
    """ "at 4 a.m.", "reads nine", "11:58": a clock's number, and "a table for two", "for two
    hours": a size or a span; no count. (Numbers of three digits or more, "IMG_2041.jpg",
    "1920x1080", are never taken for counts.)"""
    before = tokens[i - 1] if i else ""
    after = tokens[i + 1 : i + 3]
    clock = before == ":" and tokens[i].isdigit() and i > 1 and tokens[i - 2].isdigit()
    return (
        clock  # "11:58", not "wine glasses: six of them"
        or before in {"at", "reads", "read", "past", "for", "seats", "sleeps", "serves"}
        or after[:1] in (["am"], ["pm"], ["oclock"], [":"])
        or after in (["a", "."], ["p", "."], ["a", "m"], ["p", "m"])
    )


_JOINS = frozenset({"and", ",", "a", "an", "the"}) | POSSESSIVES  # "a woman and her two daughters"


def _listed(stated: list[Count], tokens: list[str]) -> list[list[Count]]:
    """``stated`` in groups that count together: one name listed twice ("a man and a woman",
    "a pair of ducks and a lone swan") counts both; elsewhere ("the only person is a skier")
    each count is its own claim, as is one said again ("one airplane, and one airplane only") and
    two said of one mention ("a dog alone")."""
    groups: list[list[Count]] = []
    for count in sorted(stated, key=lambda c: c.at):
        last = next((g for g in reversed(groups) if g[-1].name == count.name), None)
        again = count.end < len(tokens) and tokens[count.end] in {"only", "alone"}
        same = last is not None and last[-1].end == count.end
        # "only one person, a woman", "two people, a man and a woman": the same ones again
        restated = last is not None and (
            _restates(last[-1], count, tokens) or _totals(last, count, tokens)
        )
        if last is not None and _brood(tokens, last[-1], count):
            last.append(count)  # "a mother duck leads eight ducklings": nine birds
        elif (
            last is not None
            and not (again or same or restated)
            and _joined(tokens, last[-1], count)
        ):
            last.append(count)
        else:
            groups.append([count])
    return groups


def _brood(tokens: list[str], parent: Count, young: Count) -> bool:
    """Whether ``young`` counts the young of the parent ``parent`` counts: "a mother duck leads
    eight ducklings"."""
    parental = _PARENT & set(tokens[parent.at : parent.end])
    return bool(parental) and singular(tokens[young.end - 1]) in _YOUNG_OF


def _joined(tokens: list[str], before: Count, count: Count) -> bool:
    """Whether ``count`` counts more of its name than ``before`` did: in a list ("a man and a
    woman"), or more said in passing ("a man tosses a frisbee to his son", "a man without a tie
    sits beside a woman", "a ship is docked beside a row of sailboats", "a mother with three
    children", ``_others``); not the same ones again ("the only person is a skier", "a man
    dressed as a clown")."""
    between = tokens[before.end : count.at]
    if set(between) <= _JOINS:
        return True
    more = count.word in ARTICLES | POSSESSIVES | _SOME or _others(tokens, before, count)
    return more and not _SAME_AGAIN & _saying(between)


# Words that may name again any people counted before: "a man and a woman ... two people".
_ANY_ONES = frozenset({"person", "people", "persons", "individual", "figure", "one", "adult"})


def _others(tokens: list[str], before: Count, count: Count) -> bool:
    """Whether a number counts others than the one counted before, by a word of their own: "a
    mother with three children", "a man with his two sons" (not "the two kids", nor "a
    man and a woman ... two people")."""
    if not count.numbered or count.fewest < 2:
        return False  # "a woman, one nurse on duty": maybe the same one
    if count.most is None or count.bound:
        return False  # "doesn't have an oven - it has two": the same ovens
    if tokens[count.at - 1] in {"the", "these", "those", "both", "all"}:
        return False
    if before.end - 1 == before.at:
        return False  # "two of the chairs are occupied, by a pair of old men": no word for them
    heads = {singular(tokens[before.end - 1]), singular(tokens[count.end - 1])}
    return len(heads) == 2 and not heads & _ANY_ONES


def _saying(between: list[str]) -> set[str]:
    """The words of ``between`` that may say what something is: not an auxiliary ("is docked",
    "is sitting") nor "as" that opens a clause ("nurses chat at the station as a porter wheels a
    bed past"), only "as" after a verb ("dressed as a clown", "serves as a table")."""
    said = set()
    for i, word in enumerate(between):
        after = between[i + 1] if i + 1 < len(between) else ""
        before = between[i - 1] if i else ""
        if word in COPULAS and after.endswith(("ed", "ing")):
            continue
        if word == "as" and before and not before.endswith(("ed", "s", "ing")):
            continue
        said.add(word)
    return said


# Counts with no upper bound, said of more besides those counted before: "several", "a few".
_SOME = frozenset(word for word, (_, most) in COUNTS.items() if most is None)


# Words between two counts of one name that make the second the first again.
_SAME_AGAIN = COPULAS | {
    "as", "like", ":", "(", "named", "called", "namely", "become", "becomes", "only", "just", "or",
    "exactly", "precisely", "alone",
}  # fmt: skip


def _restates(before: Count, count: Count, tokens: list[str]) -> bool:
    """Whether ``count`` names again what ``before`` counted, after a comma: "one person, a
    woman"."""
    return before.numbered and count.word in ARTICLES and "," in tokens[before.end : count.at]


def _totals(group: list[Count], count: Count, tokens: list[str]) -> bool:
    """Whether ``count``, set off after ``group`` by a dash, a colon or a bracket, sums it:
    "three cows and their calf - four head of cattle", "a man and two boys (three people)"."""
    if len(group) < 2 or not count.numbered or tokens[count.at - 1] not in {";", ":", "("}:
        return False
    bounds = [c.most for c in group if c.most is not None]
    most = sum(bounds) if len(bounds) == len(group) else None
    return count.fewest == sum(c.fewest for c in group) and count.most == most


def count_problem(
    text: str,
    polarities: Mapping[str, str],
    boxes: Mapping[str, int],
    lexicon: Lexicon,
    articles: bool = True,
) -> CountProblem | None:
    """``count_not_true`` when a count the sentence states for an object it affirms disagrees
    with the boxes ``boxes`` (label -> boxes at ``t_present``), ``count_unverified`` when a
    number or "lone" has no boxes to back it or counts no object it names, else ``None``. With
    ``articles`` false, "a dog" and "the bear is alone" (``GRAMMAR``) state no count."""
    terms = mention_terms(text, lexicon)
    stated, uncounted = _counts(
        text, {name: terms.get(name, lexicon.terms(name)) for name in polarities}
    )
    if stray_number(text, stated):
        return "count_unverified"
    if any(c.bound and polarities[c.name] != "affirmed" for c in stated):
        return "count_unverified"  # "no dog on the sofa; there is one on the floor"
    busy = _BUSY.search(text) is not None
    checked = [
        count
        for count in stated
        if polarities[count.name] == "affirmed"
        and count.most != DENIED
        and (articles or count.word not in GRAMMAR)
        and not (busy and count.name == "person" and count.word in GRAMMAR)
    ]
    people = 0  # the most people one group of counts says: "a jogger and a cyclist": two
    for said in _listed(checked, _tokens(text)):
        if said[0].name == "person":
            people = max(people, sum(c.fewest for c in said))
        members = lexicon.members(said[0].name)
        if not members & set(boxes):
            if any(c.numbered for c in said):
                return "count_unverified"
            continue
        seen = sum(boxes.get(label, 0) for label in members)
        bounded = [c.most for c in said if c.most is not None]
        # "a woman and her children", "commuters huddle, a man checks his phone": one more at
        # least (the man may be one of the commuters), and no upper bound
        some_more = said[0].name in uncounted
        too_many = len(bounded) == len(said) and seen > sum(bounded) and not some_more
        if seen < sum(c.fewest for c in said) + (1 if some_more else 0) or too_many:
            return "count_not_true"
    if (
        articles
        and _ME_ALONE.search(text)
        and exclusive(text, lexicon)
        and boxes.get("person", 1) != 1
    ):
        return "count_not_true"  # "just me and my bike" beside a second person
    alone = ALONE.search(text)  # "the chef works alone", not "a jogger and a cyclist on their own"
    if alone and people > 1 and alone.group(0).lower() in {"by themselves", "on their own"}:
        alone = None
    if polarities.get("person") == "affirmed" and alone:
        if "person" not in boxes:
            return "count_unverified"
        if boxes["person"] != 1:
            return "count_not_true"
    return None


def seats_taken(text: str) -> bool:
    """Whether ``text`` says seats are taken: "only two of the deckchairs are occupied" has
    someone in them."""
    return bool(_seats_taken(_tokens(text)))
