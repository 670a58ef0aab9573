"""Counts said by kinship and pairing: an animal with its young or its mother, two names
said as one pair.

"an elephant and her calf" (two elephants, the calf named by no label), "a foal nuzzling the
mare", "a mother duck leads eight ducklings" (nine birds), "bride & groom" (two people),
"newborn asleep on Dad's chest".
"""

from __future__ import annotations

import itertools

from negdata.detect.lexicon import HYPERNYMS
from negdata.detect.vocab import singular
from negdata.english import plural
from negdata.validate.counts.words import ARTICLES, COUNTS, Count, is_number, single
from negdata.validate.negation.mentions import Mention


def paired(tokens: list[str], bare: list[Mention]) -> list[Count]:
    """One each of two singular names of one object with no count word, joined by "and" as a
    headline writes them ("foal and mare", "bride & groom", "Mum and the baby": two horses, two
    people) or one name said again after a comma ("car, car, truck"), or two different names
    the second of which the first stands beside, in one clause ("foal standing on wobbly legs
    beside the mare"), or lies on ("newborn asleep on Dad's chest")."""
    found = []
    ones: dict[int, Mention] = {}  # "dog and dog and dog": three, each counted once
    for m, n in itertools.pairwise(bare):
        if m.name != n.name or not all(single(tokens, x) for x in (m, n)):
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


def with_its_mother(tokens: list[str], bare: list[Mention]) -> list[Count]:
    """An animal, one, with "its mother" later in its clause ("elephant calf following its
    mother", "a foal nuzzling her mum": the mother named by no label's word), or a young one
    with the grown one its label also names ("foal nuzzling the mare"): two of it."""
    found = []
    starts = {n.start: n for n in bare}
    for m in bare:
        if m.name not in ANIMALS or not single(tokens, m):
            continue
        mother = mother_after(tokens, m)
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
                and single(tokens, grown)
            ):
                found.append(Count(m.name, "a", 2, 2, m.start, grown.end))
                break
    return found


def animal_parent(tokens: list[str], mention: Mention) -> bool:
    """Whether the animal ``mention`` names a parent with the word after it: "an elephant
    mother and her two calves" (an elephant, not a person)."""
    after = tokens[mention.end : mention.end + 1]
    return mention.name in ANIMALS and bool(after) and after[0] in _PARENT


def mother_after(tokens: list[str], m: Mention) -> int | None:
    """Where "its mother" ("their mother" of many) ends, said later in the clause of an animal
    ``m``, if it is."""
    own = {"their"} if not single(tokens, m) else {"its", "her", "his"}  # of one, or of many
    for i in range(m.end, len(tokens) - 1):
        if not tokens[i][0].isalnum():
            return None  # the clause ends
        if tokens[i] in own and tokens[i + 1] in _PARENT:
            return i + 2
    return None


def with_young(tokens: list[str], mention: Mention, named: set[int]) -> bool:
    """ "an elephant and her calf", "a giraffe with its calf", "a bull elephant and a calf"
    (no other animal has one here), "an elephant walks with its calf": a young one no label's
    word names."""
    theirs = {"her", "its"} | (ARTICLES if mention.name in CALVES else set())
    for i in range(mention.end, min(mention.end + 4, len(tokens) - 2)):
        young = tokens[i : i + 3]
        if young[0] in {"and", "with", "beside", "alongside"}:
            return young[1] in theirs and young[2] in _YOUNG and i + 2 not in named
        if not tokens[i].isalpha() or i in named:
            return False  # the clause ends, or names another
    return False


def young_ones_after(tokens: list[str], mention: Mention) -> bool:
    """Young ones, in the plural and uncounted, later in the clause of a grown one whose label
    no other young name has: "an elephant leads the calves down to the river"."""
    for i in range(mention.end, min(mention.end + 6, len(tokens) - 1)):
        if not tokens[i].isalnum():
            return False
        if tokens[i] in _THE and tokens[i + 1] != singular(tokens[i + 1]):
            return singular(tokens[i + 1]) in _YOUNG
    return False


def young_counted(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """Young ones counted beside a grown one whose label no other young name has: "one brown
    bear and two cubs" (two more bears), "an elephant with her three calves"."""
    found = []
    for m in mentions:
        if m.name not in CALVES:
            continue
        for i in range(m.end, min(m.end + 5, len(tokens) - 1)):
            if not tokens[i].isalnum():
                break
            word, young = tokens[i], singular(tokens[i + 1])
            if is_number(word) and young in _YOUNG:
                n = int(word) if word.isdigit() else COUNTS[word][0]
                found.append(Count(m.name, word, n, n, i, i + 2))
                break
    return found


def young_before(tokens: list[str], mention: Mention, mentions: list[Mention]) -> bool:
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


CALVES = frozenset({"elephant", "giraffe", "zebra", "bear"})  # young no other label's word names
_YOUNG = frozenset({"calf", "cub", "baby", "young", "youngster", "joey", "infant"})
ANIMALS = frozenset(HYPERNYMS["animal"])
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


def brood(tokens: list[str], parent: Count, young: Count) -> bool:
    """Whether ``young`` counts the young of the parent ``parent`` counts: "a mother duck leads
    eight ducklings"."""
    parental = _PARENT & set(tokens[parent.at : parent.end])
    return bool(parental) and singular(tokens[young.end - 1]) in _YOUNG_OF
