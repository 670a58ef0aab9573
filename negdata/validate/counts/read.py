"""The counts a sentence states for each object it names.

A count word before the name ("two dogs", "a lone cat", "a pair of chairs"), a group's size
after it ("a family of five"), a checklist's count ("Cups: two"), a predicate ("the laptop is
the sole item"), and what the other modules of this package read: one alone (``alone``), kin
(``kin``) and counts with no noun (``bound``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from negdata.detect.vocab import singular
from negdata.validate.counts.alone import but_the_one, by_itself, gear_alone, one_of_its_kind
from negdata.validate.counts.bound import bound_counts
from negdata.validate.counts.kin import (
    ANIMALS,
    CALVES,
    animal_parent,
    mother_after,
    paired,
    with_its_mother,
    with_young,
    young_before,
    young_counted,
    young_ones_after,
)
from negdata.validate.counts.words import (
    ARTICLES,
    COUNTS,
    DENIED,
    EXPLICIT,
    GRAMMAR,
    GROUPS,
    PAIRED,
    POSSESSIVES,
    TWO,
    Count,
    at_least,
    denied_before,
    is_number,
    single,
    time_or_size,
    tokenize,
)
from negdata.validate.negation.mentions import Mention, build_index, find_mentions
from negdata.validate.negation.words import (
    COPULAS,
    NUMERALS,
    PREPOSITIONS,
    YES_WORDS,
)

_NOT_ONE_BY_ONE = frozenset(
    {"traffic", "furniture", "luggage", "baggage", "cutlery", "silverware", "wildlife",
     "livestock", "equipment", "gear", "tableware", "crockery",
     "crowded", "bustling"}  # "a bustling station": people, of a number no article says
)  # fmt: skip
_STOPS = frozenset(
    {",", ";", ".", ":", "(", ")", "|", "and", "or", "with", "of", "no", "not", "without", "the"}
)
# Words no count reaches past to its noun: "no one is there to pet it" counts no pet.
_NO_ADJECTIVE = _STOPS | PREPOSITIONS | {"is", "are", "was", "were", "to", "there"}
# A checklist's count after its noun: "Cups: two", "rackets x2", "Oranges (three)", "Cow:
# present, two", "horses, one." (a comma only where the count ends the item).
_AFTER = frozenset({":", "(", "x"})
_STATED = frozenset({"present", "observed", "seen", "visible", "counted", ","})


Found = tuple[str, int]  # a count word and where it is


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
    if (
        qualifies
        and singular(last) == last
        and not tokens[mention.end].endswith("ing")
        and not animal_parent(tokens, mention)  # "an elephant mother": an elephant
    ):
        return None
    # "the only dog", "the zoo's only giraffe"
    if at >= 1 and tokens[at] == "only" and tokens[at - 1] in {"the", "s"}:
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
        word = tokens[at - 2]  # "all three of our cats", "two of the dogs" (``stated_counts``)
        partitive = is_number(word) or word == "both"
        return (word, at - 2) if partitive else None
    if at >= 1 and tokens[at] == "of" and tokens[mention.start] == "us":
        before = tokens[at - 1]  # "three of us": the whole party
        return (before, at - 1) if before in COUNTS or before.isdigit() else None
    if last in TWO and (at < 0 or tokens[at] not in ARTICLES | POSSESSIVES | {"of"}):
        return last, mention.end - 1  # "elderly couple sharing a bench": two people
    for _ in range(4):  # up to three adjectives: "a single old-fashioned red bus"
        if at >= 1 and tokens[at] == "of" and tokens[at - 1] in {"pair", "couple", "handful"}:
            return _group_of_few(tokens, at, mention)  # "a pair of (lawn) chairs"
        if at >= 1 and tokens[at] == "of" and tokens[at - 1] in _ROWS and singular(last) != last:
            return "rows", at - 1  # "a row of (small) sailboats": two or more
        if at >= 2 and tokens[at] == "," and tokens[at - 2] in ARTICLES and at - 1 not in named:
            at -= 1  # "a bent, rusted stop sign"
            continue
        if at < 0 or tokens[at] in _NO_ADJECTIVE or at in named:
            return None
        word = tokens[at]
        if word in ARTICLES | POSSESSIVES and last in GROUPS | _NOT_ONE_BY_ONE:
            return None  # "a crowd", "his family": one group, of people it does not count
        if word in ARTICLES and last in TWO:
            return last, mention.end - 1  # "a couple walking a dog", "the newlyweds": two
        if word in ARTICLES and singular(last) != last:
            return None  # "a toddler in a sun hat chases pigeons": the article is the hat's
        if word in POSSESSIVES and singular(last) != last:
            return None  # "her children": however many she has
        if word in COUNTS or (is_number(word) and not time_or_size(tokens, at)):
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
    or more; but "a pair of scissors" is one (``stated_counts``)."""
    if tokens[at - 1] == "pair" and mention.name in PAIRED:
        one = tokens[at - 2] if at >= 2 else ""
        if at < 2 or not one.isalnum():
            return "one", at - 1  # "Pair of skis, no snowboard": one pair
        return (one, at - 2) if one in {"a", "one", "single"} else None
    return tokens[at - 1], at - 1


def _group_of(tokens: list[str], mention: Mention) -> Found | None:
    """The size of the group ``mention`` heads: "a giraffe family of four" (four giraffes)."""
    at = mention.end
    if tokens[at : at + 2] not in ([g, "of"] for g in GROUPS | _HERDS):
        return None
    word = tokens[at + 2] if at + 2 < len(tokens) else ""
    return (word, at + 2) if is_number(word) else None


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
        if tokens[i] in GROUPS and tokens[i + 1] == "of" and is_number(word) and alone:
            n = int(word) if word.isdigit() else COUNTS[word][0]
            found.append(Count("person", word, n, n, i + 2, i + 3))
    return found


_HERDS = frozenset({"herd", "pack", "flock", "pod", "pride", "troop"})
# What stands in a row: "a row of sailboats", "a line of taxis" (two or more, ``_count_word``).
_ROWS = frozenset({"row", "rows", "line", "lines", "fleet", "queue", "column", "rank"})


def _count_after(tokens: list[str], mention: Mention) -> Found | None:
    """The count a checklist states after ``mention`` ("Cups: two", "Children present: two",
    "dogs: 2 | cats: 0", "Giraffes - 0."), or an apposition ("chairs, thirty of them,"), else
    ``None``."""
    at = mention.end
    while at < len(tokens) and (
        tokens[at] in _STATED - {","}
        or (tokens[at].endswith("ed") and tokens[at + 1 : at + 2] == [":"])  # "Couches ruined:"
    ):
        at += 1
    first = tokens[at] if at < len(tokens) else ""
    listed = mention.start == 0 or tokens[mention.start - 1] in {";", ".", "|", ",", ":"}
    # "Orange on the windowsill? One.": where it is, then its count
    placed = tokens[at : at + 6]
    if listed and first in PREPOSITIONS and ":" in placed:
        between = placed[: placed.index(":")]
        if not set(between) & (_STOPS - {"the", "of"}):
            at += len(between)
            first = ":"
    # "cars 14, trucks 2, bikes 0", "trucks no, motorcycles one, people none"
    if (is_number(first) or first == "one") and listed and at == mention.end:
        closes = tokens[at + 1] if at + 1 < len(tokens) else "."
        return (first, at) if closes in {",", ";", ".", "|"} else None
    if first not in _AFTER | {","} and not (first == ";" and listed):  # "Giraffes - 0."
        return None
    at += 1
    # "commuters, maybe thirty of them", "Car: yes, one."
    while at < len(tokens) and tokens[at] in _STATED | _ABOUT | YES_WORDS:
        at += 1
    if tokens[at : at + 1] == ["a"] and tokens[at + 1 : at + 2] in (["dozen"], ["couple"]):
        at += 1  # "Donuts: a dozen."
    word = tokens[at] if at < len(tokens) else ""
    if (word not in COUNTS and not word.isdigit()) or word in ARTICLES:
        return None
    of_them = tokens[at + 1 : at + 3] == ["of", "them"]  # "not without chairs, thirty of them"
    after = at + 3 if of_them else at + 1
    closes = tokens[after] if after < len(tokens) else "."
    if closes not in {",", ";", ".", ")", "|", "and"}:
        return None  # "Fruit bowl: 2 oranges": the count of the next noun
    # "spoon, none; bowl, one, empty": a count of the item a list opens with
    opens = mention.start == 0 or tokens[mention.start - 1] in {";", ".", "|", ":"}
    if of_them or first != "," or closes in {";", ".", ")", "|"} or (opens and closes == ","):
        return (word, at)
    return None


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


_TAKEN = frozenset({"taken", "occupied"})


def _another(tokens: list[str]) -> bool:
    """ "... while another watches", "... the other sleeps" (not "no other boats")."""
    return "another" in tokens or any(
        w in {"other", "others"} and i and tokens[i - 1] == "the" for i, w in enumerate(tokens)
    )


def counts(text: str, names: Mapping[str, tuple[str, ...]]) -> list[Count]:
    """The counts ``text`` states for the objects ``names`` (name -> its terms)."""
    return stated_counts(text, names)[0]


def stated_counts(text: str, names: Mapping[str, tuple[str, ...]]) -> tuple[list[Count], set[str]]:
    """``counts``, and the names ``text`` also gives as someone's, in the plural and with no
    count ("a woman and her children": as many people as there are, two at least), or with no
    determiner beside no number ("Commuters huddle, a man checks his phone"). A plural
    said again ("two dogs ... just the dogs") or denied ("no other dogs") adds none."""
    tokens = tokenize(text)
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
                if not _group_said(tokens, mention.end):  # "its visitors, a family of four"
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
        if word in ARTICLES | POSSESSIVES and _distributive(tokens, at):
            continue  # "not a single table without a wine glass", "... without its glass": one each
        if tokens[mention.end : mention.end + 1] in (["per"], ["each"], ["apiece"]):
            continue  # "three cats, one cat per chair", "a lamp each": one for each of many
        if word in ARTICLES and _on_each(tokens, mention.end):
            continue  # "a potted plant sits on each one": one on each of many
        if word in ARTICLES and tokens[at - 1 : at] and tokens[at - 1] in _LACKING_ANY:
            continue  # "you can't say it lacks a microwave": any at all, however many
        before = tokens[max(0, at - 2) : at]
        instead = _but_instead(tokens, mention.end) if before[-1:] == ["not"] else None
        if instead is not None:  # "not one dog but a pair": two
            found.append(Count(mention.name, instead, *COUNTS[instead], at, mention.end))
            continue
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
        if at_least(tokens, at):
            most = None  # "no fewer than five kites": five or more
        if most is not None and _approximate(tokens, at, most):
            slack = max(1, most // 4)  # "about thirty of us": some more or fewer; "nearly ten"
            under = tokens[at - 1] in {"nearly", "almost"}
            fewest, most = max(1, fewest - slack), most if under else most + slack
        if _partitive(tokens, at) and tokens[at - 1 : at] != ["all"] and word != "both":
            most = None  # "three of the dogs": of more, maybe; "all three of them": three
        if word == "one" and _another(tokens[mention.end :]):
            fewest = most = 2  # "one dog chases a ball while another watches": two
        if mention.name in ANIMALS and most == 1 and with_young(tokens, mention, named):
            fewest = most = 2  # "an elephant and her calf": the calf no label names
        if mention.name in ANIMALS and most is not None and mother_after(tokens, mention):
            # "a foal trots beside its mother", "two ducklings paddle after their mother"
            fewest, most = fewest + 1, most + 1
        if mention.name in ANIMALS and most == 1 and young_before(tokens, mention, mentions):
            fewest = most = 2  # "calf suckling from a Jersey cow"
        if mention.name in CALVES and most == 1 and young_ones_after(tokens, mention):
            fewest, most = 3, None  # "an elephant matriarch leads the calves to the river"
        if word in GRAMMAR and tokens[mention.end - 1] in _HERDS | GROUPS:
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
    described = _ones_described(tokens, bare)  # "Bikes: a red one and a blue one": these two
    more = (
        _listed_ones(tokens, found, bare)
        + described
        + _all_of_them(tokens, mentions)
        + by_itself(tokens, mentions)
        + one_of_its_kind(tokens, mentions, bare)
        + but_the_one(tokens, mentions)
        + paired(tokens, bare)
        + with_its_mother(tokens, bare)
        + (_seats_taken(tokens) if "person" in names else [])
        + _people_of(tokens, names, mentions)
        + gear_alone(tokens, mentions)
        + _worn_by(tokens, found, mentions)
        + young_counted(tokens, mentions)
        + bound_counts(tokens, mentions)
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
    again |= {c.name for c in described}
    # "Birds: a heron": a checklist's head, and the one it lists
    again |= {
        c.name for c in found for m in bare_plurals.get(c.name, ()) if tokens[m.end : c.at] == [":"]
    }
    return found + more, uncounted | (set(bare_plurals) - again) | _herd_of(tokens, mentions)


# Animals that live in herds and flocks, and what a herd is named with: "the herd", "its flock".
_HERD_ANIMALS = frozenset({"cow", "sheep", "elephant", "zebra", "giraffe", "horse", "bird"})
_OF_A_HERD = frozenset({"the", "its", "their", "her", "his"})


def _herd_of(tokens: list[str], mentions: list[Mention]) -> set[str]:
    """The one animal a sentence names, and does not deny, beside a herd no name of its own
    says the kind of: "a calf nurses from its mother while the herd grazes behind them" (more
    cows than two)."""
    named = {i for m in mentions for i in range(m.start, m.end)}
    herd = any(
        word in _HERDS and i not in named and _herd_named(tokens, i, named)
        for i, word in enumerate(tokens)
        if tokens[i + 1 : i + 2] not in (["of"], ["s"])  # "the herd's six giraffes": all six
    )
    if not herd:
        return set()
    animals = {m.name for m in mentions if m.name in ANIMALS and not denied_before(tokens, m)}
    return animals if len(animals) == 1 and animals <= _HERD_ANIMALS else set()


def _group_said(tokens: list[str], end: int) -> bool:
    """Whether an apposition after a plural ending at ``end`` says how many it is: "its
    visitors, a family of four" (four)."""
    after = tokens[end : end + 5]
    return (
        len(after) == 5
        and after[:2] in ([",", "a"], [",", "an"])
        and after[2] in GROUPS
        and after[3] == "of"
        and (after[4] in COUNTS or after[4].isdigit())
    )


def _herd_named(tokens: list[str], at: int, named: set[int]) -> bool:
    """Whether the herd word at ``at`` follows "the", "its" ..., past up to two adjectives:
    "the herd", "the woolly white flock"."""
    for k in range(at - 1, max(-1, at - 4), -1):
        if tokens[k] in _OF_A_HERD:
            return True
        if k in named or not tokens[k].isalpha() or tokens[k] in COUNTS:
            return False
    return False


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
        singles = [m for m in bare if m.name == name and single(tokens, m)]
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


def _ones_described(tokens: list[str], bare: list[Mention]) -> list[Count]:
    """A plural set out one by one: "Bikes: a red one and a blue one" (two), "cars - one black
    one, one white one and a grey one" (three)."""
    found = []
    for m in bare:
        plural = singular(tokens[m.end - 1]) != tokens[m.end - 1]
        if not plural or tokens[m.end : m.end + 1] not in ([":"], [","], [";"]):
            continue
        i, ones = m.end + 1, 0
        while tokens[i : i + 1] in (["a"], ["an"], ["one"]):
            words = list(itertools.takewhile(str.isalpha, tokens[i + 1 : i + 4]))
            if "one" not in words or "and" in words[: words.index("one")]:
                break
            ones, i = ones + 1, i + 2 + words.index("one")
            i += tokens[i : i + 1] == [","]
            i += tokens[i : i + 1] == ["and"]
        if ones > 1:
            found.append(Count(m.name, str(ones), ones, ones, m.start, m.end))
    return found


def _but_instead(tokens: list[str], end: int) -> str | None:
    """The count word that corrects a denied one right after it: "not one dog but two"."""
    after = tokens[end : end + 5]
    if after[:1] == [","]:
        after = after[1:]
    if after[:1] != ["but"]:
        return None
    rest = after[2:] if after[1:2] in (["a"], ["an"]) else after[1:]
    word, then = [*rest, "", ""][:2]
    if then.isalpha() and then != "of":
        return None  # "not a single dog, but two cats": a count of its own noun
    return word if word in COUNTS and word not in ARTICLES else None


def _all_of_them(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """ "all six" with no noun of its own counts what was named last: "not a single chair is
    missing, all six in place", "all five are in the barn"."""
    found = []
    for at in range(1, len(tokens) - 1):
        word, after = tokens[at], tokens[at + 1 : at + 2]
        if tokens[at - 1] != "all" or not (word.isdigit() or word in NUMERALS):
            continue
        if after and after[0].isalpha() and after[0] not in COPULAS | PREPOSITIONS | _THERE:
            continue  # "all six chairs": a count of its own noun
        many = [  # the last of several named before: "not a single chair", "the cows"
            m
            for m in mentions
            if m.end < at
            and (
                singular(tokens[m.end - 1]) != tokens[m.end - 1] or tokens[m.start - 1] == "single"
            )
        ]
        if many:
            fewest, most = COUNTS[word] if word in COUNTS else (int(word), int(word))
            found.append(Count(many[-1].name, word, fewest, most, at, at + 1, bound=True))
    return found


_THERE = frozenset({"present", "there", "here", "accounted", "together", "lined", "pushed", "of"})


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


def _on_each(tokens: list[str], end: int) -> bool:
    """Whether a verb and "on each" / "in every" follow the noun ending at ``end``: "a potted
    plant sits on each one", "a candle burns on every table"."""
    after = tokens[end : end + 4]
    return any(
        after[k] in PREPOSITIONS and after[k + 1] in {"each", "every"}
        for k in range(1, len(after) - 1)
    )


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


def _partitive(tokens: list[str], at: int) -> bool:
    """Whether the count at ``at`` counts some of the ones named after it: "three of the dogs",
    "two of our guests"."""
    of_the = tokens[at + 1 : at + 3]
    return len(of_the) == 2 and of_the[0] == "of" and of_the[1] in _OWNERS


def seats_taken(text: str) -> bool:
    """Whether ``text`` says seats are taken: "only two of the deckchairs are occupied" has
    someone in them."""
    return bool(_seats_taken(tokenize(text)))
