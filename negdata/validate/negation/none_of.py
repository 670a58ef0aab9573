"""'none of the X' / 'neither of the X' and an indefinite subject of 'never'."""

from __future__ import annotations

import re

from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.words import (
    ANSWER_FILLERS,
    DETERMINERS,
    FRAME_WORDS,
    NONE_OF_VERBS,
    QUANTIFIERS,
    STOP,
)

_PREDICATE = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "reached", "came", "come", "returned"}
)
_PRESENT = re.compile(
    r"^(?:(?:is|are|was|were|can be|could be|can|could|has|have|had) )?(?:(?:been|be) )?"
    # "around" ends the phrase: "none of the chairs around the table" places the chairs
    r"(?:visible|present|here|there|anywhere|around(?! the| a| an| it| its| their)|seen|shown|"
    r"pictured|depicted|left|to be seen|"
    r"in (?:view|sight)|(?:in|within) (?:the |this )?(?:" + "|".join(FRAME_WORDS) + r")|"
    r"appears?|appeared|remains?|show up|shows up|arrived|come|came)\b"
)


# After the verb of "none of the X": X is where the picture is not ("none of the horses is in
# the paddock", "none of the dogs made it into the photo").
_ELSEWHERE = re.compile(
    r"^(?:(?:is|are|was|were|has|have|had) )?(?:been )?(?:(?:in|on|at|inside|within|into) "
    r"(?:the|this|that|its|their|our|my|his|her)\b|made it (?:in)?to\b|(?:came|come) back\b|"
    r"returned\b|reached\b|there\b|here\b|out$)"
)
_BE = frozenset({"is", "are", "was", "were"})
_HOLDING = frozenset({"carrying", "holding", "wearing", "bringing", "using"})
_NONE_OF_PRONOUNS = frozenset({"them", "these", "those"})


def decide_none_of(tokens: list[str], mentions: list[Mention]) -> tuple[set[int], set[int]]:
    """(negated, affirmed) mention starts decided by "none of" / "neither of" constructions."""
    negated: set[int] = set()
    affirmed: set[int] = set()
    for i in range(len(tokens) - 1):
        if tokens[i] not in {"none", "neither"} or tokens[i + 1] != "of":
            continue
        after = [m for m in mentions if m.start > i + 1]
        if not after:
            continue
        # The head noun: "none of the (old) chairs"; it need not be an object ("the shelves").
        verb = next((k for k in range(i + 2, len(tokens)) if tokens[k] in NONE_OF_VERBS), None)
        head_end = verb if verb is not None else len(tokens)
        if i + 2 < len(tokens) and tokens[i + 2] in _NONE_OF_PRONOUNS:
            head_end = i + 3  # "pizzas, none of them with broccoli": no head to decide here
        elif verb is None or after[0].start < verb:
            head = after.pop(0)
            head_end = head.end
            usual = "usual" in tokens[i + 2 : head.start]
            object_position = i > 0 and tokens[i - 1] not in {",", STOP} | ANSWER_FILLERS
            # "none of the cats are visible": what none of is there is not there.
            present = bool(_PRESENT.match(" ".join(tokens[head_end:])))
            at = next((k for k in range(head_end, len(tokens)) if tokens[k] in _PREDICATE), None)
            present |= at is not None and bool(_ELSEWHERE.match(" ".join(tokens[at:])))
            (negated if usual or object_position or present else affirmed).add(head.start)
        for m in after:
            between = tokens[head_end : m.start]
            if between and between[-1] in QUANTIFIERS:
                between = between[:-1]
            carrying = len(between) >= 2 and between[-2] in _BE and between[-1] in _HOLDING
            if between and (between[-1] in NONE_OF_VERBS | _HOLDING | {"with"} or carrying):
                negated.add(m.start)  # "none of the X has / holds / is carrying / holding a Y"
    return negated, affirmed


def never_subjects(tokens: list[str], mentions: list[Mention]) -> set[int]:
    """ "a car never passes by": an indefinite subject of "never" is negated."""
    result = set()
    for m in mentions:
        if m.end < len(tokens) and tokens[m.end] == "never":
            k = m.start - 1
            while k >= 0 and tokens[k] not in DETERMINERS:
                k -= 1
            if k >= 0 and tokens[k] in {"a", "an", "any"}:
                result.add(m.start)
    return result
