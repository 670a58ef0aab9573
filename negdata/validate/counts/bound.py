"""Counts with no noun after them, and numbers that count nothing a sentence names.

"it's not that there are no cars: there's one" counts one car, of the name the clause before
gives (``bound_counts``); "there are five", "a set of 4", "this shot caught one" count what no
box can check (``stray_number``).
"""

from __future__ import annotations

from negdata.detect.vocab import IRREGULAR_PLURALS, singular
from negdata.validate.counts.words import COUNTS, Count, at_least, is_number, time_or_size, tokenize
from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.words import (
    COPULAS,
    NUMERALS,
    PREPOSITIONS,
)


def stray_number(text: str, stated: list[Count]) -> bool:
    """Whether ``text`` has a number that is none of the counts ``stated`` of its objects:
    "there are five", "a set of 4". Such a count is a claim no box can check. Zero and "one"
    (a pronoun as often as a count) are left out."""
    tokens = tokenize(text)
    used = {count.at for count in stated}
    return any(
        i not in used
        and (
            (
                (word in NUMERALS or (word.isdigit() and 0 < int(word) < 100))
                and not time_or_size(tokens, i)
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
_EXACTLY = frozenset({"exactly", "just", "only", "precisely"})  # "there's exactly one"


def _pronoun_count(tokens: list[str], i: int) -> bool:
    """A count of what an earlier clause named: "there's a pair of them", "this shot caught
    one", "there's exactly one"."""
    word, after = tokens[i], tokens[i + 1 : i + 3]
    if word == "pair":
        return after in (["of", "them"], ["of", "these"], ["of", "those"])
    ends = not after or after[0] in {",", ".", ";", ":", "and", "but", "too", "here", "today"}
    caught = (i > 0 and tokens[i - 1] in _CAUGHT) or tokens[i - 2 : i] in _THERE_IS
    # "there's exactly one", "there's just one"
    caught = caught or (i > 2 and tokens[i - 1] in _EXACTLY and tokens[i - 3 : i - 1] in _THERE_IS)
    return word == "one" and ends and caught


# A count with no noun after what says there are some, or who has some: "it's not that there
# are no cars: there's one", "you can't say the kitchen lacks a microwave, since it has two",
# "there's a pair of them", "not a room without a plant: the bathroom has one"
# (``bound_counts``).
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


def bound_counts(tokens: list[str], mentions: list[Mention]) -> list[Count]:
    """Counts with no noun, each of the one name the clause before names: "it's not that there
    are no cars: there's one" (one car); none where that clause names two ("no dog on the sofa;
    there is one on the floor"). ``count_problem`` holds them to a name the caption affirms."""
    found = []
    for i, word in enumerate(tokens):
        of_them = tokens[i + 1 : i + 3] == ["of", "them"]  # "there are six of them"
        a_pair = word == "pair" and tokens[i - 1 : i] == ["a"]
        # "not as if the street has no benches - a pair sits under the trees"
        pair_does = a_pair and i >= 2 and tokens[i - 2] in _CLAUSE_STOPS
        pair_does = pair_does and tokens[i + 1 : i + 2] not in ([], ["of"], ["."], [","])
        pair = a_pair and (of_them or pair_does)
        start = i - 1 if pair else i
        end = i + 3 if of_them else i + 1
        counted = pair or word == "one" or is_number(word)
        # "there are no fewer than five": five or more
        least = at_least(tokens, start)
        # the words between "there is" and the count: "no fewer than", "exactly"
        said = least + (start > least and tokens[start - least - 1] in _EXACTLY)
        there = tokens[start - said - 2 : start - said] in _THERE_ARE_SOME
        # "it's not that there are no bikes - three are chained to the railings"
        some_are = start > 0 and tokens[start - 1] in _CLAUSE_STOPS and word != "one"
        some_are = (some_are and tokens[end : end + 1] in (["are"], ["were"])) or pair_does
        the_one = word == "one" and _the_one(tokens, mentions, i)
        # "it has two", "it has only one"
        having = start > said and tokens[start - said - 1] in _HAVING
        # after a dash or a bracket: "not without wine glasses - four of them -", "no sheep on
        # the hill? wrong - seven of them graze there"
        apposed = of_them and start > 0 and tokens[start - 1] in {";", "("}
        # "Zebra. Just one.": a count said alone, after the name
        alone = (
            word == "one"
            and said > 0
            and tokens[end : end + 1] in ([], ["."], ["!"], [";"])
            and (start == said or tokens[start - said - 1] in {".", "!", ";", ":"})
        )
        # where the one is: "there's one right outside the shop", "one idling at the curb"
        placed = word == "one" and _placed(tokens, end)
        # "not without a bus, one idling at the curb": the one the name before the comma names
        if placed and tokens[i - 1 : i] == [","] and tokens[end].endswith(("ing", "ed")):
            apposed = apposed or any(m.end == i - 1 for m in mentions)
        if not counted or not (there or some_are or the_one or having or apposed or alone):
            continue
        # "three are chained", "one sat idle", "seven of them graze", "Just one."
        clause_goes_on = some_are or the_one or apposed or alone
        goes_on = clause_goes_on or (there and placed)
        if tokens[end : end + 1] and tokens[end] not in _CLAUSE_ENDS and not goes_on:
            continue  # "there are three lamps": a count of what no name is
        name = next((m.name for m in mentions if m.end == start - 1), None) if apposed else None
        name = name or _clause_before(tokens, mentions, start - said - (0 if clause_goes_on else 1))
        if the_one and not _one_named(tokens, mentions, name, start):
            continue  # "two dogs: one is asleep": one of them
        if name is not None:
            fewest, most = (int(word), int(word)) if word.isdigit() else COUNTS[word]
            # "three are yellow and one is still green": four; "no fewer than five": or more
            more = _rest_are(tokens, end) if some_are else 0
            fewest, most = fewest + more, None if least or most is None else most + more
            found.append(Count(name, word, fewest, most, i, end, bound=True))
    return found


def _placed(tokens: list[str], at: int) -> bool:
    """Whether what follows a count at ``at`` says where it is, not what it counts: "right
    outside the shop", "parked at the curb", "idling right at the curb" (not "three lamps")."""
    word, after = tokens[at : at + 1], tokens[at + 1 : at + 2]
    if not word or not after:
        return False
    participle = word[0].endswith(("ing", "ed"))
    return (after[0] in PREPOSITIONS and (participle or word[0] in _PLACING)) or (
        participle and after[0] in _PLACING
    )


_PLACING = frozenset({"right", "just", "directly", "still", "somewhere", "out", "up", "down"})


def _the_one(tokens: list[str], mentions: list[Mention], i: int) -> bool:
    """Whether the "one" at ``i`` opens a bracket, what a colon sets out or a clause after a
    dash, and does something: "there was no train (one sat idle on the far track)", "not
    without a banana: one lies across the top", "not so quiet as to lack a motorcycle - a single
    one is parked by the curb"."""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    k = i - 1
    while k > 0 and tokens[k] in _ONE_SAID:  # "a single one", "just one"
        k -= 1
    opens = k >= 0 and (tokens[k] in {"(", ":"} or (tokens[k] == ";" and _after_a_dash(tokens, i)))
    # a verb after it, not a noun it counts: "one lies", "one sat", "one is" (not "one ripe
    # banana", "one slice remains")
    does = after in COPULAS | _DID or (after.endswith(("s", "ed")) and after not in _NOT_VERBS)
    named = any(i < m.start <= i + 3 for m in mentions)  # "(one train sat idle)": its own count
    return opens and does and not named


def _after_a_dash(tokens: list[str], i: int) -> bool:
    """Whether the "one" at ``i``, after a dash or a semicolon, is a count of one thing said
    before, not anyone's ("one can say") and not one of each ("one hangs above every door")."""
    rest = tokens[i + 1 : tokens.index(";", i) if ";" in tokens[i:] else len(tokens)]
    return bool(rest) and rest[0] not in _MODALS and not {"every", "each"} & set(rest)


_MODALS = frozenset({"can", "could", "would", "should", "must", "might", "may", "will"})


def _one_named(tokens: list[str], mentions: list[Mention], name: str | None, at: int) -> bool:
    """Whether the last mention of ``name`` before ``at`` is singular ("a banana", "no train"):
    the one it stands for, not one of many."""
    said = [m for m in mentions if m.name == name and m.end <= at]
    if not said:
        return False
    word = tokens[said[-1].end - 1]
    if IRREGULAR_PLURALS.get(word) == word:  # "the sheep": one or many, "a sheep": one
        return bool({"a", "an", "one", "single", "lone"} & set(tokens[said[-1].start - 3 : at]))
    return singular(word) == word


_ONE_SAID = _EXACTLY | {"a", "single"}  # said before "one": "a single one", "just one"
# Words ending as a verb does that are none.
_NOT_VERBS = frozenset({"less", "plus", "minus", "thus", "various"})
_DID = frozenset(
    {"has", "had", "sat", "lay", "stood", "hung", "ran", "went", "came", "fell", "slept", "held",
     "kept", "still", "just", "also", "can", "could", "will", "would", "may", "might"}
)  # fmt: skip
_CLAUSE_STOPS = frozenset({",", ";", ".", ":", "("})


def _rest_are(tokens: list[str], end: int) -> int:
    """How many more the sentence's next parts count after a part ends at ``end``: "three are
    yellow and one is still green" (one more)."""
    more = 0
    for i in range(end, len(tokens) - 2):
        if tokens[i] == ".":
            break
        word = tokens[i + 1]
        part = tokens[i] in {"and", ",", ";", "but", "while"} and tokens[i + 2] in COPULAS
        if part and (word == "one" or is_number(word)):
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
