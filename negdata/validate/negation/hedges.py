"""Hedges: objects only supposed, expected, compared with or asked about are neither affirmed
nor negated."""

from __future__ import annotations

import re

from negdata.validate.negation.mentions import Mention
from negdata.validate.negation.scope import scope_end
from negdata.validate.negation.words import BENEFICIARIES, HEDGE, SIGN_NOUNS

SIGNS = rf"(?:{'|'.join(SIGN_NOUNS)})s?"
HEDGES = (
    r"\bthere (?:could|might|may|should|would|must)(?: not| or (?:may|might) not)? "
    r"(?:be|have been)\b",
    r"\bthere (?:is|are|was|were) supposed to be\b",
    r"\b(?:could|might|may) (?:or (?:may|might) not )?be (?=hidden|lurking|somewhere|tucked|"
    r"behind|inside|under|beneath|underneath|nearby|around|out of|there\b|present|visible)",
    r"\b(?:perhaps|maybe|possibly)(?: there (?:is|are|was|were))?\b",
    r"\bif there (?:is|are|was|were)\b",
    r"\b(?:mentions?|mentioned|warns? (?:of|about)|warned (?:of|about)|calls? for|advertises?|"
    r"advertised|equivocal|indeterminate|rule out|ruling out|question of|possible|suspected|"
    r"concerning for|suggestive of|"
    r"not (?:assessed|evaluated|examined)|"
    r"(?:can not|could not|not) be (?:excluded|ruled out)|not (?:excluded|ruled out)|"
    r"expects?|expected|expecting|looking for|looked for|look for|searching for|"
    r"search for|room for|space for|wants?|wanted|wish for)\b",
    # what a place is for: "reserved exclusively for buses, the lane has no bus"
    r"\b(?:reserved|meant|intended|designed|set aside|earmarked) (?:exclusively |only |solely "
    r"|just |specifically |strictly |purely )?for\b",
    # What a sign says is text, not what is there: "a sign welcoming pets", "a poster that
    # reads no dogs".
    rf"\b{SIGNS}(?: that)? (?:says?|said|saying|reads?|reading|welcom(?:es|ed|ing)|"
    r"warns?|warning|bans?|banning|forbids?|forbidding|prohibits?|prohibiting|allows?|"
    r"allowing|announces?|announcing|advertising|offers?|offering)\b",
    # A comparison of numbers denies nothing: "no more bicycles than cars", "no fewer than two".
    r"\bno (?:more|fewer|less)\b(?=[^.;:!?]*\bthan\b)",
    # A comparison's standard: "no bigger than a teacup", "the size of a football".
    r"(?<![-\w])(?<!other )(?<!rather )(?:than|the size of|as (?:big|small|large|tall|long) as)"
    r"(?= an? )",
)
# Hedges of what follows only ("a man waiting for a bus": the man is there): waiting for,
# awaiting ("stools await the lunch crowd"), hoping (for), trying to find, and likeness ("a
# cloud shaped like a dog", "a boy dressed as a bear").
HEDGE_AFTER = re.compile(
    r"\b(?:in search of|hoping(?: for)?|hoped(?: for)?|hopes?(?: for)?|waits? for|waiting for|"
    r"waited for|awaits?|awaiting|"
    # an attempt: "tried to get a pic of the ducks (but there are no birds)"
    r"(?:tried|trying|tries) to (?:get|take|snap|catch|find|spot|photograph|shoot)(?: (?:an?|the) "
    r"(?:pic|photo|picture|shot|snap) of)?|"
    r"awaited|"
    r"(?:looks?|looking|looked|shaped|dressed(?: up)?|disguised) (?:like|as)|not unlike|"
    r"resembles|resembling|resembled|promises?|promised|"
    # a likeness: "a bronze statue of a soldier", "a painting of a horse"
    r"(?:statue|sculpture|figurine|painting|drawing|mural|poster|carving|effigy|bust) of)"
    r"\b(?= (?:an?|the|some) )"
    # "waiting for the passing bus", "waits for the light" (to change): it is there
    r"(?! (?:an?|the) (?:passing|approaching|oncoming|arriving|departing|idling|stopped|parked"
    r"|(?:(?:red|green|amber) )?lights?)\b)"
)
# ... and what is where it usually is, not where it is now: "the right, where the cows usually
# graze, is bare grass with no cattle".
HEDGE_HABIT = re.compile(
    r"\bwhere(?= (?:the|its|their|his|her) (?:[a-z]+ ){1,2}(?:usually|normally|typically|often"
    r"|always|once|used to)\b)"
)
# ... and who a thing is for ("no bench for visitors", "a table set for four guests"; not "never
# lacks for visitors", which ``prepare`` writes "always has for visitors").
HEDGE_FOR_WHOM = re.compile(
    r"(?<!\black )(?<!\blacks )(?<!\blacked )(?<!\blacking )(?<!\bhas )(?<!\bhave )\bfor"
    r"(?= (?:the |all |any |its |their |our |young |\d+ |two |three |four |five |six )?"
    rf"(?:{BENEFICIARIES})\b)"
)
# "unclear whether the object is a suitcase": the rest of the clause is hedged.
HEDGE_CLAUSE = re.compile(
    r"\b(?:(?:unclear|uncertain|unsure|not sure|hard to tell|wonder) (?:whether|if)|whether|"
    r"imagine|(?:i|we) wish|if only|should (?:we|i)|would (?:an?|the|you|we)"
    # what happens only at other times: "only after dark does this alley fill with cats"
    r"|only (?:after|when|once|during|until|before) (?:[a-z]+ ){0,5}?(?:does|do|will|would))"
    r"(?: there (?:is|are|was|were))?\b"
)


def hedged_starts(tokens: list[str], mentions: list[Mention]) -> set[int]:
    """Starts of mentions only supposed or asked about: in the scope of a hedge ("there could be
    a cat", "want a phone?"), before one ("zebra not excluded"), or in a hedged clause ("unclear
    whether it is a suitcase")."""
    starts = {m.start for m in mentions}
    ends = {m.start: m.end for m in mentions}
    span: set[int] = set()
    for i, token in enumerate(tokens):
        if token != HEDGE or (i and tokens[i - 1] == HEDGE):
            continue
        if i + 1 < len(tokens) and tokens[i + 1] == HEDGE:
            span.update(range(i, len(tokens)))
        else:
            scope_end(tokens, i + 1, starts, ends, span)
    result = {m.start for m in mentions if m.start in span}
    for m in mentions:
        k = m.end
        while k < len(tokens) and tokens[k] in {"is", "are", "was", "were"}:
            k += 1
        if k < len(tokens) and tokens[k] == HEDGE:
            result.add(m.start)
    return result
