"""A pronoun for what a denial names: refused, not guessed at.

"There's no dog on the sofa - it's curled up on the floor" puts the dog in the picture, and
"no cars on the left, but several line the right" puts cars there, with a count; the rules bind
no pronoun to its noun, and read both as "no dog", "no cars". A clause that opens with "it",
"they" or "one" and says where the thing is ("no apples on the table - they're all in the bowl",
"no pizza in the oven - one is cooling on the counter"), after a clause that names something
the caption's reading denies, or a count with no noun of its own ("there is one on the corner",
"several line the right", "the groom holds one", "the woman has a yellow one", "no cat on
either", "both are pictured", "but the women do"), or a bunch of nothing named after a denial
("no bananas in the bowl, though the bunch on the counter is untouched") or a place full of it
("no cars on the left, the right side is lined with them"), or a place full of nothing it names
("far from empty, the harbour has no free mooring"), or "no one else" beside a speaker the rules
do not place ("just the dog and me; no one else"), or someone else doing what a denial denies
("the boy isn't the one flying the kite - his dad is"), makes the gate refuse the caption as
``unresolved_anaphor``. Where the rules already read the thing as there ("the dog isn't on the
bed; it's curled up underneath") nothing is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from negdata.detect.lexicon import Lexicon
from negdata.detect.vocab import singular
from negdata.validate.negation.mentions import TermIndex, build_index, find_mentions
from negdata.validate.negation.normalize import prepare
from negdata.validate.negation.words import DENIED_ABSENCE, NUMBER_WORDS, Polarity

_OPENS = r"(?:^|[|,;] ?)\s*(?:and |but |yet |so |though |while )?"
# "it is propped against the wall", "they are parked by the curb", "it sits on the floor",
# "they're all in the bowl" (prepared, "they all in the bowl": "'re" is dropped), "it's folded",
# "it's cooling on the counter"
_WHERE = (
    r"(?:propped|curled|sitting|lying|leaning|parked|perched|hiding|tucked|asleep|sleeping|"
    r"folded|closed|stacked|stowed|hanging|hung|snagged|stuck|caught|tangled|lodged|wedged|"
    r"resting|standing|waiting|cooling|drying|charging|napping|dozing|grazing|floating|moored|"
    r"docked|chained|tied|locked|stored|kept|placed|on|in|under|behind|beside|by|next|outside|"
    r"inside|over|across|down|up|at|near|below|above)"
)
_BE = r"(?:is|are|was|were|sits|sit|lies|lie|sleeps|sleep|stands|stand|has been|have been)"
_THING_PRONOUN = re.compile(
    rf"{_OPENS}(?:it {_BE} |they (?:{_BE} )?)(?:now |still |just |actually |instead |all )?"
    rf"{_WHERE}\b"
)
_QUANTITY = rf"(?:one|{'|'.join(NUMBER_WORDS)}|several|some|many|a few|plenty|lots)"
# "there is one on the corner", "but there are two, parked"
_THERE_ARE = re.compile(
    rf"\bthere (?:is|are|was|were) {_QUANTITY}(?= (?:on|in|at|by|near|under|behind|beside|next|"
    r"outside|inside|over|across|left|parked|sitting|lying|standing|though|too|as well)\b|"
    r" ?[|,.;]|\s*$)"
)
_NOT_ADJECTIVE = (
    r"(?:with|this|that|these|those|the|an?|of|in|on|at|to|for|by|and|or|but|is|are|was|were"
    r"|over|under|while|when|where)"
)
_HOLDS = (
    r"(?:holds?|holding|held|carr(?:y|ies|ying|ied)|has|have|had|brings?|bringing|brought|"
    r"shares?|sharing|shared|uses?|using|used|gets?|getting|got|grabs?|grabbing|grabbed|finds?|"
    r"finding|found|wears?|wearing|wore)"
)
# "no umbrella for the bride, but the groom holds one over them": a count as a verb's object
_VERB_COUNT = re.compile(
    rf"\b{_HOLDS} (?:{_QUANTITY}|another)(?= (?:over|under|for|in|on|at|"
    r"to|with|and|too|instead|each|between|as well|aboard|along|inside|back|home)\b| ?[|,.;]|\s*$)"
)
# "the man isn't holding an umbrella, though the woman has a bright yellow one"
_VERB_ONE = re.compile(
    rf"\b(?:{_HOLDS}|with) (?:an?|the|his|her|their|its) (?:(?!{_NOT_ADJECTIVE}\b)[a-z]+ ){{0,3}}?"
    r"ones?(?= ?[|,.;]|\s*$| (?:and|but|too|as|on|in|at|over|under|with|for|that|which|who)\b)"
)
# "no cat on either": a count of two things it names not again
_EITHER = re.compile(
    r"\b(?:on|in|under|by|beside|near|of|at|from|to) (?:either|neither)(?= ?[|,.;]|\s*$| of "
    r"(?:them|the two)\b)"
)
# "just the dog and me on the sofa; no one else": the speaker is someone the rules place
# nowhere ("a dog and its frisbee, nobody else": no person)
_NO_ONE_ELSE = re.compile(r"\b(?:no one|no-one|nobody|none) else\b")
_SPEAKER = re.compile(r"\b(?:me|us|myself|ourselves)\b")
# "the oven has no pizza in it - one is cooling on the counter": one of what was denied
# ... or does something: "no giraffes were harmed; one eats leaves"
_DOES = (
    r"(?:eats|drinks|runs|walks|plays|looks|watches|waits|rests|grazes|flies|swims|peeks|hides"
    r"|stares|naps|dozes|chews|sniffs|rolls|jumps|climbs|perches|lounges|remains|stays|wanders)"
)
_ONE_THERE = re.compile(rf"{_OPENS}(?:one|another) (?:already |still |now )?(?:{_BE}|{_DOES}) ")
# What an ellipsis's subject is, if not itself a denial ("but no dog does" is one)
_UNDENIED = r"(?!no |not |none |nobody |neither |nor )"
# "the men have no umbrellas but the women do", "but the boy beside him does": an ellipsis
# keeps what the denial names
_BUT_THEY_DO = re.compile(
    rf"\bbut {_UNDENIED}(?:the |some |a few |most |many |all |two |"
    r"three )?(?:[a-z]+ ){0,3}?[a-z]+ (?:do|does|did)"
    r"(?= ?[|,.;]| and\b| too\b|\s*$)"
)
# ... and so does one after a denied doing or place: "the boy isn't wearing a tie, though his
# dad is", "the sheep aren't in the field, but the cows are" (the field is the picture, and the
# sheep out of it or elsewhere in it?); not "the clock is not visible, but the vase is"
_THEY_ARE_TOO = re.compile(
    r"\b(?:is|are|was|were) not (?:[a-z]+ing|in|on|at|by|under|inside|near)\b[^|.;!?]*?"
    r"\b(?:but|though|although|while|whereas) "
    rf"{_UNDENIED}(?:[a-z]+ ){{1,4}}?(?:is|are|was|were)"
    r"(?= ?[|,.;]| and\b| too\b|\s*$)"
)
# "the boy isn't the one flying the kite - his dad is": someone else does it
_NOT_THE_ONE = re.compile(r"\b(?:is|are|was|were) not the ones? (?:who |that )?[a-z]+ing\b")
_TWO = re.compile(r"\b(?:two|2|both|pair|twin)\b")
# "it's the microwave, not the oven, that's broken; both are pictured": which both?
_BOTH_THERE = re.compile(
    r"\b(?:both|all three|all four) (?:of them )?(?:are|were) (?:all )?(?:pictured|shown|visible|"
    r"present|there|in (?:the )?(?:shot|frame|picture|photo))\b"
)
# "no bananas in the bowl, though the bunch on the counter is untouched": a bunch of what?
# ("bananas hang in a bunch": of what is there)
_BARE_BUNCH = re.compile(r"\b(?:the|a|that|this|one) (?:bunch|pile|heap|stack)\b(?! of\b)")
# "no cars on the left side, the right side is lined with them": full of what was denied
_FULL_OF_IT = re.compile(
    r"\b(?:lined|full|filled|packed|crowded|crammed|covered|littered|dotted|jammed|stacked|"
    r"heaped|piled|thick|teeming|swarming|loaded|lousy|stuffed) (?:with|of|in) (?:them|it)\b"
)
# "far from empty, the harbour has no free mooring left": full of what?
_FULL_OF_WHAT = re.compile(
    rf"\b{DENIED_ABSENCE} (?:empty|vacant|bare|deserted)\b"
    r"|\b(?:is|are|was|were)(?:n't| not) (?:empty|bare)\b"
)
# "..., but several line the right": the count's next word names no object, its verb follows
_COUNT_SUBJECT = re.compile(rf"{_OPENS}{_QUANTITY} ([a-z]+) (?:the|an?|on|in|at|by|along|near)\b")


def unresolved_anaphor(text: str, polarities: Mapping[str, Polarity], lexicon: Lexicon) -> bool:
    """Whether ``text`` says where a pronoun's thing is right after a clause that names something
    ``polarities`` (the caption's reading) denies, or, anywhere, how many there are of something
    it does not name."""
    prepared = prepare(text)
    denied = {name for name, polarity in polarities.items() if polarity == "negated"}
    index = build_index({name: lexicon.terms(name) for name in polarities})
    for match in (*_THING_PRONOUN.finditer(prepared), *_ONE_THERE.finditer(prepared)):
        before = re.split(r"[|,;]", prepared[: match.start()])[-1]
        if any(m.name in denied for m in find_mentions(before.split(), index)):
            return True
    for match in (*_BARE_BUNCH.finditer(prepared), *_FULL_OF_IT.finditer(prepared)):
        if any(m.name in denied for m in find_mentions(prepared[: match.start()].split(), index)):
            return True
    lowered = text.lower()
    if _FULL_OF_WHAT.search(lowered) and "affirmed" not in polarities.values():
        return True  # "far from empty": of nothing the caption names
    speaker_else = _NO_ONE_ELSE.search(lowered) and _SPEAKER.search(lowered)
    if polarities.get("person") == "negated" and speaker_else:
        return True  # "me ... no one else": the speaker is someone
    there_are = (
        m for m in _THERE_ARE.finditer(prepared) if not _of_one(prepared, m, polarities, index)
    )
    if any(there_are):  # what a rewritten denial said, too: "the street has some
        return True  # traffic lights | there is one on the corner"
    either = _EITHER.search(prepared)
    if either and _TWO.search(prepared[: either.start()]):
        either = None  # "two benches face the lake; nobody sits on either"
    verb_count = (
        m for m in _VERB_COUNT.finditer(prepared) if not _of_one(prepared, m, polarities, index)
    )
    others = (_BOTH_THERE, _BUT_THEY_DO, _THEY_ARE_TOO, _VERB_ONE, _NOT_THE_ONE)
    if denied and (either or any(verb_count) or any(p.search(prepared) for p in others)):
        return True
    return any(
        lexicon.name(singular(m.group(1))) is None and lexicon.name(m.group(1)) is None
        for m in _COUNT_SUBJECT.finditer(prepared)
    )


def _of_one(
    prepared: str, match: re.Match[str], polarities: Mapping[str, Polarity], index: TermIndex
) -> bool:
    """Whether the count ``match`` found is of the one name that the clause before it names, one
    the caption affirms, with none of its own before it: "it is not that there are no cars |
    there is one" (``claims`` counts it a car), "the kitchen has a microwave, since it has two";
    not "no dog on the sofa | there is one on the floor" (of the dog or the sofa?)."""
    clauses = re.split(r"[|,;:(]", prepared[: match.start()])
    if len(clauses) < 2 or any(m.name for m in find_mentions(clauses[-1].split(), index)):
        return False
    names = {m.name for m in find_mentions(clauses[-2].split(), index) if m.name}
    return len(names) == 1 and polarities[names.pop()] == "affirmed"
