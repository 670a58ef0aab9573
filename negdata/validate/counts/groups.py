"""Which of a sentence's counts add up, and which say the same ones again.

"a man and a woman" (two people), "a mother with three children" (four), "two people, a man
and a woman" (two), "three cows and their calf - four head of cattle" (four).
"""

from __future__ import annotations

from negdata.detect.vocab import singular
from negdata.validate.counts.kin import brood
from negdata.validate.counts.words import ARTICLES, COUNTS, POSSESSIVES, Count
from negdata.validate.negation.words import (
    COPULAS,
)

_JOINS = frozenset({"and", ",", "a", "an", "the"}) | POSSESSIVES  # "a woman and her two daughters"


def listed(stated: list[Count], tokens: list[str]) -> list[list[Count]]:
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
        if last is not None and brood(tokens, last[-1], count):
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
