"""Finding object mentions: longest term first, skipping modifiers, verbs, possessors and
phrases that name something else."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from negdata.detect.vocab import singular
from negdata.validate.negation.words import (
    AMBIGUOUS_ADJECTIVES,
    COMPOUND_HEADS,
    COUNT_WORDS,
    DETERMINERS,
    HEDGE,
    INTENSIFIERS,
    LIST_VERBS,
    LIVING,
    NOT_OBJECTS,
    NOUN_PREDICATES,
    ON_BODY,
    POSSESSIVE,
    PREFIX_MODIFIERS,
    PREPOSITIONS,
    PRONOUNS,
    STOP,
    SUBJECTS,
    VERB_OBJECTS,
    VERBS,
)


@dataclass(frozen=True)
class Mention:
    name: str
    start: int
    end: int
    possessor: bool = False  # "the goalkeeper's gloves": an owner, perhaps not in the picture
    owner_there: bool = False  # "the man's tie", "the sink's edge": the owner is in the picture


class TermIndex(dict[tuple[str, ...], str]):
    """Term (singular words) -> name, and how many words its terms have."""

    lengths: frozenset[int] = frozenset()


@lru_cache(maxsize=4096)
def _name_index(name: str, terms: tuple[str, ...]) -> TermIndex:
    index = TermIndex({tuple(singular(w) for w in term.split()): name for term in terms})
    index.lengths = frozenset(len(key) for key in index)
    return index


def build_index(terms_by_name: Mapping[str, Iterable[str]]) -> TermIndex:
    """Term (singular words) -> name; the phrases of ``NOT_OBJECTS`` map to ``""``. Each name's
    part is built once: a lexicon's person has thousands of terms."""
    not_objects = _name_index("", tuple(sorted(NOT_OBJECTS)))
    index = TermIndex(not_objects)
    lengths = set(not_objects.lengths)
    for name, terms in terms_by_name.items():
        part = _name_index(name, tuple(terms))
        index.update(part)
        lengths |= part.lengths
    index.lengths = frozenset(lengths)
    return index


def _owned(tokens: list[str], end: int, term_starts: set[int]) -> int:
    """Where the thing an owner before ``end`` owns ends: "the child's (new) bike"."""
    at = end + 1
    if at < len(tokens) and at not in term_starts and not _function_word(tokens[at]):
        at += 1  # one adjective: "Mum's red handbag"
    return at


def _possessor(tokens: list[str], end: int, term_starts: set[int]) -> bool:
    """ "the child's (new) bike", "the dog's bowl": the owner of a thing is no mention, unless
    the thing is on it ("the man's tie") or a pronoun says it is there."""
    at = _owned(tokens, end, term_starts)
    following = tokens[at] if at < len(tokens) else ""
    if singular(following) in ON_BODY or _said_again(tokens):
        return False  # the owner is there: "the man's tie", "the man's dog sits at his feet"
    return at in term_starts or following in COMPOUND_HEADS


def owner_in_picture(name: str, words: Iterable[str], owned: Iterable[str]) -> bool:
    """Whether an owner ``name`` is in the picture, given the sentence's ``words`` and the words
    that may name what it owns: a thing is ("the sink's edge"), and so is a person or animal the
    sentence goes on about ("a girl's bike ... while she eats", "the man's dog sits at his
    feet") or one wearing what it owns ("the dog's (long) tail"); "grandma's cake" puts nobody
    there. Both readers ask this."""
    if name not in LIVING or _said_again(list(words)):
        return True
    return any(singular(word) in ON_BODY for word in owned)


def _said_again(words: list[str]) -> bool:
    """Whether a pronoun stands for a person or animal the sentence names: "while she eats",
    "at his feet", "between its paws", "sits beside her", "hangs from her chair"."""
    return not PRONOUNS.isdisjoint(words) or any(
        (word in _POSSESSIVE_PRONOUNS and singular(after) in ON_BODY | _SEATS)
        or (word == "her" and (not after or after in PREPOSITIONS or not after[0].isalpha()))
        for word, after in itertools.pairwise([*words, ""])
    )


_POSSESSIVE_PRONOUNS = frozenset({"his", "her", "their", "its"})
_SEATS = frozenset({"chair", "seat", "stool"})  # "the handbag hangs from her chair": she sits


def _there(name: str, tokens: list[str], end: int, term_starts: set[int]) -> bool:
    """``owner_in_picture`` for the owner whose name ends at ``end``."""
    owned = {end + 1, _owned(tokens, end, term_starts)}
    return owner_in_picture(name, tokens, (tokens[at] for at in owned if at < len(tokens)))


def _function_word(token: str) -> bool:
    return token in PREPOSITIONS | VERBS | DETERMINERS | {
        ",",
        "and",
        "or",
        "not",
        STOP,
        HEDGE,
    } or token.endswith(("ing", "ed"))


_LIST_VERB_OBJECTS = VERB_OBJECTS - {"up"} | {"it", "them"}  # "crowd the sink", not "line up"
# ... and what two people do: "a man and a woman ride horses", "stand in line".
_PAIR_VERBS = LIST_VERBS | {"ride", "stand", "shop"}


# Adverbs that follow a noun, not a noun that an adjective would: "remote still in his hand".
_ADVERBS_AFTER = frozenset({"still", "again", "too", "now", "here", "there", "nearby", "aside"})
# Parts built into a machine: where they are, the machine is.
_APPLIANCES = frozenset({"oven", "microwave", "refrigerator", "fridge", "toaster", "dishwasher"})
_BUILT_IN_PARTS = frozenset({"light", "door", "doors", "handle", "display", "window"})
# ... and of a vehicle: "the giraffes came right up to the car window" (a car is there).
_VEHICLES = frozenset(
    {"car", "bus", "train", "truck", "lorry", "van", "taxi", "cab", "tram", "jeep", "plane",
     "airplane", "boat", "ship"}
)  # fmt: skip
_VEHICLE_PARTS = frozenset(
    {"window", "windows", "door", "doors", "roof", "bumper", "windscreen", "windshield", "bonnet",
     "hood", "dashboard", "tyre", "tyres", "tire", "tires", "wheel", "wheels"}
)  # fmt: skip

# Pieces an orange is cut into: "orange slices" are the fruit, "an orange kite" is a colour.
_FRUIT_PIECES = frozenset({"slice", "slices", "wedge", "wedges", "segment", "segments", "halves"})


def _ends_list(tokens: list[str], start: int, after: str) -> bool:
    """Whether the head at ``start`` ends a list that ``after`` is the verb of: "a fridge and
    a black oven line the wall" (up to three words between "and" and the head)."""
    at = start
    while at > max(0, start - 3) and tokens[at - 1].isalpha() and tokens[at - 1] != "and":
        at -= 1
    return after in _PAIR_VERBS and at >= 1 and tokens[at - 1] == "and"


def _keywords(tokens: list[str], start: int, end: int, term_starts: set[int]) -> bool:
    """Whether the name at ``start`` is in a run of three bare keywords that fills its part of
    the clause ("DSC_0098 horse field fence, no rider", "sheep field wales no farmer"): a list
    of what is there, no compound (unless the third names an object: "bus stop bench", or the
    second a place for it: "train station platform")."""
    if end + 1 in term_starts or (end < len(tokens) and tokens[end] in _FACILITIES):
        return False
    edges = _KEYWORD_EDGES
    opened = start < 2 or tokens[start - 1] in edges or tokens[start - 2] in edges
    words = tokens[max(0, start - 1) : end + 2]
    after = tokens[end + 2] if end + 2 < len(tokens) else ","
    bare = all(w.isalpha() and not _function_word(w) for w in words if w not in edges)
    third = tokens[end + 1] if end + 1 < len(tokens) else ","
    return opened and bare and third not in edges | _WHEN | _STATES and after in edges


# What bounds a run of keywords: a comma, a stop, a denial.
_KEYWORD_EDGES = frozenset({",", STOP, "no", "not", "without", "nobody"})


# Places built for a thing, which name none: "train station", "bus stop", "bike rack".
_FACILITIES = frozenset(
    {"station", "stop", "depot", "terminal", "rack", "lane", "shelter", "track", "tracks",
     "route", "platform", "park", "path", "crossing"}
)  # fmt: skip
# What a thing is like, no third keyword: "pizza box open" is a pizza box.
_STATES = frozenset({"open", "opened", "closed", "shut", "empty", "full", "broken", "clean"})
# When a photo was taken, no third keyword: "dog park sunday" is a dog park.
_WHEN = frozenset(
    {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend",
     "morning", "afternoon", "evening", "night", "today", "tonight", "sunset", "sunrise"}
)  # fmt: skip


# What opens the object of a verb: "a nurse wheels an elderly patient" (``_verb_with_object``).
_OBJECT_OPENERS = frozenset(
    {"a", "an", "the", "this", "these", "those", "its", "his", "her", "their", "our", "my",
     "your", "some", "every", "each", "all", "another", "it"}
)  # fmt: skip


def _verb_with_object(tokens: list[str], at: int) -> bool:
    """Whether the word at ``at``, a name's plural, is a verb with its object after it: "a
    nurse wheels an elderly patient", "a boy tracks the deer" (not "bike wheels")."""
    word = tokens[at]
    following = tokens[at + 1] if at + 1 < len(tokens) else ""
    return singular(word) != word and following in _OBJECT_OPENERS


def _is_modifier(tokens: list[str], start: int, end: int, term_starts: set[int]) -> bool:
    after = tokens[end] if end < len(tokens) else ""
    if after == POSSESSIVE:
        return _possessor(tokens, end, term_starts)
    word = tokens[end - 1]
    counted = start > 0 and (tokens[start - 1] in COUNT_WORDS or tokens[start - 1].isdigit())
    plural = singular(word) != word or counted  # "guests stand", "five sheep stand": no modifier
    if (word in _APPLIANCES and after in _BUILT_IN_PARTS) or (
        word in _VEHICLES and after in _VEHICLE_PARTS
    ):
        return False  # "the oven light is off", "the car window": a part of what is there
    head = after in COMPOUND_HEADS and not _ends_list(tokens, start, after)
    head = head and not _keywords(tokens, start, end, term_starts)
    if (head and not plural and not _verb_with_object(tokens, end)) or after.endswith("-shaped"):
        return True
    if end - start == 1 and start and tokens[start - 1] in SUBJECTS and after in VERB_OBJECTS:
        return True  # "to tie his shoes", "she ties a ribbon", "to book a table": a verb
    if word in LIST_VERBS and after in _LIST_VERB_OBJECTS and start:
        before = tokens[start - 1]  # "spoons and a kettle crowd the sink": a verb
        return before not in DETERMINERS | PREPOSITIONS and not _function_word(before)
    if end - start == 1 and start and tokens[start - 1] == "to" and not plural and after:
        return not _function_word(after) and after not in {",", POSSESSIVE}  # "to monitor bears"
    if word in PREFIX_MODIFIERS and end in term_starts:
        return True  # "a baby elephant"
    if word in AMBIGUOUS_ADJECTIVES and end - start == 1:
        before = tokens[start - 1] if start else ""
        if before in INTENSIFIERS or end in term_starts:
            return True
        if before == "an" and after.endswith("ed"):
            return False  # "an orange arranged beside a pear": the fruit
        one = before in {"a", "an", "one"} or (
            before in {"single", "lone"} and start > 1 and tokens[start - 2] in {"a", "an"}
        )
        if one and singular(after) != after:
            return False  # "a single orange rolls across the floor": one, so "rolls" is a verb
        if word == "orange" and after in _FRUIT_PIECES:
            return False  # "orange slices, no bowl": the fruit, cut
        function_words = PREPOSITIONS | VERBS | DETERMINERS | NOUN_PREDICATES
        # "oranges x2", "a remote nor a cell phone"
        function_words |= {",", "and", "or", "nor", "s", "x", STOP, HEDGE, POSSESSIVE}
        return (  # a stop of any kind ends the noun: "a single remote.", "remote still in hand"
            bool(after)
            and after[0].isalnum()
            and after not in function_words | _ADVERBS_AFTER | {"control"}
        )
    return False


def find_mentions(tokens: list[str], index: TermIndex) -> list[Mention]:
    """Non-overlapping term matches, longest first where two overlap, that are not modifiers
    of another noun, in the order they stand."""
    singles = [singular(t) for t in tokens]
    lengths = sorted(index.lengths, reverse=True)
    candidates: list[Mention] = []
    for n in lengths:
        for i in range(len(tokens) - n + 1):
            key = tuple(singles[i : i + n])
            name = index.get(key)
            name = index.get(tuple(tokens[i : i + n])) if name is None else name
            if name == "" and any(tokens[k] != singles[k] for k in range(i, i + n - 1)):
                continue  # "zebras crossing the river": no zebra crossing
            if name is not None:
                candidates.append(Mention(name, i, i + n))
        for i in range(len(tokens) - n):  # "a catcher's mitt": a term with a possessive inside
            window = singles[i : i + n + 1]
            if POSSESSIVE in window[1:-1]:
                name = index.get(tuple(w for w in window if w != POSSESSIVE))
                if name is not None:
                    candidates.append(Mention(name, i, i + n + 1))
    taken: set[int] = set()
    chosen = []
    for m in candidates:
        span = set(range(m.start, m.end))
        if span & taken:
            continue
        taken |= span
        chosen.append(m)
    chosen = [m for m in chosen if m.name]  # a NOT_OBJECTS phrase hides the term inside it
    chosen.sort(key=lambda m: m.start)
    starts = {m.start for m in chosen}
    chosen = [m for m in chosen if not _is_modifier(tokens, m.start, m.end, starts)]
    # A person noun right before another name qualifies it: "a family dog", "the team bus".
    starts = {m.start for m in chosen}
    return [
        Mention(m.name, m.start, m.end, owner, owner and _there(m.name, tokens, m.end, starts))
        for m in chosen
        for owner in [m.end < len(tokens) and tokens[m.end] == POSSESSIVE]
        if not (
            m.name == "person"
            and m.end in starts
            and tokens[m.start] not in SUBJECTS
            and not tokens[m.end].endswith("ing")  # "teenagers skateboarding": they do it
        )
    ]
