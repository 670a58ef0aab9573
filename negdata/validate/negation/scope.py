"""Pre-nominal and verbal cues and the noun phrases they negate."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.words import (
    ADVERBS,
    BREAK,
    COUNT_WORDS,
    DESCRIBED,
    DETERMINERS,
    EXAMPLE_WORDS,
    GENERIC_HEADS,
    HAVE_VERBS,
    HEDGE,
    PARTITIVES,
    POST_MISSING_OK,
    PRE_CUES,
    PREPOSITIONS,
    QUANTIFIERS,
    STOP,
    VERBAL_CUES,
    VERBS,
)


def _scope_starts(tokens: list[str], at: int) -> int:
    """Where the noun phrase after a verbal cue ("not", "never") at ``at`` would begin, past
    adverbs and have/see verbs: "not a dog", "does not have a TV", "never had a TV"."""
    j = at + 1
    while j < len(tokens) and tokens[j] in ADVERBS:
        j += 1
    while j < len(tokens) and tokens[j] in HAVE_VERBS:
        j += 1
    return j


_PURPOSE_PREPS = frozenset({"on", "in", "at", "with", "by", "under", "from", "into", "onto", "for"})


def _after_purpose(tokens: list[str], j: int) -> int:
    """Past what a denied thing would be for, where the list goes on after it ("no chair to sit
    on or bench to rest on": from "to" to the "or"); else ``j``."""
    if tokens[j : j + 1] != ["to"] or j + 2 >= len(tokens) or not tokens[j + 1].isalpha():
        return j
    k = j + 3 if tokens[j + 2] in _PURPOSE_PREPS else j + 2
    return k if tokens[k : k + 1] in (["or"], ["nor"]) else j


def negated_spans(tokens: list[str], mentions: list[Mention]) -> set[int]:
    """Token positions inside the scope of a pre-nominal or verbal cue. Past a mention the
    scope goes on only through a coordinator ("no cats, dogs or birds")."""
    mention_starts = {m.start for m in mentions}
    mention_ends = {m.start: m.end for m in mentions}
    negated: set[int] = set()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        start: int | None = None
        if token in PRE_CUES and not is_post_use(tokens, i):
            start = i + 1
        elif token in VERBAL_CUES:
            j = _scope_starts(tokens, i)
            nxt = tokens[j] if j < len(tokens) else ""
            opens_np = nxt in QUANTIFIERS or j in mention_starts
            opens_np = opens_np or (j > i + 1 and tokens[j - 1] in HAVE_VERBS)
            start = j if opens_np else None
        if start is None:
            i += 1
            continue
        j = scope_end(tokens, start, mention_starts, mention_ends, negated)
        i = max(j, i + 1)
    return negated


def scope_end(
    tokens: list[str],
    start: int,
    mention_starts: set[int],
    mention_ends: Mapping[int, int],
    negated: set[int],
) -> int:
    """Walk the scope of a cue from ``start``, adding its positions to ``negated``; returns
    where it stopped."""
    # "minus the toast and the coffee cup": a determiner repeated after "and" / "or" goes on.
    first = start + 1 if start < len(tokens) and tokens[start] == "both" else start
    det = tokens[first] if first < len(tokens) else None
    det = det if det in {"a", "an", "the", "any"} else None
    found = 0  # mentions in scope so far
    item_found = True  # whether the current comma-separated item has a mention
    j = start
    while j < len(tokens):
        tok = tokens[j]
        nxt = tokens[j + 1] if j + 1 < len(tokens) else ""
        if tok in {STOP, HEDGE} or (tok in PREPOSITIONS and j not in mention_starts):
            break
        if tok == "of" and j not in mention_starts and tokens[j - 1] not in PARTITIVES:
            break  # "no fear of the horse"; but "not a slice of pizza"
        # but "no pedestrians or parked cars": a participle after "or" describes the next item
        listed = tokens[j - 1] in {"or", "nor"} and j + 1 in mention_starts
        # ... as it does after a determiner: "not a single parked car"
        listed = listed or (tokens[j - 1] in DETERMINERS | QUANTIFIERS and j + 1 in mention_starts)
        if tok in VERBS and j > start and j not in mention_starts and not listed:
            break
        if (
            j > start
            and j not in mention_starts
            and nxt in {"a", "an", "the", "his", "her", "their", "my", "your", "our"}
            and tok not in DETERMINERS | QUANTIFIERS | EXAMPLE_WORDS | {",", "and", "or", "nor"}
            and tokens[j - 1] not in DETERMINERS | QUANTIFIERS
        ):
            break  # "without a helmet rides a bicycle": an unknown verb and its object
        if tok == ",":
            if nxt in {"no", "without", "zero", "not"}:
                break  # "waiting for a wave, no boats": a cue of its own
            # "no cars, no buses, bikes": a cue said again for each item
            again = (
                tokens[start - 2 : start] == [",", "no"] and "no" in tokens[start - 5 : start - 2]
            )
            if nxt not in {"or", "nor"} and (
                {"or", "nor"} & set(tokens[start:j]) or (again and not _closes_with_or(tokens, j))
            ):
                break  # "no cars or buses, bikes and a bench", "no cars, no buses, bikes": there
            if tokens[start - 1 : start] == ["no"] and not _closes_list(tokens, j):
                break  # "No people, bench, pigeons.": no "or" or "and" ends a list of denials
            if nxt in HAVE_VERBS - {"there"}:
                break  # "The bowl, without bananas, holds apples": the clause's own verb
            if nxt in COUNT_WORDS | {"couple", "pair", "some", "lots", "plenty", "dozens"}:
                break  # "no dogs, no frisbees, couple of pigeons on the bench": some there
            if not item_found and not {"or", "nor"} & set(tokens[j:]):
                break  # "no umbrellas, turquoise water, boats": a list of scenery, not objects
            if nxt in DESCRIBED and not _closes_with_or(tokens, j):
                break  # "no refrigerator, white oven, marble counter": described, so there
            after = tokens[j + 2] if j + 2 < len(tokens) else ""
            if j + 1 not in mention_starts and after in {"a", "an", "the"}:
                break  # "with no clocks, lived a girl": a verb and its object, no list item
            item_found = False
        if tok in {",", "and", "or"} and (nxt in DETERMINERS or nxt in {"with", "and"}):
            same_det = nxt == det or {nxt, det} == {"a", "an"}
            parallel = same_det and tok != "," and _mention_near(j + 2, mention_starts)
            oxford = tok == "," and nxt in {"and", "or"} and found >= 2 and j + 2 in mention_starts
            # "lacks any car, and any person": "any" said again goes on ("a" may start a clause)
            oxford = oxford or (
                tok == ","
                and nxt in {"and", "or"}
                and det == "any"
                and tokens[j + 2 : j + 3] == ["any"]
                and _mention_near(j + 3, mention_starts)
            )
            # "without a bus, a train, or a taxi": a list that closes with "or"
            listed = tok == "," and same_det and _mention_near(j + 2, mention_starts)
            listed = listed and _closes_with_or(tokens, j)
            if not (parallel or oxford or listed):
                break
        end = mention_ends.get(j)
        # ", guests mingle" or ", wedding guests mingle"; not ", or sheep left": the list's end
        after_comma = tokens[j - 1] == "," or (
            j - 2 >= start
            and tokens[j - 2] == ","
            and tokens[j - 1] not in _LIST_WORDS | PRE_CUES  # ", no people waiting": a cue
        )
        if end is not None and found and after_comma and _says_of_it(tokens, end):
            break  # "no toothbrushes, sink wiped clean": the subject of a clause of its own
        if end is not None and found and tokens[j - 1] == "and" and _new_clause(tokens, start, end):
            break  # "there are no lights and stop signs mark every corner"
        negated.add(j)
        if end is not None:
            found += 1
            item_found = True
            negated.update(range(j, end))
            j = end
            if j in mention_ends:
                continue  # "no electronic devices": a compound of two names
            if j + 1 < len(tokens) and tokens[j] == "of" and tokens[j - 1] in PARTITIVES:
                j += 1  # "no crowd of tourists"
                continue
            if j + 1 < len(tokens) and tokens[j] in GENERIC_HEADS:
                j += 1  # "no food items such as pizza": the examples follow the head
            if (
                j + 1 < len(tokens)
                and tokens[j] == ","
                and tokens[j + 1] in EXAMPLE_WORDS
                and (j + 2 in mention_starts or tokens[j + 2 : j + 3] == ["a"])
            ):
                j += 1  # "no other vehicles, like cars or buses"
            if j < len(tokens) and tokens[j] in EXAMPLE_WORDS:
                j += 1  # "no devices such as phones or laptops": the examples are negated too
                continue
            j = _after_purpose(tokens, j)  # "no chair to sit on or bench to rest on"
            if j < len(tokens) and tokens[j] not in {",", "and", "or", "nor"}:
                break
            continue
        j += 1
    return j


def _says_of_it(tokens: list[str], end: int) -> bool:
    """A verb right after a mention: it opens a clause ("sink wiped clean", "sofa sits"); so
    does a word no list has before a preposition ("guests mingle on the lawn"), and a yes
    ("no tv, couch yes")."""
    after = tokens[end] if end < len(tokens) else ""
    then = tokens[end + 1] if end + 1 < len(tokens) else ""
    unlisted = after.isalpha() and after not in _LIST_WORDS and then in PREPOSITIONS
    everywhere = after in _EVERYWHERE or (after == "all" and then in {"over", "around"})
    answered = after in {"yes", "present", "visible"}  # "no tv, couch yes"
    return (
        after in VERBS
        or (after.endswith("ed") and after not in {"red", "bed", "shed"})
        or unlisted
        or everywhere
        or answered
    )


# Where a listed thing is, so it is there: "no cars, bikes everywhere".
_EVERYWHERE = frozenset({"everywhere", "galore", "aplenty", "abound", "abounds", "throughout"})


_LIST_WORDS = PREPOSITIONS | DETERMINERS | QUANTIFIERS | {"and", "or", "nor", "of", "either"}


# Plural verbs that open a clause of their own after "there are no X and Y".
_CLAUSE_VERBS = frozenset(
    {"mark", "line", "dot", "flank", "frame", "border", "cover", "crowd", "surround", "block",
     "fill", "sit", "stand", "lie", "wait", "hang", "lean", "rest", "sleep", "graze", "run"}
)  # fmt: skip


def _new_clause(tokens: list[str], start: int, end: int) -> bool:
    """ "there are no traffic lights and stop signs mark every corner": after an existential
    "there is no", a name and a plural verb after "and" are a clause of their own."""
    after = tokens[end] if end < len(tokens) else ""
    return after in _CLAUSE_VERBS and "there" in tokens[max(0, start - 3) : start]


def _closes_with_or(tokens: list[str], at: int) -> bool:
    """Whether the list going on at ``at`` ends in "or" / "nor" before its clause does."""
    return _reaches(tokens, at, {"or", "nor"}, {STOP, HEDGE, BREAK} | PREPOSITIONS | VERBS)


def _reaches(tokens: list[str], at: int, closers: AbstractSet[str], ends: AbstractSet[str]) -> bool:
    """Whether a word of ``closers`` comes at ``at`` or after it, before a word of ``ends``."""
    for tok in tokens[at:]:
        if tok in closers:
            return True
        if tok in ends:
            return False
    return False


def _closes_list(tokens: list[str], at: int) -> bool:
    """Whether the list going on at ``at`` ends in "or", "nor" or "and", or goes on to say where
    ("no cars, trucks, buses on the road"), before its clause ends."""
    return _reaches(tokens, at, {"or", "nor", "and"} | PREPOSITIONS, {STOP, HEDGE, BREAK})


def _mention_near(at: int, mention_starts: set[int]) -> bool:
    """A mention starts at ``at`` or one word (an adjective) later."""
    return at in mention_starts or at + 1 in mention_starts


def is_post_use(tokens: list[str], i: int) -> bool:
    """ "missing" / "absent" / "nowhere" used after their noun ("the cat is missing")."""
    token = tokens[i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else BREAK
    if token in {"missing", "absent"}:
        # "the cat is missing", "Frisbee: absent bilaterally"
        return i > 0 and (nxt in POST_MISSING_OK or nxt.endswith("ly"))
    if token in {"zero", "no"}:
        return i > 0 and nxt in {",", BREAK}  # "balls zero, frisbee x", "toaster no, sink yes"
    if token == "nowhere":
        return i > 0 and nxt in {"to", "in", "near", ",", BREAK}
    return False
