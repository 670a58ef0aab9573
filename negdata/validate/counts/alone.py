"""Counts of one said as being alone or the only one of a kind.

"the bear is alone", "the kite flies on its own", "nobody but the dog", "the dog with no other
dogs", "apart from the pilot, there are no people", "no dogs except the one on the porch",
"a cyclist rides down the lane with no other bikes", "just me and my bike".
"""

from __future__ import annotations

import re

from negdata.detect.lexicon import HYPERNYMS
from negdata.detect.vocab import singular
from negdata.validate.counts.words import Count, denied_before
from negdata.validate.exclusivity import VOID_WORDS
from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.words import (
    GEAR,
    THEIRS,
)

# One person by themselves, whoever the sentence says it of.
ALONE = re.compile(
    r"\b(?:alone|by (?:him|her|them)sel(?:f|ves)|on (?:his|her|their) own|"
    r"(?:no one|nobody) else)\b",
    re.IGNORECASE,
)


# ... and the speaker by themself: one person ("just me n my backpack").
ME_ALONE = re.compile(r"\b(?:just|only|simply) (?:me|myself)\b", re.IGNORECASE)


# What one thing does by itself, said after it: "the bear is alone", "the kite flies on its own",
# "the giraffe has the place to itself"; and "nobody but the dog", said before it.
_BY_ITSELF = (
    ("alone",), ("by", "itself"), ("by", "himself"), ("by", "herself"), ("on", "its", "own"),
    ("on", "his", "own"), ("on", "her", "own"), ("to", "itself"), ("to", "himself"),
    ("to", "herself"),
)  # fmt: skip
_NONE_BUT = frozenset({"nobody", "one"})  # "no one but"; "nothing but sheep" may be many


def by_itself(tokens: list[str], mentions: list[Mention]) -> list[Count]:
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


def one_of_its_kind(tokens: list[str], mentions: list[Mention], bare: list[Mention]) -> list[Count]:
    """One of what a sentence names with no count and denies any other of: "the dog (...)
    with no other dogs", "no other dog besides the beagle", "apart from the pilot, there are no
    people" (or nobody). ``bare``: the mentions no count word counts."""
    denied: dict[str, list[Mention]] = {}
    for m in mentions:
        if denied_before(tokens, m):
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


def but_the_one(tokens: list[str], mentions: list[Mention]) -> list[Count]:
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


def gear_alone(tokens: list[str], mentions: list[Mention]) -> list[Count]:
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
