"""A denial of a denial the rules do not rewrite: refused, not guessed at.

``normalize`` turns the double negations it knows into what they say ("it is not true that no
buses run here": some do; "there isn't a single chair that isn't taken": every one is). One that
is left, a cue with another inside the clause it embeds ("I would hardly call the shelf free
of books", "nobody would deny that there is no cat"), could be read either way round, and a reading
the wrong way round publishes a false sentence: the gate refuses it as ``double_negation``.
"""

from __future__ import annotations

import re

from negdata.validate.negation.normalize import prepare

_CUE = r"(?:no|not|never|none|nobody|nothing|without|lacks?|lacking|missing|absent|free-of)"
_FIRST = rf"(?:{_CUE}|hardly|barely|scarcely)"
# What embeds a clause, a few words after the first cue: "not that", "would deny that",
# "hardly call", "not say".
_SAY = r"(?:say|says|said|claim|claims|call|think|pretend|argue|deny|doubt)"
_EMBED = rf"(?:(?:[a-z'-]+ ){{0,3}}?{_SAY}|that)"
_GAP = r"(?:(?!\b(?:and|or|nor|but)\b)[^.;:!?|,]){0,60}?"  # no new list item or clause
_DOUBLE = re.compile(rf"\b{_FIRST} {_EMBED}\b{_GAP}\b{_CUE}\b")


def unread_double_negation(text: str) -> bool:
    """Whether ``text`` keeps, after the rules' rewriting, a cue inside what another embeds."""
    return _DOUBLE.search(prepare(text)) is not None
