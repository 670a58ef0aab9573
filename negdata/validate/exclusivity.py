"""Exclusive claims: a sentence that says what it affirms is all there is.

An exclusive claim ("only a motorcycle", "just a bench", "nothing but sand", "empty save for a
chair") is true only when every object the evidence finds present is one the sentence affirms
(``claims.left_out``). "Not only" and "not just" add rather than exclude, and claim nothing.
A claim about a kind ("the only animal is a cow") rules out the kind's other members
(``kind_exclusions``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from negdata.detect.lexicon import Lexicon
from negdata.validate.negation import Polarity

# People a sentence says there are no others of: "a woman reads; no other customers".
_PEOPLE = ("people", "persons", "customers", "guests", "passengers", "diners", "visitors",
           "shoppers", "patrons", "humans", "kids", "children", "adults", "players", "tourists",
           "pedestrians", "students", "workers")  # fmt: skip
_WORDS = r"(?:[\w'-]+,? ){0,12}"  # up to twelve words between the parts of a phrase
_BUT = r"(?:but|except|besides|apart from|other than|save|beyond|aside from|more than)"
EXCLUSIVE = re.compile(
    r"(?<!\bnot )\b(?:only|just|solely|merely|exclusively|alone|no one else)\b"
    # "a toothbrush lies solo", "the suitcase sits unaccompanied"; not "mid-solo", not
    # "unaccompanied by giraffes" (none there)
    r"|(?<!-)\bsolo\b(?!-)|\bunaccompanied\b(?! by\b)"
    r"|\bsole\b(?! of\b)"  # "sole occupant of the bench: a pigeon", not "the sole of a shoe"
    r"|\b(?:lone|only) occupants?\b"  # "the lone occupant of the lot is a pickup"
    # "a teddy bear on the shelf, the rest of which is bare", "bereft of anything but milk"
    r"|\bthe rest (?:of (?:which|it|them) )?(?:is|are|was|were|lies|stands) (?:bare|empty)\b"
    rf"|\b(?:bereft|devoid|empty|free) of (?:anything|everything) {_BUT}\b"
    r"|\bsimply (?=(?:an?|the|one|two|three|some)\b)"  # "simply a bowl of oranges"
    # "no other objects", "no other vehicles", but "no other customers" only says who is not
    rf"|\bno other\b(?! (?:{'|'.join(_PEOPLE)})\b)"
    # "nothing but", "nothing else", "nothing on it except", "no one in the room but"
    rf"|\b(?:nothing|nobody|no one|not (?:a|one|a single) thing)\b,? {_WORDS}(?:else|{_BUT})\b"
    # "a vase with nothing beside it", "no nothing", "a napkin the last thing on it"
    r"|\bnothing (?:beside|besides|near|around|next to|with) (?:it|them|him|her)\b|\bno nothing\b"
    r"|\bthe (?:last|only remaining) (?:thing|item|object)\b"
    # "a chair in an empty room", "a kite against an otherwise bare sky"
    r"|\b(?:in|on|at|across|along|against|inside) (?:an?|the|this|that) (?:otherwise |completely "
    r"|totally |entirely )?(?:empty|bare|deserted|vacant)\b"
    # "a lone tree, nothing else in sight", "a bench with nothing around"
    r"|\bnothing (?:else )?(?:in (?:sight|view|the frame|the picture|the shot)|around|nearby)"
    r"(?= *(?:[,.;:!?)]|$|and\b|but\b))"  # not "nothing in the picture suggests a plane"
    r"|\b(?:entirely|wholly|purely) of\b|\bnone but\b"
    r"|\bthe (?:whole|entire) (?:scene|picture|frame|image|photo|shot) is\b"
    r"|\bisolated on (?:an? )?(?:white|black|plain|transparent|grey|gray)\b"  # a stock photo
    # "empty except for a chair", "bare save for", "deserted but for"
    r"|\b(?:empty|bare|deserted|vacant|clear|unoccupied|unfurnished)\b,? "
    rf"{_WORDS}(?:{_BUT}|but for)\b"
    # "apart from the cat, the room is empty", "other than a bed, there is nothing"
    rf"|\b(?:apart from|aside from|other than|besides|save for|except for|short of|barring)\b "
    rf"{_WORDS}(?:nothing|nobody|no one|empty|bare|barren|deserted|unoccupied|vacant)\b"
    # "nothing whatsoever on the balcony bar a watering can", "a pair of boots excepted"
    rf"|\b(?:nothing|nobody|no one)\b,? {_WORDS}bar\b|\bexcept(?:ing|ed)\b"
    # "not a single other object", "not another thing", "one coat and naught else", "nothing
    # further", "and absolutely nothing more", "not a thing more"
    r"|\bnot (?:a single |one )?(?:other|another) (?:things?|objects?|items?)\b"
    r"|\bnot (?:a single|one) (?:thing|item|object)\b"
    r"|\b(?:nothing|naught|nought|nil|zilch|nowt|not a thing|not one thing) (?:else|more|further"
    r"|additional|in addition|alongside)\b|\bno anything\b|\bbeyond (?:that|this|it),? nothing\b"
    # "that's your lot", "that is literally everything", "that's the whole photo", "period."
    r"|\bthat(?:'s| is| was) (?:literally |really |basically |about )?(?:your lot|the lot|"
    r"everything|the entirety|the sum total|all there is|the (?:whole|entire) (?:picture|photo|"
    r"image|scene|thing|shot))\b|[,;]? (?:full stop|period)(?= *(?:[.;:!\u2014-]|$))"
    # "the single object on the platform", "the lone thing", "the single exception"
    r"|\bthe (?:single|lone|sole|only|one) (?:objects?|things?|items?|exceptions?)\b"
    # "the bench is the entire picture", "its entire content", "to the exclusion of all else"
    r"|\b(?:the|its) (?:entire|whole) (?:picture|photo|image|frame|scene|content|contents|shot)"
    r"\b(?! (?:is|of)\b)|\bto the exclusion of\b"
    # "cleared of all but a salt shaker", "everything has been removed except a mirror"
    rf"|\b(?:everything|all)\b {_WORDS}(?:but|except|save)\b(?! (?:there|it|no|not|nobody|"
    r"nothing|we|i|you|they|he|she|this|that)\b)"
    r"|\b(?:no|zero) (?:other )?(?:objects?|things?|items?)\b"
    r"|\bunaccompanied by (?:anything|anyone|anybody) else\b"
    r"|\ball (?:that(?:'s| is| are| remains| stands| sits)|there is|there's|is there|remains"
    r"|(?:you|i|we|one)(?:'ll| will| can| could)? (?:see|find|spot)|(?:that )?(?:can|could) be "
    r"(?:seen|found)|the (?:picture|image|photo|frame|shot|scene|camera) (?:contains|shows|holds"
    r"|has|captures|caught))\b"
    r"|(?:\b(?:and|with)|[,;:]) nothing (?:else|more)\b|\bthat(?:'?s| is) (?:it|all)\b"
    r"|\bby (?:it|them)sel(?:f|ves)\b|\bon its own\b"
    # "the dog has the couch (all) to itself"
    rf"|\b(?:has|have|had|having|gets?|got) {_WORDS}to (?:it|him|her|them)sel(?:f|ves)\b"
    # "an otherwise empty pasture", "a lone elephant and otherwise nothing on the horizon"
    r"|\botherwise (?:completely |entirely |totally )?"
    r"(?:empty|bare|deserted|vacant|clear|nothing|nobody|no one)\b"
    # "the slope is completely empty": nothing at all on it
    r"|\b(?:completely|entirely|totally) (?:empty|bare|deserted|vacant)\b"
    r"|\bclose-?up of\b"  # the thing fills the frame
    # "the entire frame is filled with oranges", "tulips fill the whole picture"
    r"|\b(?:fills?|filling|filled) (?:the )?(?:entire|whole) (?:frame|picture|image|photo|shot)\b"
    r"|\b(?:entire|whole) (?:frame|picture|image|photo|shot) is (?:filled with|full of|taken up)\b"
    r"|\bthe one (?:thing|object|item|and only)\b"
    r"|\bnot nothing\b"  # "there is not nothing on the table: a lone apple"
    # "no laptop, book or other objects visible": nothing else either
    r"|\bno\b[^.;:]*\b(?:or|nor) (?:any )?other (?:objects?|items?|things?|stuff)\b",
    re.IGNORECASE,
)
# "the only animal", "the sole piece of furniture": all there is of a kind (``only_kinds``).
_ONLY_KIND = re.compile(
    r"\b(?:the|its|their) (?:only|sole|one|single|lone) ((?:[a-z]+ ){0,2}[a-z]+)", re.IGNORECASE
)


def exclusive(text: str) -> bool:
    """Whether ``text`` claims that what it affirms is all there is."""
    return EXCLUSIVE.search(text) is not None


# "only one person", "just two dogs": a count to some readers, all there is to others.
_COUNTED_ONLY = re.compile(
    r"\b(?:only|just|solely|merely) (?=(?:one|two|three|four|five|six|a single|\d+)\b)",
    re.IGNORECASE,
)


def exclusive_only_by_count(text: str) -> bool:
    """Whether the only exclusive words of ``text`` are "only" or "just" before a number."""
    return exclusive(text) and not exclusive(_COUNTED_ONLY.sub("", text))


def only_kinds(text: str, lexicon: Lexicon) -> set[str]:
    """The kinds (names of several labels) ``text`` says there is one of: "the only animal",
    "the only electronic device in the room", "the sole piece of furniture"."""
    found = set()
    for match in _ONLY_KIND.finditer(text):
        words = match.group(1).lower().split()
        phrases = [" ".join(words[:n]) for n in range(len(words), 1, -1)] + words
        names = {lexicon.name(phrase) for phrase in phrases}  # "electronic device": both
        found |= {n for n in names if n is not None and len(lexicon.members(n)) > 1}
    return found


def kind_exclusions(
    text: str, polarities: Mapping[str, Polarity], lexicon: Lexicon
) -> dict[str, Polarity]:
    """``polarities`` and what an exclusive claim about a kind rules out: "the only vehicle is a
    motorcycle" says there is no bus and no car. A kind none of whose members the sentence
    affirms ("the only vehicle is parked") rules out none of them."""
    affirmed = [lexicon.members(n) for n, p in polarities.items() if p == "affirmed"]
    ruled_out: dict[str, Polarity] = {}
    for kind in only_kinds(text, lexicon):
        members = lexicon.members(kind)
        named = set().union(*(m & members for m in affirmed if m != members))
        if named:
            ruled_out |= dict.fromkeys(sorted(members - named - {kind}), "negated")
    return {**ruled_out, **polarities, **_others_there(text, polarities, lexicon)}


_NO_OTHER = re.compile(r"\bno other ([a-z]+)(?: ([a-z]+))?", re.IGNORECASE)


def _others_there(
    text: str, polarities: Mapping[str, Polarity], lexicon: Lexicon
) -> dict[str, Polarity]:
    """The labels "no other X" says there is one of: "five rowers glide by, with no other boats"
    has a boat. A kind ("no other vehicles") may be any of its members, and stays denied, as
    does X where something of its kind is there for "other" to mean ("a lone motorcycle, no
    other bikes")."""
    matches = list(_NO_OTHER.finditer(text))
    if not matches:  # the gate asks this of every caption; most say no "no other"
        return {}
    affirmed = {n for n, p in polarities.items() if p == "affirmed"}
    kinds = [lexicon.members(k) for k in lexicon.names() if len(lexicon.members(k)) > 1]
    found: dict[str, Polarity] = {}
    for match in matches:
        words = [w.lower() for w in match.groups() if w]
        names = [lexicon.name(" ".join(words)), lexicon.name(words[0])]
        name = next((n for n in names if n is not None), None)
        if name is None or polarities.get(name) != "negated" or lexicon.members(name) != {name}:
            continue
        if not any(name in kind and kind & affirmed for kind in kinds):
            found[name] = "affirmed"
    return found
