"""Claims a sentence makes beyond which objects are there and which are not.

- An exclusive claim (``exclusivity``: "only a motorcycle", "just a bench", "nothing but
  sand") says that nothing else is there: it is true only when every object the evidence finds
  present is one the sentence affirms (``left_out``).
- A person's name implies what they use ("a skier": skis), and a speaker, a selfie or a crowded
  place implies a person (``implied_labels``).
- Text about the text ("the two images above", "this caption") and one object said to be
  another ("The dog is a lion") are refused.

The counts a sentence states are read and checked in ``negdata.validate.counts``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

from negdata.detect.lexicon import Lexicon
from negdata.detect.vocab import singular
from negdata.records import Verdict
from negdata.validate.counts import TOKEN, seats_taken
from negdata.validate.exclusivity import exclusive, only_kinds
from negdata.validate.negation.mentions import build_index, find_mentions
from negdata.validate.negation.words import COPULAS, GEAR, PREPOSITIONS, TEXTING

# The speaker among all there is: "just me and my bike" has a person in it.
_SPEAKER = re.compile(
    r"\b(?:just|only|simply)(?: the)? (?:me|us|myself|ourselves)\b",
    re.IGNORECASE,
)
# The speaker said to be in the picture: "me at the beach, no umbrella", "caught in the rain with
# no umbrella, classic me", "so me n my skateboard took over the park".
_ME_THERE = re.compile(
    r"^\W*me\b|\b(?:classic|typical|that's|thats|this is|here's|heres) me\b"
    r"|\b(?:me|us),? (?:and|n|&) (?:my|our)\b",
    re.IGNORECASE,
)
# Someone the sentence opens on, with nothing before it to stand for: "She isn't eating the
# sandwich but tearing it up for the ducks".
_THIRD_PERSON = re.compile(r"^\W*(?:she|he)\b", re.IGNORECASE)
# A selfie has its taker in it: "selfie w/ giraffe" (not "no selfies", "a selfie stick").
_SELFIE = re.compile(r"(?<!\bno )\bselfies?\b(?! sticks?\b)", re.IGNORECASE)
# A place said crowded has people in it: "crowded bus, no bicycles", "the beach is crowded",
# "Bus packed" (not "a crowded desk", "a counter crowded with jars", "a parking lot crowded
# with cars").
_PLACES = (
    r"(?:beach|street|sidewalk|pavement|bus|train|tram|subway|metro|ferry|platform|station"
    r"|terminal|airport|stop|shelter|market|bazaar|bar|pub|cafe|caf\u00e9|restaurant|terrace"
    r"|plaza|square|park|zoo|mall|shop|store|hall|room|stadium|arena|bleachers|stands|pool"
    r"|boardwalk|pier|promenade|carriage|elevator|lift|lobby|concert|festival|fair|classroom"
    r"|office|kitchen|rink|slope|trail|dance floor)(?:e?s)?"
    r"(?! (?:table|counter|desk|shelf|shelves|blanket|window|lot|rack)s?\b)"  # "café table"
)
_CROWD = r"(?:crowded|packed|jam-packed|crammed|bustling|heaving|thronged)"
_CROWDED = re.compile(
    rf"\b{_CROWD} (?!with\b)(?:[\w\u00e9]+ ){{0,2}}?{_PLACES}\b"
    rf"|\b{_PLACES} (?:(?:is|are|was|were|gets|got|stays|remains|looks)(?: [a-z]+ly)? )?"
    rf"{_CROWD}\b(?! with)"
    r"|\bnot un-?crowded\b",  # "beach / not un-crowded / kites: yes"
    re.IGNORECASE,
)


# A table's top is a table's: "tabletop items - laptop, cup" has a table.
_TABLETOP = re.compile(r"\btable[ -]?tops?\b", re.IGNORECASE)


def implied_labels(text: str, polarities: Mapping[str, str], lexicon: Lexicon) -> set[str]:
    """The labels an affirmed person's name implies ("a skier": skis), and the person an
    exclusive claim with its speaker in it implies ("just me and my bike"), a speaker said to be
    there does ("me at the beach", "classic me"), "she" or "he" opening the sentence does, a
    selfie, a crowded place ("crowded bus") and seats said taken do ("only two of the
    deckchairs are occupied"), and a tabletop its table; a sentence that says so is false where
    the evidence rules them out. Gear the sentence itself denies ("a surfer without a
    surfboard") it does not imply."""
    implied = set()
    speaker = (exclusive(text, lexicon) and _SPEAKER.search(text)) or _ME_THERE.search(text)
    speaker = speaker or _THIRD_PERSON.search(text) or _SELFIE.search(text)
    speaker = speaker or _CROWDED.search(text)
    taken = seats_taken(text)  # "two of the chairs are taken"
    if (speaker or taken) and polarities.get("person") != "negated":
        implied.add("person")
    if _TABLETOP.search(text) and polarities.get("dining table") != "negated":
        implied.add("dining table")
    if polarities.get("person") != "affirmed":
        return implied
    said = _said(text)
    words = {singular(w) for i, w in enumerate(said) if not _denied_word(said, i)}
    words |= TEXTING & set(said)
    return implied | {GEAR[w] for w in words & GEAR.keys() if polarities.get(GEAR[w]) != "negated"}


_DENIERS = frozenset({"no", "not", "without", "nor", "none", "never"})


def _said(text: str) -> list[str]:
    """The words and stops of ``text``, "n't" a word of its own: "wasn't" is "was not"."""
    return re.findall(r"[a-z]+|[,;:.]", re.sub(r"n['\u2019]t\b", " not", text.lower()))


def _denied_word(words: list[str], i: int) -> bool:
    """Whether a denial says there is none of ``words[i]``: "no swimmers, no (pro) surfers", but
    not "no other surfers"."""
    before = set(itertools.takewhile(lambda w: w[0].isalpha(), reversed(words[max(0, i - 3) : i])))
    # "not only a surfer", "no other surfers" (one is there), "not without its cyclists"
    if _DENIERS & before:
        return not before & _NOT_DENIED and not {"not", "without"} <= before
    return _in_denied_list(words, i)


def _in_denied_list(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` is an item of a list one denial spreads over: "no cars, cyclists or
    pedestrians" (a list with "or": "no leash, cyclists nearby" denies no cyclists)."""
    j, run = i - 1, 0
    while j >= 0 and i - j <= 12:
        if words[j] in {"no", "without", "nor"}:
            end = next((k for k in range(i, len(words)) if not words[k][0].isalpha()), len(words))
            return "or" in words[j:i] or "or" in words[i:end] or "nor" in words[j + 1 : end]
        if words[j] in {",", "or"}:
            run = 0
        elif words[j][0].isalpha() and run < 2:
            run += 1
        else:
            return False
        j -= 1
    return False


_NOT_DENIED = frozenset({"only", "other", "another", "more", "else"})


def _denied_gear(text: str, polarities: Mapping[str, str]) -> set[str]:
    """The gear of a rider the sentence denies, which it does not affirm itself: "no cyclists"
    says to most readers that there are no bikes (but "bikes racked, no cyclists" has them)."""
    said = _said(text)
    riders = {singular(w) for i, w in enumerate(said) if _denied_word(said, i)} & GEAR.keys()
    return {GEAR[w] for w in riders if polarities.get(GEAR[w]) != "affirmed"}


def denied_gear_there(
    text: str, polarities: Mapping[str, str], verdicts: Mapping[str, Verdict]
) -> bool:
    """Whether the evidence shows the gear of a rider the sentence denies (``_denied_gear``):
    "no cyclists" beside a bike, false to most readers."""
    return any(verdicts.get(gear) == "present" for gear in _denied_gear(text, polarities))


def implied_ruled_out(
    text: str, polarities: Mapping[str, str], verdicts: Mapping[str, Verdict], lexicon: Lexicon
) -> bool:
    """Whether the evidence rules out what the sentence implies (``implied_labels``): "a skier"
    with no skis, "just me and my bike" with nobody there. The sentence is then false."""
    return any(
        verdicts.get(label) == "absent" for label in implied_labels(text, polarities, lexicon)
    )


def left_out(
    text: str, polarities: Mapping[str, str], verdicts: Mapping[str, Verdict], lexicon: Lexicon
) -> list[str]:
    """The present objects an exclusive claim in ``text`` leaves out (a name is accounted for
    by any affirmed name that covers one of its labels: "only animals" covers the dog);
    ``[]`` when the claim holds or there is none."""
    if not exclusive(text, lexicon):
        return []
    kinds = only_kinds(text, lexicon)  # "the only animal": the animal covers no other animal
    implied = implied_labels(text, polarities, lexicon)  # "only a skier": skis
    affirmed = [
        lexicon.members(name)
        for name, pol in polarities.items()
        if pol == "affirmed" and name not in kinds
    ] + [frozenset({label}) for label in implied]
    return sorted(
        name
        for name, verdict in verdicts.items()
        if verdict == "present" and not any(members & lexicon.members(name) for members in affirmed)
    )


def negation_verdict(
    name: str, polarities: Mapping[str, str], verdicts: Mapping[str, Verdict], lexicon: Lexicon
) -> Verdict:
    """What the evidence says of a name the sentence negates. A label's own verdict; a kind's
    ("no vehicles") is that of every member the sentence does not affirm, since "a bicycle and
    no (other) vehicles" rules out the rest: absent when each of them is, present when any is."""
    members = lexicon.members(name)
    if members == {name}:
        return verdicts.get(name, "unverifiable")
    affirmed = set().union(*(lexicon.members(n) for n, p in polarities.items() if p == "affirmed"))
    rest = [verdicts.get(m, "unverifiable") for m in sorted(members - affirmed)]
    if not rest:  # "a dog and no animals": nothing left to rule out
        return "unverifiable"
    for verdict in ("present", "unverifiable", "uncertain"):
        if verdict in rest:
            return verdict
    return "absent"


# Text about the text or the page, not the picture: "the two images above", "this caption".
META = re.compile(
    r"\b(?:this|the|these|those|above|following) (?:caption|sentence|description|text|prompt)s?\b"
    r"|\b(?:images?|pictures?|photos?|photographs?) (?:above|below)\b"
    r"|\bthe (?:two|both|other|previous|next|first|second|last|earlier|former|preceding) "
    r"(?:images?|pictures?|photos?|photographs?)\b",
    re.IGNORECASE,
)
_BETWEEN = frozenset({"a", "an", "the", "actually", "really", "just", "also", "clearly"})
_RELATIVE = frozenset({"which", "who", "that"})
_HOLDING = frozenset({"wearing", "holding", "carrying", "using", "eating", "reading", "riding"})
_SHOWN = frozenset({"shown", "pictured", "seen", "visible", "here", "there"})


def meta_text(text: str) -> bool:
    """Whether ``text`` talks about the caption or the page instead of the picture."""
    return META.search(text) is not None


def _placed(tokens: list[str], start: int) -> bool:
    """Whether the noun phrase at ``start`` is the object of a preposition ("in the sink",
    "missing from the breakfast table")."""
    at = start - 1
    for _ in range(2):  # a modifier or two: "the breakfast table", "the big oak table"
        if at >= 1 and tokens[at].isalpha() and tokens[at] not in _BETWEEN | COPULAS | PREPOSITIONS:
            at -= 1
    while at >= 0 and tokens[at] in _BETWEEN:
        at -= 1
    # ... or of a verb: "the only one wearing a tie is the groom"
    return at >= 0 and (tokens[at] in PREPOSITIONS or tokens[at] in _HOLDING)


def identity_claim(text: str, lexicon: Lexicon) -> bool:
    """Whether ``text`` says one object is another, "The dog is a lion" (two names of
    ``lexicon``, neither covering the other, joined by "is a"), or is not itself: "The car in
    this image is not a car"."""
    tokens = TOKEN.findall(text.lower())
    names = {name: lexicon.terms(name) for name in lexicon.mentioned(text)}
    mentions = find_mentions(tokens, build_index(names))
    subject = None  # the last mention not in a place phrase: "(the cake) on the table is a"
    for first, second in itertools.pairwise(mentions):
        between = tokens[first.end : second.start]
        if _placed(tokens, first.start):
            # "the only thing in the sink is a toothbrush": a place, not a subject; "the cake
            # on the kitchen table is a dog": the cake is said to be one
            if subject is None or COPULAS & set(tokens[subject.end : first.start]):
                continue
            first = subject
        else:
            subject = first
        if first.name == second.name and _denied_itself(_past_place(between)):
            return True
        if len(between) > 1 and between[0] in _SHOWN and between[1] in COPULAS:
            between = between[1:]  # "(every spoon) shown is also a (dog)"
        if between[:1] == [","] and between[1:2] and between[1] in _RELATIVE:
            between = between[2:]  # "(the remote), which is a (parrot)"
        if not between or between[0] not in COPULAS:
            continue
        if not all(t in _BETWEEN or t.endswith("ly") for t in between[1:]):
            continue  # "is secretly a", "is actually a"
        if not lexicon.members(first.name) & lexicon.members(second.name):
            return True
    return False


def _past_place(between: list[str]) -> list[str]:
    """The words between two mentions past a short place phrase that qualifies the first:
    "(the car) in this image is not a (car)" -> "is not a"."""
    copula = next((i for i, t in enumerate(between) if t in COPULAS), None)
    place = between[:copula] if copula is not None else []
    if place and place[0] in PREPOSITIONS and len(place) <= 4 and all(t.isalpha() for t in place):
        return between[len(place) :]
    return between


def _denied_itself(between: list[str]) -> bool:
    """Whether the words between two mentions of one object deny it is itself: "(the car) is
    not a (car)"."""
    return (
        len(between) >= 2
        and between[0] in COPULAS
        and between[1] == "not"
        and set(between[2:]) <= _BETWEEN
    )
