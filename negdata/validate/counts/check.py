"""Counts checked against the boxes: true, not true, or not backed by any box."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

from negdata.detect.lexicon import Lexicon
from negdata.validate.counts.alone import ALONE, ME_ALONE
from negdata.validate.counts.bound import stray_number
from negdata.validate.counts.groups import listed
from negdata.validate.counts.read import stated_counts
from negdata.validate.counts.words import DENIED, GRAMMAR, tokenize
from negdata.validate.exclusivity import exclusive
from negdata.validate.negation import mention_terms

# What is wrong with a count (``count_problem``).
CountProblem = Literal["count_not_true", "count_unverified"]
# A place full of people: "a woman crosses a busy street" is one of many there.
_BUSY = re.compile(r"\b(?:busy|crowded|bustling|packed|thronged|teeming)\b", re.IGNORECASE)


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
    stated, uncounted = stated_counts(
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
    for said in listed(checked, tokenize(text)):
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
        # ... unless a count said after them is of them: "its cups - there are three"
        some_more = said[0].name in uncounted and not any(c.bound for c in said)
        too_many = len(bounded) == len(said) and seen > sum(bounded) and not some_more
        if seen < sum(c.fewest for c in said) + (1 if some_more else 0) or too_many:
            return "count_not_true"
    if (
        articles
        and ME_ALONE.search(text)
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
