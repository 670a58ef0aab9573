"""Post-nominal cues: "X is missing", "X, no", "forks and knives absent"."""

from __future__ import annotations

from collections.abc import Mapping

from negdata.detect.vocab import singular
from negdata.validate.negation.cues import POST
from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.scope import is_post_use
from negdata.validate.negation.words import (
    CLAUSE_WORDS,
    COPULAS,
    COUNT_WORDS,
    DETERMINERS,
    FRAME_WORDS,
    PREPOSITIONS,
    QUANTIFIERS,
    SOFT_PREPOSITIONS,
    STOP,
    VERBS,
)


def post_negated(tokens: list[str], mentions: list[Mention]) -> set[int]:
    """Starts of mentions negated by a following predicate ("X is missing", "X is not in the
    picture"): the cue must come before the next comma, preposition or mention."""
    result: set[int] = set()
    ends = {m.start: m.end for m in mentions}
    landmarks: set[int] = set()  # "the cup on the table is gone": the table is there
    for m in mentions:
        if _part_of(tokens, m.start) or m.start in landmarks:
            continue  # "half of the pizza has been eaten": the rest is there
        k = phrase_end = m.end
        places: list[int] = []
        located = False
        # a verb already says something of ``m`` ("the bowl is empty and ..."), or ``m`` is
        # the object of a preposition ("a path winds past a bench, and skis are nowhere"): no
        # list of subjects starts at it
        said = _placed(tokens, m.start)
        joined = False  # by ", and" to what follows
        while k < len(tokens) and tokens[k] != STOP and k not in ends:
            item = None if said else _next_item(tokens, k, ends)
            if item is not None:
                joined = joined or tokens[k : k + 2] == [",", "and"]
                k = ends[item]  # "forks and knives absent": the cue covers the whole list
                continue
            if tokens[k] == ",":
                break
            if joined and tokens[k] in _SINGULAR:
                break  # "a smiling person, and a puppy is absent": the puppy alone
            match = POST.match(" ".join(tokens[k:]))
            if match:
                cue_at = k + len(match.group(0).split()) - 1
                # "the cows are out" in the field, "a few dogs are out" and about: there; "the
                # sheep have been moved out", "the dog is out": gone
                out = tokens[cue_at] == "out" and tokens[cue_at - 1] not in _TAKEN_OUT
                some = m.start > 0 and tokens[m.start - 1] in _SOME
                about = out and (
                    singular(tokens[m.end - 1]) in _GRAZERS
                    or (some and tokens[cue_at - 1] in COPULAS)  # not "a cat is ruled out"
                )
                if not about and (
                    tokens[cue_at] not in {"missing", "absent"} or is_post_use(tokens, cue_at)
                ):
                    result.add(m.start)
                    landmarks.update(places)
                    after = _landmark(tokens, cue_at + 1, ends)
                    if after is not None and after[0] is not None:
                        landmarks.add(after[0])  # "the clock used to hang above the fireplace"
                break
            place = _landmark(tokens, k, ends) if k == phrase_end else None
            if place is not None:  # "the microwave above the oven is gone", "a bowl of pears"
                located = located or tokens[k] != "of"  # "on the left of the sofa": a place
                start, k = place
                if start is not None and located:
                    places.append(start)
                phrase_end = k
                said = True  # "one bowl between them, and the humans are out": no list
                continue
            copula = _past_habit(tokens, k, ends)
            if copula is not None:
                k = copula  # "the clock usually on the wall is absent"
                continue
            if tokens[k] in PREPOSITIONS - SOFT_PREPOSITIONS or tokens[k] in {"and", "or"}:
                break
            said = said or tokens[k] in VERBS
            k += 1
        if k < len(tokens) and tokens[k] == "," and _comma_negates(tokens, k, ends):
            result.add(m.start)
    return result


# Prepositions that place a thing by another, which stays: "the cup on the table is gone".
_LOCATIVE = frozenset(
    {"on", "in", "at", "by", "near", "beside", "next", "behind", "under", "above", "over",
     "inside", "outside", "around", "along", "across", "against", "among", "between", "beneath",
     "below", "underneath", "within", "atop"}
)  # fmt: skip


def _landmark(tokens: list[str], k: int, ends: Mapping[int, int]) -> tuple[int | None, int] | None:
    """The noun phrase a locative preposition at ``k`` places a thing by ("above the oven",
    "next to a sofa", "on the windowsill") or "of" says it holds ("a bowl of pears", "a cup of
    coffee"): the start of its mention (``None`` where it names no object) and its end, past a
    determiner and up to two words; ``None`` where no such phrase follows."""
    if k >= len(tokens) or tokens[k] not in _PLACING:
        return None
    at = k + 2 if tokens[k] == "next" and tokens[k + 1 : k + 2] == ["to"] else k + 1
    for j in range(at, min(at + 4, len(tokens) + 1)):
        if j in ends:
            return j, ends[j]
        plain = j < len(tokens) and tokens[j].isalpha()
        if not plain or tokens[j] in _PHRASE_ENDS:
            named = j > at and tokens[j - 1] not in _UNNAMED
            return (None, j) if named else None
    return None


# Where in the picture a thing is, which says it is there: "the handbag in the background".
_IN_VIEW = frozenset(
    {*FRAME_WORDS, "background", "foreground", "distance", "corner", "middle", "centre",
     "center", "front", "back", "left", "right", "side", "edge", "top", "bottom"}
)  # fmt: skip


# "the cows are out": out in the field, where the photo is (a cat that is out is away).
_SOME = COUNT_WORDS | {"a", "an", "some", "plenty", "lots"}
_TAKEN_OUT = frozenset(
    {"moved", "taken", "led", "driven", "trucked", "shipped", "herded", "hauled"}
)
_GRAZERS = frozenset(
    {"cow", "cattle", "bull", "heifer", "calf", "sheep", "lamb", "ewe", "horse", "pony", "mare",
     "foal", "goat"}
)  # fmt: skip
# A verb that agrees with one thing, not with a list joined by ", and".
_SINGULAR = frozenset({"is", "was", "isn't", "wasn't", "has"})
# What a part of a thing is: "half of the pizza", "the rest of the cake".
PARTS = frozenset(
    {"half", "part", "parts", "some", "most", "rest", "remains", "remainder", "portion",
     "quarter", "third", "bits", "crust", "end", "edge", "top", "side", "corner"}
)  # fmt: skip


# Where a thing usually is, said between it and its predicate: "the clock usually on the wall".
_HABITUAL = frozenset({"usually", "normally", "typically", "ordinarily", "always", "often"})


def _past_habit(tokens: list[str], k: int, ends: Mapping[int, int]) -> int | None:
    """The copula after a habitual place at ``k`` ("usually on the wall is ..."), when no
    mention or stop lies between, else ``None``."""
    if tokens[k] not in _HABITUAL or k + 1 >= len(tokens) or tokens[k + 1] not in PREPOSITIONS:
        return None
    for j in range(k + 2, min(k + 8, len(tokens))):
        if j in ends or tokens[j] in {STOP, ","}:
            return None
        if tokens[j] in COPULAS:
            return j
    return None


def _placed(tokens: list[str], start: int) -> bool:
    """Whether the noun phrase ending in the mention at ``start`` follows a preposition ("past
    a wooden bench") or a verb ("three pensioners share a park bench", "there is a bench")."""
    at = start - 1
    for _ in range(3):  # past a determiner and up to two adjectives
        if at < 0 or tokens[at] in {",", STOP, "and", "or"} or tokens[at] in VERBS:
            return False
        if tokens[at] in PREPOSITIONS - SOFT_PREPOSITIONS:
            return True
        if tokens[at] in {"a", "an", "the"} and at and _verb(tokens[at - 1]):
            return True
        at -= 1
    return False


def _verb(token: str) -> bool:
    """A word before an article that is no preposition, conjunction or denial: a verb."""
    return token.isalpha() and token not in _NOT_VERB_WORDS


# Words that open a clause or join a list ("whereas a bed and a fridge are absent"), not verbs;
# "leaving the bench" is one.
_NOT_VERBS = (CLAUSE_WORDS - {"leaving"}) | {
    "and", "or", "nor", "not", "no", "both", "neither", "either", "then", "also", "plus",
    "whilst", "if", "than", "like",
}  # fmt: skip
_NOT_VERB_WORDS = PREPOSITIONS | DETERMINERS | QUANTIFIERS | _NOT_VERBS
# What a place's phrase starts with, ends at, and is unnamed after (``_landmark``).
_PLACING = _LOCATIVE | {"of"}
_PHRASE_ENDS = VERBS | COPULAS | PREPOSITIONS | _NOT_VERBS | {"of"}
_UNNAMED = DETERMINERS | _IN_VIEW


def _part_of(tokens: list[str], start: int) -> bool:
    at = start - 1 if start and tokens[start - 1] in {"the", "a", "an", "this", "that"} else start
    if at >= 1 and tokens[at - 1] == "half":  # "half the pizza is gone"
        return True
    return at >= 2 and tokens[at - 1] == "of" and tokens[at - 2] in PARTS


def _next_item(tokens: list[str], k: int, ends: Mapping[int, int]) -> int | None:
    """The next mention of a list, when ``k`` is "and" / "or" before it, or a comma of a list
    that ends in "and" / "or" ("a dining table, a bed, and a fridge are absent")."""
    j = k
    while j < len(tokens) and tokens[j] in _LIST_FILLER:
        j += 1
    if j not in ends or j == k or tokens[k] not in {",", "and", "or"}:
        return None
    if tokens[k] == ",":
        rest = tokens[k:]
        closing = next((i for i, t in enumerate(rest) if t in {"and", "or"}), None)
        if closing is None or any(
            t not in _LIST_FILLER and k + i not in ends and not _inside(k + i, ends)
            for i, t in enumerate(rest[:closing])
        ):
            return None
    return j


# What lies between the items of a list: "the farmer and his collie are away".
_LIST_FILLER = frozenset(
    {",", "and", "or", "a", "an", "the", "any", "his", "her", "their", "its", "my", "our", "your"}
)


def _inside(at: int, ends: Mapping[int, int]) -> bool:
    return any(s < at < e for s, e in ends.items())


_BARE_NO = frozenset({"no", "none", "zero", "nope", "absent", "missing", "none at all"})


def _comma_negates(tokens: list[str], k: int, ends: Mapping[int, int]) -> bool:
    """After a comma at ``k``: a bare cue ("Cars, yes; buses, no", "sheep, none"), or an aside
    and then a post-nominal cue ("The couch, usually present in such rooms, is absent here")."""
    if " ".join(tokens[k + 1 :]) in _BARE_NO:
        return True
    close = next((c for c in range(k + 1, len(tokens)) if tokens[c] == ","), None)
    if close is None or any(k < s < close for s in ends):
        return False
    match = POST.match(" ".join(tokens[close + 1 :]))
    if not match:
        return False
    cue_at = close + len(match.group(0).split())
    return tokens[cue_at] not in {"missing", "absent"} or is_post_use(tokens, cue_at)
