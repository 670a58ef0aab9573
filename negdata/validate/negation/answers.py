"""Clauses that answer the one before: a denial ("Any phone? No."), a yes, or "a black one"
after "no white cars"."""

from __future__ import annotations

import re
from collections.abc import Mapping

from negdata.validate.negation.cues import POST
from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.words import (
    ANSWER_FILLERS,
    COPULAS,
    NUMBERS,
    NUMERALS,
    PREPOSITIONS,
    THEIRS,
    Polarity,
)

_HAS = r"(?:has|have|had|holds?|held|contains?|shows?)"
_NO_ANSWER = re.compile(
    r"^(?:(?:(?:also|again|still) )?(?:no|nope|nah|none|neither|zero|nil|absent|missing|gone"
    r"|all gone"
    r"|sold out|negative"
    r"|nowhere(?: to be (?:seen|found))?|lost|not a one|non-?existent"
    r"|not today|not (?:right )?now|not this time|towed(?: away)?|out|left (?:at )?home"
    r"|late|delayed|overdue|cancell?ed"  # "Train? Late."
    r"|out of (?:the )?(?:frame|picture|shot|view|sight))"
    r"(?: at all| whatsoever)?(?: ,|$)|none (?!of\b)|"
    r"not (?:here|one|really|at all|that i can see)(?: ,|$)|"
    r"not (?:a single )?one (?:in sight|in view|to be seen|anywhere)(?: ,|$)|"  # "Phones? Not one"
    r"none (?:does|do|did|is|are|here|that i can see|to be seen)\b|"
    r"(?:i|we) (?:do|did|can|could) not(?: (?:see|find|spot) (?:one|any|it|them))?(?: ,|$)|"
    r"(?:me|us) neither\b|neither do (?:i|we)\b|"
    r"(?:it|they) (?:does|do|did) not(?: ,|$)|"
    r"there (?:is|are|was|were) (?:none|no such|not (?:one|any)"
    r"(?= ,|$| (?:on|in|at|here|there|anywhere|around|near|by|left)\b))\b|"
    r"there (?:is|are|was|were) not(?: ,|$)|"
    # "Not an hour passes without a train, but right now the platform has none"
    rf"(?:the|this|that|its|our|my|his|her|their) (?!one\b)(?:[a-z]+ ){{0,2}}{_HAS} "
    r"(?:none|not one)(?= ,|$| (?:at all|today|now|left|either)\b)|"
    # "Where are the giraffes? None of them are in the enclosure."
    r"(?:none|neither) of (?:them|these|those) (?:is|are|was|were|made it|came back|have come)"
    r"(?: back)? (?:visible|present|here|there|around|in (?:view|sight)|"
    r"(?:in|on|at|inside|within|into|to) (?:the|this|that|its|their|our|my|his|her)\b))"
)


YES_ANSWER = re.compile(
    r"^(?:but |and )?(?:yes|yep|yeah|there (?:is|are|was|were) (?:one|some|two|three|several))\b"
    # a count alone answers a question: "Sheep? Plenty.", "Horses? One.", "Cups? 2, all empty."
    rf"|^(?:just |only )?(?:plenty|lots|loads|many|several|some|a few|a couple|a handful|dozens"
    rf"|num|{NUMBERS})"
    r"(?: of them| in all| total| or so| at least)?(?: ,|$)"
    # where it is, or what state it is in: "Remote? Under the couch.", "TV? Off.", "Oven? Cold."
    r"|^(?:on|in|under|beside|behind|next to|in front of|atop|inside|by) (?:the|a|an|his|her|its"
    r"|their|my|our) (?!(?:other|next|another)\b)"
    r"|^(?:(?:switched |turned )?(?:on|off)|cold|hot|warm|empty|full|open|closed|shut|clean|dirty"
    r"|broken|working|running|lit|unplugged|dark|blank)(?: ,|$)"
    r"|^(?:still |right )?(?:there|here|present|around|in place)(?: ,|$)"  # "Fork? Still there."
)


def answer_end(tokens: list[str]) -> int | None:
    """Where a clause that opens by denying the object before ends its denial: "A dog? Not
    here.", "Any phone? No.", "..., but there isn't one", "I looked for a clock. There wasn't
    one.", "..., but it was removed"; None if it does not."""
    k = 0
    while k < len(tokens) and tokens[k] in ANSWER_FILLERS:
        k += 1
    if _doing_nothing(tokens[k:]):
        return None
    match = _NO_ANSWER.match(" ".join(tokens[k:]))
    if match:
        return k + len(match.group(0).split())
    if k < len(tokens) and tokens[k] in {"it", "they"}:
        k += 1
    elif k >= len(tokens) or tokens[k] != "not":
        return None  # "(toaster, microwave) are not included in the sale" answers nothing
    match = POST.match(" ".join(tokens[k:]))
    return k + len(match.group(0).split()) if match else None


_THERE_OR_NOT = frozenset({"missing", "remaining", "showing", "appearing", "coming", "arriving"})


def _doing_nothing(answer: list[str]) -> bool:
    """Whether "none" denies what the ones there do, not that they are there: "(every kid has a
    kite,) though none are flying yet"."""
    return (
        len(answer) > 2
        and answer[0] == "none"
        and answer[1] in COPULAS
        and answer[2].endswith("ing")
        and answer[2] not in _THERE_OR_NOT
    )


# Possessives before a noun: "but my own" stands for one, "but his dog" names another thing.
_OWNERS = frozenset({"my", "our", "your", "his", "her", "their"})


def other_one(tokens: list[str], starts: set[int]) -> bool:
    """ "(only) a black one", "the dirty ones", "except the one on the porch", "except mine":
    another of the kind just denied is there.
    ``starts``: where the clause's mentions start ("except one taxi" names its own)."""
    if tokens[:1] in (["except"], ["but"], ["besides"]) and len(tokens) > 1:
        owner, after = tokens[1], tokens[2] if len(tokens) > 2 else ""
        # "except mine", "but his."; "his" alone may also be a noun's ("but his dog")
        pronoun = owner in THEIRS and (owner != "his" or not after.isalpha())
        if pronoun or (owner in _OWNERS and after == "own"):
            return True  # "not one car except mine"
    if len(tokens) > 1 and tokens[0] == "except" and tokens[1] in {"one", "num", "two", "some"}:
        named = next((s for s in sorted(starts) if s > 1), len(tokens))
        # "All chairs are gone except one", "... except one by the door", not "except one taxi"
        return bool(set(tokens[2:named]) & (PREPOSITIONS | {",", "that", "which", "who"})) or (
            named == len(tokens)
        )
    for i, token in enumerate(tokens):
        if token in {"one", "ones"} and i >= 2 and {"a", "an", "the"} & set(tokens[i - 2 : i]):
            return not {"no", "not", "never", "without", "none"} & set(tokens[:i])
    return False


def _placed(answer: list[str]) -> bool:
    """Whether a "none" answer says where there are none ("none left on the tree"): a place
    of its own, not the one the earlier clause names."""
    rest = answer[answer.index("none") + 1 :]
    while rest and rest[0] in {"left", "remain", "remaining", "are", "is", "were", "was"}:
        rest = rest[1:]
    return len(rest) > 1 and rest[0] in PREPOSITIONS and rest[1] in {"the", "a", "its", "their"}


# What a predicate may say of where a thing is, not of what it is like: "the dog seems to be
# there - it isn't" denies the dog.
_WHERE_WORDS = frozenset({"there", "here", "present", "around", "visible", "pictured", "shown"})


def _elided(answer: list[str], asked: list[str]) -> bool:
    """Whether the denial ``answer`` is only "it is not" after a clause that ends by saying what
    its thing is like: "it's not that the fridge is empty - it isn't" denies the emptiness."""
    said = [t for t in answer if t not in ANSWER_FILLERS]
    bare = len(said) == 3 and said[0] in {"it", "they"} and said[1] in COPULAS and said[2] == "not"
    like = len(asked) > 1 and asked[-2] in COPULAS and asked[-1].isalpha()
    return bare and like and asked[-1] not in _WHERE_WORDS


def denied_starts(
    answer: list[str],
    asked: list[str],
    earlier: list[Mention],
    polarities: Mapping[int, Polarity],
) -> list[int]:
    """What a denial answers of the clause ``asked``: every object only supposed about ("No
    laptops or phones allowed. None are visible."), else every one of a bare list ("Commuters,
    benches - no.", "Cats, dogs: none."), else the thing "it" / "they" stands for (the last one
    named: "He lost his skateboard; it is nowhere to be seen") or the one "but" turns to ("the
    fridge is here but the microwave? Nope."), else the first one named ("Any phone? No.")."""
    supposed = [m.start for m in earlier if polarities[m.start] == "unmentioned"]
    if supposed:
        return supposed
    if _elided(answer, asked):
        return []
    head = next((t for t in answer if t not in ANSWER_FILLERS), "")
    turned = "but" in asked[earlier[0].start : earlier[-1].start]
    if head == "none" and _placed(answer) and PREPOSITIONS & set(asked):
        return []  # "apples in the bowl, none left on the tree": none there, some here
    # "... carried the bowls away, so none remain", "every table has a vase; the bar has none"
    if _bare_list(asked):  # "Commuters, benches - no.", "Cats, dogs: none.": every one listed
        # ... after the last one counted: "Tennis court, two rackets, ball? Nope." asks of the ball
        counted = [i for i, t in enumerate(asked) if t in NUMERALS or t == "num"]
        if not counted:
            return [m.start for m in earlier]
        after = next((i for i in range(counted[-1], len(asked)) if asked[i] == ","), len(asked))
        return [m.start for m in earlier if m.start > after]
    if head in {"it", "they", "none"} or turned or re.search(rf"\b{_HAS} none\b", " ".join(answer)):
        return [earlier[-1].start]
    return [earlier[0].start]


def _bare_list(asked: list[str]) -> bool:
    """Whether ``asked`` only lists things, a word or two each: "commuters, benches"."""
    items: list[list[str]] = [[]]
    for token in asked:
        if token in {",", "and", "or"}:
            items.append([])
        elif token.isalpha() and token not in COPULAS | PREPOSITIONS:
            items[-1].append(token)
        else:
            return False
    return len(items) > 1 and all(0 < len(item) < 3 for item in items)
