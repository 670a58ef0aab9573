"""Negation cues and their scope: does a caption affirm, negate, or not mention an object?

The checker is a small rule system over tokens, no parser:

1. Normalise: contractions ("isn't" -> "is not", "it's" -> "it is", also typed without the
   apostrophe: "isnt", "doesnt", "aint", "theres"), dotted initialisms ("T.V." -> "TV"), a
   possessive "'s" -> a mark ("the child's bike"), "not one of" and "neither dog has" -> "none
   of", a rule ("no dogs allowed", "phones are not permitted") -> a hedge, "w/o" -> "without",
   "nobody" / "no one" / "not a soul" / "deserted" / "uninhabited" -> "no person" (and "nobody
   brought forks" -> "no person brought no forks"), "X-free" / "X-less" / "Xless" -> "no X",
   "fails to show" -> "does not show", "failed to arrive" -> "did not arrive", "forgot to bring"
   -> "did not have", "ran out of" -> "no", "not any of" / "no one of" / "nothing of" -> "none
   of", "of X there is no sign" -> "no X", "X's gone / not" -> "X is ...", file-name slugs
   ("beach-no-people.jpg") -> words, "no longer has / is visible / hangs / sleeps" and "used to
   have" -> a negation,
   "not V-ed by any X" -> "not have any X", "nothing (here) suggests a X" -> "no X", counts of
   zero ("Cars: 0", "0 trucks", "balls x0") -> "zero", report phrasing ("negative for", "no /
   without evidence of", "resolution of", "Toilet: absent", "Not found: X") -> a cue; split
   hyphenated words ("double-decker") but keep counts whole ("a two-person tent"), drop
   descriptors that name no one ("men's necktie", "its mother"), and drop the false friends that
   contain a cue word but negate no object ("not only", "no doubt", "nothing but", "no longer",
   "not far from", "not enough", "no bigger than", ...). Hedges ("there could be", "maybe",
   "rule out", "not excluded", "expect", "want", "room for", "unclear whether", "waiting for", a
   likeness: "shaped like a dog", "dressed as a bear", the standard of a comparison: "than a
   teacup") become a ``HEDGE`` mark.
2. Split into clauses at sentence punctuation and at contrast and relative words ("but",
   "while", "only", "except", "which", ...; not "this" / "it" after a preposition: "in this
   photo").
3. Find object mentions, longest term first, so "hot dog" is not a dog and "teddy bear" not a
   bear; a term used as a modifier ("bus stop", "train station", "an orange bus", "a baby
   elephant", "a keyboard player") or as a verb ("to tie his shoes", "she ties a ribbon") is no
   mention, and neither is a phrase of ``NOT_OBJECTS`` ("zebra crossing", "field mouse", "coffee
   table", "Super Bowl", "piece of cake", "ski lift", "a couple of dogs"), nor a person noun
   right before another name ("a family dog", "the team bus"), nor an owner before a named thing
   ("Mum's handbag", "the residents' bikes"); an owner before anything else ("the goalkeeper's
   gloves") is affirmed only if the caption does not deny it elsewhere.
4. A pre-nominal cue ("no", "without", "lacking", "free of", "instead of", "neither"/"nor",
   "sans", "minus", "zero", "excluding", "not a", "does not have", "never had", ...) negates the
   noun phrases that follow it, through coordination ("no cats, dogs, or birds", "minus the
   toast and the cup"), compounds of names ("no electronic devices") and examples ("such as
   phones or laptops"), until a preposition, "of" (except after a partitive: "not a slice of
   pizza"), a verb, a new determiner after "and" or a comma, a list item that names no object
   ("no umbrellas, turquoise water, boats"), a verb and its object after a comma ("no clocks,
   lived a girl"), or the end of the clause.
5. A post-nominal cue negates the noun phrase before it: "X is missing / absent / gone / nowhere
   to be seen / not in the picture / not visible / can not be seen / not depicted / removed /
   excluded / ruled out", departures and consumption ("X has left / has flown away / left an
   hour ago / has not arrived / was eaten / was sold / stolen / replaced / put or packed away"),
   being elsewhere ("X is away / elsewhere / out / not home / in the other room / beyond the
   frame", "X stayed home", "X is no longer on the wall"), "X does not" (ellipsis), "X: none", "X,
   no" ("Cars, yes; buses, no"), "X: none visible / nil / negative / undetected", "X is cropped
   out", also past an aside ("The couch, usually present, is absent") and over a list ("a table,
   a bed, and a fridge are absent"); "absent / missing from the scene (:) X" and "nothing
   resembling a X" are pre-nominal.
6. "none of the X" presupposes X ("none of the chairs are occupied": chairs exist) unless X is
   "the usual X" or "none" is an object ("holds none of the books"); "none of the X is a Y",
   "none of the X has / holds / with a Y" negate Y; "none of the X are visible / have arrived /
   are in the paddock / made it into the photo" negates X, and "none of them are in the room"
   answers the clause before (8). Inside a cue's scope an unknown verb with an object ends it
   ("without a helmet rides a bicycle").
7. A mention in the scope of a hedge, or just before one, is neither affirmed nor negated.
   ``analyze`` adds what the caption's topic decides: "bat" / "glove" / "mitt" are baseball's in
   a dugout, a "batter" or "pitcher" by a mound is a player, "board" a surfer's or a skater's;
   "he" / "she" with no animal about is a person; a mouse that scurries in a barn is no computer
   mouse.
8. A clause that names no object and opens with a denial ("No.", "Nope", "Not here", "I don't",
   "there isn't one", "there's none", "it was removed", "it's not in this photo", "Absent.",
   "Gone.", "Sold out") negates the objects of the clause before that were only supposed about
   ("No phones allowed, and none are visible"), else the one "it" / "they" stands for (the last
   named), else the first named: the object asked about ("Any phone? No.", "You might expect a
   dog, but there isn't one"); "there's one" / "yes" affirms a hedged one, and "a black one" /
   "the dirty ones" affirms the last one just denied ("No white cars, only a black one").

Everything mentioned and neither negated nor hedged is affirmed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from negdata.detect.lexicon import Lexicon
from negdata.detect.vocab import singular

Polarity = Literal["affirmed", "negated", "unmentioned"]

FALSE_FRIENDS = (
    "not only", "no doubt", "without a doubt", "no wonder", "no matter", "never mind",
    "not to mention", "none other than", "no longer", "not far from", "not far", "not bad",
    "not surprisingly", "no big deal", "none the worse", "no denying", "nothing but",
    "never a dull moment", "middle of nowhere", "to nowhere", "feel free", "never have i",
    "never seen without", "not least", "no problem", "no way", "no filter", "nobody xposs perfect",
    "nowhere near", "nobody is perfect", "no one is perfect", "not enough", "no fewer than",
    "no less than", "no more than", "not more than", "not less than", "not a lot", "not lots",
)  # fmt: skip
PERSON_NEGATIONS = (
    "not a single soul", "not a soul", "nobody", "no one", "no-one", "noone", "deserted",
    "uninhabited", "unpopulated",
)  # fmt: skip
_PERSON_NEGATION = re.compile("|".join(rf"\b{p}\b" for p in PERSON_NEGATIONS), re.IGNORECASE)
BREAK = "|"  # ends a clause
STOP = "#"  # ends a negation scope, not a clause
CLAUSE_WORDS = frozenset(
    {"but", "while", "whereas", "although", "though", "yet", "however", "instead", "except",
     "only", "just", "so", "because", "where", "which", "who", "that", "when", "since", "as",
     "rather", "unlike", "apart", "besides", "leaving", "it", "they", "there", "this", "these"}
)  # fmt: skip
PREPOSITIONS = frozenset(
    {"on", "in", "at", "by", "near", "beside", "besides", "next", "behind", "under", "above",
     "over", "inside", "outside", "around", "along", "across", "from", "into", "onto",
     "against", "with", "for", "to", "toward", "towards", "through", "past", "off", "up",
     "down", "out", "among", "between", "beneath", "below", "underneath", "within", "anywhere",
     "here", "today", "tonight", "yet", "again", "how", "like", "after", "before", "during"}
)  # fmt: skip
VERBS = frozenset(
    {"is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "does", "do",
     "did", "will", "would", "can", "could", "may", "might", "must", "should", "sits", "sit",
     "stands", "stand", "lies", "lie", "remains", "remain", "waits", "wait", "looks", "look",
     "runs", "run", "parked", "seen", "left", "lying", "sitting", "standing", "waiting",
     "pass", "passes", "fill", "fills", "hangs", "rests", "grazes", "graze", "sleeps",
     "full", "filled", "covered", "packed", "stocked", "holding", "furnished", "home"}
)  # fmt: skip
DETERMINERS = frozenset(
    {"a", "an", "the", "this", "that", "these", "those", "its", "his", "her", "their", "our",
     "my", "your", "some", "one", "two", "three", "several", "many", "few", "every", "each", "num",
     "all", "another", "i", "we", "you", "he", "she", "they", "it"}
)  # fmt: skip
QUANTIFIERS = frozenset({"a", "an", "any", "one", "single", "even", "more", "the", "enough"})
HAVE_VERBS = frozenset(
    {"have", "has", "had", "having", "see", "sees", "seen", "saw", "contain", "contains",
     "hold", "holds", "holding", "include", "includes", "show", "shows", "showing", "feature",
     "features", "find", "found", "spot", "notice", "carry", "carries", "carrying", "wear",
     "wears", "wearing", "sell", "sells", "get", "got", "been", "be", "exist", "exists",
     "appear", "appears", "need", "there", "is", "are", "was", "were", "own", "owns"}
)  # fmt: skip
PRE_CUES = frozenset(
    {"no", "without", "lacking", "lacks", "lack", "free-of", "devoid-of", "empty-of",
     "emptied-of", "clear-of", "cleared-of", "neither", "nor", "instead-of", "rather-than",
     "absent", "missing", "not-pictured", "not-present", "nowhere", "sans", "minus", "zero",
     "excluding", "excludes", "exclude", "void-of", "bereft-of", "barren-of", "stripped-of"}
)  # fmt: skip
NONE_OF_VERBS = frozenset(
    {"is", "are", "has", "have", "hold", "holds", "contain", "contains", "carry", "carries",
     "own", "owns", "wear", "wears"}
)  # fmt: skip
VERBAL_CUES = frozenset({"not", "never"})
FRAME_WORDS = ("picture", "frame", "view", "sight", "shot", "photo", "image", "scene")
_POST = re.compile(
    r"^(?:(?:is|are|was|were|be|been|has|have|had|remains?|seems?|now|still|also|completely|entirely|"
    r"noticeably|conspicuously|usually|today|sadly|currently|can|could|will|would|may|might|"
    r"just|since|recently|apparently|clearly|all) )*"
    r"(?:missing|absent|nowhere|gone|disappeared|vanished|ruled out|"
    r"(?:has|have|had) (?:already |just |long |all )?(?:left|departed|flown|driven|sailed|"
    r"moved on|gone away|run off|run away)|(?:not|yet to) (?:arrived?|come|shown up|turned up)|"
    r"(?:left|departed)(?= (?:an? |some |many |several |a few )?[a-z]+s? ago| early| already)|"
    r"(?:flew|drove|sailed|ran) (?:away|off)|"
    r"(?:been |was |were )(?:eaten|sold|towed|demolished|taken away|put away|cleared away|stolen|"
    r"left behind|picked|replaced|thrown (?:away|out)|given away)|"
    r"(?:is |are )?(?:put|packed|cleared|tucked|stored) away|"
    # elsewhere: "the cows are away", "the cat is out", "the laptop is in the other room"
    r"(?:is|are|was|were) (?:all |now |still |currently |today )?(?:away|elsewhere|"
    r"out(?= ,|$| and\b)|not (?:at )?home|(?:in|at) (?:the |an )?(?:other|another|next) room)|"
    r"stayed (?:at )?home|stayed behind|(?:beyond|outside) (?:the |this )?(?:frame|picture|shot)|"
    r"out of (?:the )?(?:frame|picture|shot|view|sight)|off (?:camera|screen)|"
    r"none(?: at all| whatsoever)?(?= (?:in|on|at|here|there|today|anywhere|around)\b)|"
    r"(?:(?:none(?: at all| whatsoever)?|no|nope|zero|nil|negative|undetected|unseen|sold out|"
    r"removed|excluded)(?= ,|$))|(?:removed|excluded)(?= from\b)|"
    r"none (?:visible|seen|present|observed|found|detected|noted|identified|pictured|shown|"
    r"to be (?:seen|found)|in (?:sight|view))|"
    r"(?:cropped|cut|edited) out(?! of)|"
    r"(?:(?:does |do |did )?not|never) (?:appears?|appeared|show(?:s|ed)? up|turn(?:s|ed)? up|"
    r"arrived?|came)\b|"
    r"(?:(?:is|are|was|were|been|being) (?:removed|excluded|taken (?:away|down|out)))|"
    r"(?:does |do |did )?not$|"
    r"not (?:be )?(?:present|visible|pictured|here|there|around|anywhere|seen|identified|"
    r"detected|noted|observed|found|shown|spotted|evident|visualized|visualised|appreciated|"
    r"demonstrated|depicted|included|featured|captured|in (?:view|sight)|"
    r"(?:in|within) (?:the |this )?(?:[a-z]+ )?(?:" + "|".join(FRAME_WORDS) + r")))\b"
)
CLINICAL_PRE = re.compile(
    r"\b(?:negative for|(?:the |a )?(?:absence|removal|lack|resolution) of|no presence of|"
    r"no (?:interval |new )?(?:development|appearance) of|"
    r"(?:no|not an?|not a single|not one|without|lacking|lacks?) (?:any )?"
    r"(?:visible |obvious |clear )?(?:evidence|signs?|traces?|indications?|hints?)"
    r"(?: whatsoever| at all)? (?:of|that))"
    r"(?: (?:a|an|any))?\b"
)
_POST_MISSING_OK = frozenset(
    {",", BREAK, STOP, "from", "too", "today", "again", "now", "entirely", "at", "in", "on", "here",
     "and"}
)  # fmt: skip
COMPOUND_HEADS = frozenset(
    {"station", "stop", "stand", "track", "tracks", "ride", "window", "shelter", "lane",
     "route", "ticket", "rack", "depot", "terminal", "conductor", "juice", "peel", "tree",
     "control", "controls", "village", "area", "location", "island", "cover", "case", "shop",
     "store", "stall", "vendor", "seat", "light", "lights", "driver", "drivers", "sign",
     "signs", "wheel", "wheels", "club", "team", "court", "field", "racket", "bag", "shaped",
     "box", "boxes", "cutter", "slicer", "crate", "carrier", "leash", "collar", "food", "kennel",
     "cage", "bowl", "bowls", "dish", "bed", "beds", "toy", "toys", "house", "feeder", "player",
     "players", "charger", "chargers", "cable", "cord", "holder", "flap", "tray", "net", "hoop",
     # accessories sold or shown for a thing: "a bike helmet", "oven mitts", "a cake topper"
     "trees", "helmet", "helmets", "lock", "locks", "pump", "topper", "toppers", "mitt", "mitts",
     "sleeve", "sleeves", "mount", "mounts", "carousel", "claim", "allowance", "tag", "tags"}
)  # fmt: skip
PARTITIVES = frozenset(
    {"slice", "slices", "piece", "pieces", "pair", "pairs", "bunch", "bunches", "box", "boxes",
     "plate", "plates", "stack", "stacks", "pile", "piles", "set", "sets", "loaf", "carton",
     "crate", "crates", "herd", "herds", "flock", "flocks", "pack", "packs", "group", "groups",
     "couple", "lot", "lots", "row", "rows", "basket", "baskets", "tray", "jar", "kind", "kinds",
     "sort", "sorts", "type", "types", "form", "forms", "number", "crowd", "line", "team",
     "family", "swarm"}
)  # fmt: skip
EXAMPLE_WORDS = frozenset({"such-as", "including", "like", "especially"})
SOFT_PREPOSITIONS = frozenset({"here", "today", "tonight", "yet", "again", "anywhere"})
ADVERBS = frozenset({"even", "really", "exactly", "ever", "yet", "currently"})
# Phrases that contain a term but name something else: no mention of anything.
NOT_OBJECTS = (
    "zebra crossing", "field mouse", "house mouse", "mouse pad", "mouse mat", "lunch bag",
    "shopping bag", "plastic bag", "paper bag", "tea bag", "sleeping bag", "bean bag",
    "garbage bag", "trash bag", "punching bag", "coffee table", "side table", "bedside table",
    "end table", "pool table", "changing table", "table tennis", "apple pie", "chocolate orange",
    "bear hug", "cat walk", "hot tub", "super bowl", "rose bowl", "dust bowl", "piece of cake",
    "train of thought", "ball of yarn", "ball of wool", "ball of string", "ball of twine",
    # a group of animals or things, not people: "a couple of dogs", "a family of ducks"
    "couple of", "family of", "team of", "crew of", "family room", "traffic cone",
    # what skiers use or where they go, not skis
    "ski lift", "ski slope", "ski resort", "ski pole", "ski instructor", "ski lodge",
    "ski jacket", "ski boot", "ski goggle", "ski mask", "ski trip", "ski run", "ski area",
    "ski chalet", "ski patrol", "ski jump", "ski school", "ski pass", "ski hill", "ski season",
    "ski town", "ski suit", "ski trail",
)  # fmt: skip
PREFIX_MODIFIERS = frozenset({"baby", "toy"})
VERB_OBJECTS = frozenset(
    {"his", "her", "their", "its", "my", "your", "our", "the", "a", "an", "up"}
)
SUBJECTS = frozenset({"to", "he", "she", "they", "i", "we", "you", "who"})
AMBIGUOUS_ADJECTIVES = frozenset({"orange", "remote"})
# Predicates after an ambiguous word show it is the noun: "remote present", "orange: none".
_NOUN_PREDICATES = frozenset(
    {"present", "visible", "shown", "pictured", "missing", "absent", "gone", "yes", "no", "none",
     "zero", "nope", "included", "removed", "either", "anymore"}
)  # fmt: skip
INTENSIFIERS = frozenset({"so", "too", "very", "quite", "rather", "more", "most", "less"})
_SHOW_VERBS = (
    "show|shows|include|includes|depict|depicts|feature|features|capture|captures|contain|contains"
)
_POSSESS_VERBS = (
    "brought|brings|bring|carries|carry|carrying|has|have|holds|holding|wears|wearing|uses|using|"
    "owns|took|takes"
)
_TOKEN = re.compile(r"[a-z]+(?:-[a-z]+)*|[,|#]")


HEDGE = "hedge"  # an object only supposed, expected or asked about: neither affirmed nor negated
_HEDGES = (
    r"\bthere (?:could|might|may|should|would|must)(?: not| or (?:may|might) not)? "
    r"(?:be|have been)\b",
    r"\bthere (?:is|are|was|were) supposed to be\b",
    r"\b(?:could|might|may) (?:or (?:may|might) not )?be (?=hidden|lurking|somewhere|tucked|"
    r"behind|inside|under|beneath|underneath|nearby|around|out of|there\b|present|visible)",
    r"\b(?:perhaps|maybe|possibly)(?: there (?:is|are|was|were))?\b",
    r"\bif there (?:is|are|was|were)\b",
    r"\b(?:rule out|ruling out|question of|possible|suspected|concerning for|"
    r"(?:can not|could not|not) be (?:excluded|ruled out)|not (?:excluded|ruled out)|"
    r"expects?|expected|expecting|imagine|looking for|looked for|look for|searching for|"
    r"search for|room for|space for|wants?|wanted|wish for)\b",
    # A comparison's standard: "no bigger than a teacup", "the size of a football".
    r"(?<![-\w])(?<!other )(?<!rather )(?:than|the size of|as (?:big|small|large|tall|long) as)"
    r"(?= an? )",
)
# Hedges of what follows only ("a man waiting for a bus": the man is there): waiting and
# hoping for, and likeness ("a cloud shaped like a dog", "a boy dressed as a bear").
_HEDGE_AFTER = re.compile(
    r"\b(?:in search of|hoping for|hopes? for|waits? for|waiting for|waited for|"
    r"(?:looks?|looking|looked|shaped|dressed(?: up)?|disguised) (?:like|as)|"
    r"resembles|resembling|resembled)\b(?= (?:an?|the|some) )"
)
# "unclear whether the object is a suitcase": the rest of the clause is hedged.
_HEDGE_CLAUSE = re.compile(
    r"\b(?:(?:unclear|uncertain|unsure|not sure|hard to tell|wonder) (?:whether|if)|whether)"
    r"(?: there (?:is|are|was|were))?\b"
)
_NUMBERS = "one|two|three|four|five|six|seven|eight|nine|ten"
_NT_BASES = "is|are|was|were|does|do|did|has|have|had|could|would|should|must|need"
POSSESSIVE = "xposs"  # stands for "'s": "the child's bike" -> "the child xposs bike"
_INITIALISM = re.compile(r"\b([a-z])\.([a-z])\.(?:([a-z])\.)?", re.IGNORECASE)


def _initialisms(text: str) -> str:
    """Dotted initialisms become words: "T.V." -> "TV"."""

    def join(m: re.Match[str]) -> str:
        letters = "".join(g for g in m.groups() if g)
        return m.group(0) if letters.lower() in {"eg", "ie"} else letters

    return _INITIALISM.sub(join, text)


def _prepare(text: str) -> str:
    # Brand names: "an Apple keyboard", "Apple's store" name no fruit.
    products = "store|inc|watch|tv|logo|pencil|music|keyboard|mouse|laptop|computer|device|product"
    products += "|ipad|iphone|ipod|mac|macbook|imac|airpods|pay"
    text = re.sub(rf"\b(?:Apple|APPLE)(?=['\u2019]s\b| (?i:{products})\b)", "brand", text)
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    # A file-name slug is words: "sunset-beach-no-people-1920x1080.jpg".
    text = re.sub(
        r"\b[a-z0-9]+(?:[-_][a-z0-9]+){2,}\b", lambda m: re.sub("[-_]", " ", m.group(0)), text
    )
    text = re.sub(rf"\b(zero|{_NUMBERS}) \(\d+\)", r"\1", text)  # "zero (0) laptops"
    # "Cars: 0", "0 trucks", "balls x0": a zero count is a cue.
    text = re.sub(r"(?<![\d.,])\bx? ?0\b(?![.,]\d)", " zero ", text)
    text = re.sub(r"(?<![\d.,-])\b[1-9]\d*\b(?![.,:]\d|-)", " num ", text)  # "and 2 cups"
    # Product and possessive descriptors name no one: "men's necktie", "kids' teddy bear", "its
    # mother" (an animal's).
    text = re.sub(
        r"\b(?:men|women|kids|children|boys|girls|ladies|unisex)(?:'s|')(?= [a-z])", " ", text
    )
    text = re.sub(r"\bits (?:mother|father|mom|mum|parent|baby|young)\b", "its", text)
    # "a two-person tent", "a 2-bed flat", "a two-car garage": a count modifier, no object.
    text = re.sub(rf"\b(?:{_NUMBERS}|\d+)-([a-z]+)", r"num-\1", text)
    text = _initialisms(text)
    # Contractions typed without the apostrophe: "isnt", "doesnt", "there aint", "theres".
    text = re.sub(rf"\b({_NT_BASES})nt\b", r"\1 not", text)
    text = re.sub(r"\bcant\b", "can not", text)
    text = re.sub(r"\bwont\b", "will not", text)
    text = re.sub(r"\baint\b|\bain't\b", "is not", text)
    text = re.sub(r"\btheres\b", "there is", text)
    text = re.sub(r"\bcan't\b|\bcannot\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"(\w)n't\b", r"\1 not", text)
    text = re.sub(r"\b(it|there|that|what|where|here|he|she)'s\b", r"\1 is", text)
    # "the oven's gone", "the owner's not home": "'s" is "is" before a predicate of absence.
    text = re.sub(
        r"(?<=[a-z])'s (?=(?:not|gone|missing|absent|away|nowhere|never|been|no longer)\b)",
        " is ",
        text,
    )
    # A possessive is marked: "Mum's handbag" names a handbag, not Mum (see ``_is_modifier``).
    text = re.sub(r"(?<=[a-z])(?:'s|(?<=s)')(?= [a-z])", f" {POSSESSIVE}", text)
    text = re.sub(r"'s\b|'re\b|'ll\b|'ve\b|'d\b|'m\b", "", text)
    text = re.sub(r"\bw/o\b", "without", text)
    text = re.sub(r"\bnot yet\b", "not", text)  # "yet" starts no clause here
    text = re.sub(r"\b(is|are|was|were) just\b", r"\1", text)  # "is just out of frame"
    # "not one of the chairs", "neither dog has a ball": like "none of".
    text = re.sub(r"\b(?:not (?:a single |even )?one|not any|no one|nothing) of\b", "none of", text)
    # "of the horses there is no sign" -> "no horses"
    text = re.sub(
        r"\bof (?:the |any )?([a-z]+(?: [a-z]+)?) there (?:is|are|was|were) no (?:sign|trace)s?\b",
        r"no \1",
        text,
    )
    text = re.sub(
        r"\bneither (?!of\b)(?=[a-z]+ (?:has|is|was|wears|holds|carries|owns|contains)\b)",
        "neither of the ",
        text,
    )
    # "..., and none are there": a denial of its own
    text = re.sub(
        r"(?:,|\band)\s+(?:(?:indeed|yet|so|still)\s+)?(?=none\b(?! of))", f" {BREAK} ", text
    )
    # "no dogs allowed": a rule, not a scene
    text = re.sub(
        r"\b((?:no|not) [a-z ]{1,40}?|(?:is|are) not|not) (?:allowed|permitted)\b",
        rf"\1 {HEDGE}",
        text,
    )
    text = re.sub(r"\be\.g\.,?|\bsuch as\b", "such-as", text)
    # Discourse asides do not end the clause: "a sink, however, is not present".
    text = re.sub(
        r",\s*(?:however|though|of course|in fact|apparently|sadly|unfortunately|notably|"
        r"interestingly|too|also|again|it seems|it appears|thankfully|luckily|fortunately|"
        r"alas)\s*,",
        " ",
        text,
    )
    # "not accompanied by any person" -> "not have any person"
    text = re.sub(r"\b(not|never) (?:been |being )?[a-z]+ed by\b", r"\1 have", text)
    text = re.sub(r"\bused to have\b", "not have", text)  # "the room used to have a TV"
    text = re.sub(r"\bnary an?\b", "no", text)
    text = re.sub(r"\bw/", "with ", text)
    text = re.sub(rf"\bfails? to ({_SHOW_VERBS})\b", r"does not \1", text)
    text = re.sub(r"\bfail(?:s|ed)? to\b", "did not", text)  # "the bus failed to arrive"
    # "forgot to bring the frisbee", "ran out of carrots": what was not brought is not there
    text = re.sub(r"\bforg[eo]t (?:to )?(?:bring|pack|take)\b", "did not have", text)
    text = re.sub(
        r"\b(?:ran|run|runs|running|sold) out of\b(?! (?:the )?(?:sight|view)\b)", "no", text
    )
    text = re.sub(r"\bmade it (?:in)?to\b", "reached", text)  # "none of the dogs made it into"
    text = re.sub(r"\b(not|never) (?:appears?|seems?) to\b", r"\1", text)
    # "no longer" negates what is no longer had or seen, not what no longer works.
    text = re.sub(
        r"\b(is|are|was|were) no longer (?=(?:on|in|at|by|inside|under|near|beside|behind)\b)",
        r"\1 gone ",
        text,
    )
    text = re.sub(
        rf"\bno longer ((?:has|have|had|holds?|contains?|{_SHOW_VERBS})\b)", r"not \1", text
    )
    text = re.sub(r"\bno longer (?=visible|there|present|here|in (?:view|sight)\b)", "not ", text)
    text = re.sub(
        r"\bno longer (?:hangs?|sits?|stands?|lies|lie|rests?|stays?|sleeps?|lives?|grazes?|"
        r"waits?|parks?|roams?|swims?|flies|fly|perch(?:es)?|stops?|comes?)\b",
        "is gone",
        text,
    )
    text = re.sub(r"\b(?:no|not) (?:[a-z]+er|more|less|fewer) than\b", f" {STOP} than", text)
    for phrase in FALSE_FRIENDS:
        text = re.sub(rf"\b{phrase}\b", f" {STOP} ", text)
    for phrase in PERSON_NEGATIONS:
        # an adjective ("a deserted street", "an uninhabited island") qualifies no noun after it
        stop = f" {STOP}" if phrase.endswith("ed") else ""
        text = re.sub(rf"\b{phrase}\b", f"no person{stop}", text)
    # "nobody brought forks": what nobody has is not there either.
    text = re.sub(
        rf"\bno person ((?:is |was |has |have |had )?(?:{_POSSESS_VERBS}))"
        r"(?= (?:a|an|any|one|single)\b| [a-z]+s\b)",
        r"no person \1 no",
        text,
    )
    # "nothing (on the plate) suggests a cake": the verb becomes the cue.
    text = re.sub(
        r"\b(nothing\b[^.;:!?|]*?) (?:suggests?|indicates?|implies|hints? at|points? to)\b",
        r"\1 no",
        text,
    )
    text = re.sub(r"\b([a-z]+)-free\b", rf"no \1 {STOP}", text)
    # "a dog-less yard", "a carless street"; "wireless" or "countless" name nothing that is there
    text = re.sub(r"\b([a-z]{3,})-?less\b", rf"no \1 {STOP}", text)
    # "double-decker", "flat-screen" (but "absent-minded" and "no-nonsense" stay one word)
    text = re.sub(
        r"\b(?!(?:no|not|non|never|absent|missing|zero|num|such|void)-)([a-z]+)-(?=[a-z])",
        r"\1 ",
        text,
    )
    # Inventory phrasing: "Cars? None.", "Toilet: absent", "Kite: not visualized".
    text = re.sub(
        r"\s*:\s*(?=(?:none|no|nope|absent|missing|not|zero|nil|negative|excluded|undetected|"
        r"unseen|ruled out|gone|sold out)\b)",
        " ",
        text,
    )
    for phrase in (
        "free of", "devoid of", "empty of", "emptied of", "clear of", "cleared of", "instead of",
        "rather than", "void of", "bereft of", "barren of", "stripped of",
    ):  # fmt: skip
        text = re.sub(rf"\b{phrase}\b", phrase.replace(" ", "-"), text)
    text = re.sub(
        r"\bnot (pictured|present|found|shown|visible|seen|included|featured|detected|observed)"
        r"(?: here)?\s*:",
        "not-present",
        text,
    )
    text = re.sub(r"\bnowhere (?:is|are|was|were) there\b", "no", text)
    # "Nowhere in the kitchen is there a knife"
    text = re.sub(
        r"\bnowhere (?:in|on|at|within|inside|around|near) (?:[a-z]+ ){1,4}?(?:is|are|was|were) "
        r"there\b",
        "no",
        text,
    )
    text = re.sub(
        r"\b(nor|neither|not|never) (?:is|are|was|were|has|have|had|does|do) there\b", r"\1", text
    )
    text = re.sub(r"\b(absent|missing)\s*:", r"\1", text)
    # "Missing from the table: forks, knives" -> "on the table | missing forks, knives"
    # and "Absent from the scene are any cars" -> "on the scene | absent any cars".
    text = re.sub(
        r"\b(absent|missing) from ([a-z ]+?)(?:\s*:| (?:is|are|was|were)\b)",
        rf"on \2 {BREAK} \1",
        text,
    )
    text = re.sub(
        r"\bnothing (?:resembling|like|similar to|looking like|that (?:looks like|resembles))\b",
        "no",
        text,
    )
    # Report phrasing: "negative for X", "no evidence / sign / trace of X", "absence of X".
    text = re.sub(CLINICAL_PRE, "no", text)
    for hedge in _HEDGES:
        text = re.sub(hedge, f" {HEDGE} ", text)
    text = re.sub(_HEDGE_AFTER, rf"\g<0> {HEDGE}", text)
    text = re.sub(_HEDGE_CLAUSE, f" {HEDGE} {HEDGE} ", text)
    text = re.sub(r"\s-\s|\s*[\u2013\u2014]\s*|[.;:!?()\"\[\]{}]", f" {BREAK} ", text)
    return text


def tokenize(text: str) -> list[list[str]]:
    """Clauses of tokens (words, commas and scope stops)."""
    clauses: list[list[str]] = [[]]
    for token in _TOKEN.findall(_prepare(text)):
        last = clauses[-1][-1] if clauses[-1] else ""
        after_preposition = last in PREPOSITIONS | {"of", HEDGE}
        # "none of the giraffes were there when we came": "there" is no new subject
        after_preposition = after_preposition or (token == "there" and last in {"was", "were"})
        if token == BREAK or (token in CLAUSE_WORDS and clauses[-1] and not after_preposition):
            clauses.append([])
        if token != BREAK:
            clauses[-1].append(token)
    return [c for c in clauses if c]


@dataclass(frozen=True)
class Mention:
    name: str
    start: int
    end: int
    possessor: bool = False  # "the goalkeeper's gloves": an owner, perhaps not in the picture


def _index(terms_by_name: Mapping[str, Iterable[str]]) -> dict[tuple[str, ...], str]:
    """Term (singular words) -> name; the phrases of ``NOT_OBJECTS`` map to ``""``."""
    index = {tuple(singular(w) for w in phrase.split()): "" for phrase in NOT_OBJECTS}
    for name, terms in terms_by_name.items():
        for term in terms:
            index[tuple(singular(w) for w in term.split())] = name
    return index


def _possessor(tokens: list[str], end: int, term_starts: set[int]) -> bool:
    """ "the child's (new) bike", "the dog's bowl": the owner of a thing is no mention."""
    at = end + 1
    if at < len(tokens) and at not in term_starts and not _function_word(tokens[at]):
        at += 1  # one adjective: "Mum's red handbag"
    following = tokens[at] if at < len(tokens) else ""
    return at in term_starts or following in COMPOUND_HEADS


def _function_word(token: str) -> bool:
    return token in PREPOSITIONS | VERBS | DETERMINERS | {
        ",",
        "and",
        "or",
        "not",
        STOP,
        HEDGE,
    } or token.endswith(("ing", "ed"))


def _is_modifier(tokens: list[str], start: int, end: int, term_starts: set[int]) -> bool:
    after = tokens[end] if end < len(tokens) else ""
    if after == POSSESSIVE:
        return _possessor(tokens, end, term_starts)
    word = tokens[end - 1]
    plural = singular(word) != word  # "guests stand": a plural noun is no modifier
    if (after in COMPOUND_HEADS and not plural) or after.endswith("-shaped"):
        return True
    if end - start == 1 and start and tokens[start - 1] in SUBJECTS and after in VERB_OBJECTS:
        return True  # "to tie his shoes", "she ties a ribbon", "to book a table": a verb
    if word in PREFIX_MODIFIERS and end in term_starts:
        return True  # "a baby elephant"
    if word in AMBIGUOUS_ADJECTIVES and end - start == 1:
        before = tokens[start - 1] if start else ""
        if before in INTENSIFIERS or end in term_starts:
            return True
        function_words = PREPOSITIONS | VERBS | DETERMINERS | _NOUN_PREDICATES
        function_words |= {",", "and", "or", "s", STOP, HEDGE, POSSESSIVE}
        return bool(after) and after not in function_words and after != "control"
    return False


def find_mentions(tokens: list[str], index: Mapping[tuple[str, ...], str]) -> list[Mention]:
    """Longest-first, non-overlapping term matches that are not modifiers of another noun."""
    singles = [singular(t) for t in tokens]
    lengths = sorted({len(k) for k in index}, reverse=True)
    candidates: list[Mention] = []
    for n in lengths:
        for i in range(len(tokens) - n + 1):
            key = tuple(singles[i : i + n])
            name = index.get(key)
            name = index.get(tuple(tokens[i : i + n])) if name is None else name
            if name is not None:
                candidates.append(Mention(name, i, i + n))
        for i in range(len(tokens) - n):  # "a catcher's mitt": a term with a possessive inside
            window = singles[i : i + n + 1]
            if POSSESSIVE in window[1:-1]:
                name = index.get(tuple(w for w in window if w != POSSESSIVE))
                if name is not None:
                    candidates.append(Mention(name, i, i + n + 1))
    taken: set[int] = set()
    chosen = []
    for m in candidates:
        span = set(range(m.start, m.end))
        if span & taken:
            continue
        taken |= span
        chosen.append(m)
    chosen = [m for m in chosen if m.name]  # a NOT_OBJECTS phrase hides the term inside it
    starts = {m.start for m in chosen}
    chosen = [m for m in chosen if not _is_modifier(tokens, m.start, m.end, starts)]
    # A person noun right before another name qualifies it: "a family dog", "the team bus".
    starts = {m.start for m in chosen}
    return [
        Mention(m.name, m.start, m.end, m.end < len(tokens) and tokens[m.end] == POSSESSIVE)
        for m in chosen
        if not (m.name == "person" and m.end in starts and tokens[m.start] not in SUBJECTS)
    ]


def _scope_starts(tokens: list[str], at: int) -> int:
    """Where the noun phrase after a verbal cue ("not", "never") at ``at`` would begin, past
    adverbs and have/see verbs: "not a dog", "does not have a TV", "never had a TV"."""
    j = at + 1
    while j < len(tokens) and tokens[j] in ADVERBS:
        j += 1
    while j < len(tokens) and tokens[j] in HAVE_VERBS:
        j += 1
    return j


def _negated_spans(tokens: list[str], mentions: list[Mention]) -> set[int]:
    """Token positions inside the scope of a pre-nominal or verbal cue. Past a mention the
    scope goes on only through a coordinator ("no cats, dogs or birds")."""
    mention_starts = {m.start for m in mentions}
    mention_ends = {m.start: m.end for m in mentions}
    negated: set[int] = set()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        start: int | None = None
        if token in PRE_CUES and not _is_post_use(tokens, i):
            start = i + 1
        elif token in VERBAL_CUES:
            j = _scope_starts(tokens, i)
            nxt = tokens[j] if j < len(tokens) else ""
            opens_np = nxt in QUANTIFIERS or j in mention_starts
            opens_np = opens_np or (j > i + 1 and tokens[j - 1] in HAVE_VERBS)
            start = j if opens_np else None
        if start is None:
            i += 1
            continue
        j = _scope_end(tokens, start, mention_starts, mention_ends, negated)
        i = max(j, i + 1)
    return negated


def _scope_end(
    tokens: list[str],
    start: int,
    mention_starts: set[int],
    mention_ends: Mapping[int, int],
    negated: set[int],
) -> int:
    """Walk the scope of a cue from ``start``, adding its positions to ``negated``; returns
    where it stopped."""
    # "minus the toast and the coffee cup": a determiner repeated after "and" / "or" goes on.
    first = start + 1 if start < len(tokens) and tokens[start] == "both" else start
    det = tokens[first] if first < len(tokens) else None
    det = det if det in {"a", "an", "the", "any"} else None
    found = 0  # mentions in scope so far
    item_found = True  # whether the current comma-separated item has a mention
    j = start
    while j < len(tokens):
        tok = tokens[j]
        nxt = tokens[j + 1] if j + 1 < len(tokens) else ""
        if tok in {STOP, HEDGE} or (tok in PREPOSITIONS and j not in mention_starts):
            break
        if tok == "of" and j not in mention_starts and tokens[j - 1] not in PARTITIVES:
            break  # "no fear of the horse"; but "not a slice of pizza"
        if tok in VERBS and j > start and j not in mention_starts:
            break
        if (
            j > start
            and j not in mention_starts
            and nxt in {"a", "an", "the"}
            and tok not in DETERMINERS | QUANTIFIERS | EXAMPLE_WORDS | {",", "and", "or", "nor"}
            and tokens[j - 1] not in DETERMINERS | QUANTIFIERS
        ):
            break  # "without a helmet rides a bicycle": an unknown verb and its object
        if tok == ",":
            if not item_found and not {"or", "nor"} & set(tokens[j:]):
                break  # "no umbrellas, turquoise water, boats": a list of scenery, not objects
            after = tokens[j + 2] if j + 2 < len(tokens) else ""
            if j + 1 not in mention_starts and after in {"a", "an", "the"}:
                break  # "with no clocks, lived a girl": a verb and its object, no list item
            item_found = False
        if tok in {",", "and", "or"} and (nxt in DETERMINERS or nxt in {"with", "and"}):
            same_det = nxt == det or {nxt, det} == {"a", "an"}
            parallel = same_det and tok != "," and _mention_near(j + 2, mention_starts)
            oxford = tok == "," and nxt in {"and", "or"} and found >= 2 and j + 2 in mention_starts
            if not (parallel or oxford):
                break
        negated.add(j)
        end = mention_ends.get(j)
        if end is not None:
            found += 1
            item_found = True
            negated.update(range(j, end))
            j = end
            if j in mention_ends:
                continue  # "no electronic devices": a compound of two names
            if j + 1 < len(tokens) and tokens[j] == "of" and tokens[j - 1] in PARTITIVES:
                j += 1  # "no crowd of tourists"
                continue
            if j < len(tokens) and tokens[j] in EXAMPLE_WORDS:
                j += 1  # "no devices such as phones or laptops": the examples are negated too
                continue
            if j < len(tokens) and tokens[j] not in {",", "and", "or", "nor"}:
                break
            continue
        j += 1
    return j


def _mention_near(at: int, mention_starts: set[int]) -> bool:
    """A mention starts at ``at`` or one word (an adjective) later."""
    return at in mention_starts or at + 1 in mention_starts


def _is_post_use(tokens: list[str], i: int) -> bool:
    """ "missing" / "absent" / "nowhere" used after their noun ("the cat is missing")."""
    token = tokens[i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else BREAK
    if token in {"missing", "absent"}:
        # "the cat is missing", "Frisbee: absent bilaterally"
        return i > 0 and (nxt in _POST_MISSING_OK or nxt.endswith("ly"))
    if token in {"zero", "no"}:
        return i > 0 and nxt in {",", BREAK}  # "balls zero, frisbee x", "toaster no, sink yes"
    if token == "nowhere":
        return i > 0 and nxt in {"to", "in", "near", ",", BREAK}
    return False


def _post_negated(tokens: list[str], mentions: list[Mention]) -> set[int]:
    """Starts of mentions negated by a following predicate ("X is missing", "X is not in the
    picture"): the cue must come before the next comma, preposition or mention."""
    result: set[int] = set()
    ends = {m.start: m.end for m in mentions}
    for m in mentions:
        k = m.end
        while k < len(tokens) and tokens[k] != STOP and k not in ends:
            item = _next_item(tokens, k, ends)
            if item is not None:
                k = ends[item]  # "forks and knives absent": the cue covers the whole list
                continue
            if tokens[k] == ",":
                break
            match = _POST.match(" ".join(tokens[k:]))
            if match:
                cue_at = k + len(match.group(0).split()) - 1
                if tokens[cue_at] not in {"missing", "absent"} or _is_post_use(tokens, cue_at):
                    result.add(m.start)
                break
            if tokens[k] in PREPOSITIONS - SOFT_PREPOSITIONS or tokens[k] in {"and", "or"}:
                break
            k += 1
        if k < len(tokens) and tokens[k] == "," and _comma_negates(tokens, k, ends):
            result.add(m.start)
    return result


def _next_item(tokens: list[str], k: int, ends: Mapping[int, int]) -> int | None:
    """The next mention of a list, when ``k`` is "and" / "or" before it, or a comma of a list
    that ends in "and" / "or" ("a dining table, a bed, and a fridge are absent")."""
    j = k
    while j < len(tokens) and tokens[j] in {",", "and", "or", "a", "an", "the", "any"}:
        j += 1
    if j not in ends or j == k or tokens[k] not in {",", "and", "or"}:
        return None
    if tokens[k] == ",":
        rest = tokens[k:]
        closing = next((i for i, t in enumerate(rest) if t in {"and", "or"}), None)
        if closing is None or any(
            t not in {",", "and", "or", "a", "an", "the", "any"}
            and k + i not in ends
            and not _inside(k + i, ends)
            for i, t in enumerate(rest[:closing])
        ):
            return None
    return j


def _inside(at: int, ends: Mapping[int, int]) -> bool:
    return any(s < at < e for s, e in ends.items())


_BARE_NO = frozenset({"no", "none", "zero", "nope", "absent", "missing", "none at all"})


def _comma_negates(tokens: list[str], k: int, ends: Mapping[int, int]) -> bool:
    """After a comma at ``k``: a bare cue ("Cars, yes; buses, no", "sheep, none"), or an aside
    and then a post-nominal cue ("The couch, usually present in such rooms, is absent here")."""
    if " ".join(tokens[k + 1 :]) in _BARE_NO:
        return True
    close = next((c for c in range(k + 1, len(tokens)) if tokens[c] == ","), None)
    if close is None or any(k < s < close for s in ends):
        return False
    match = _POST.match(" ".join(tokens[close + 1 :]))
    if not match:
        return False
    cue_at = close + len(match.group(0).split())
    return tokens[cue_at] not in {"missing", "absent"} or _is_post_use(tokens, cue_at)


_PREDICATE = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "reached", "came", "come", "returned"}
)
_PRESENT = re.compile(
    r"^(?:(?:is|are|was|were|can be|could be|can|could|has|have|had) )?(?:(?:been|be) )?"
    r"(?:visible|present|here|there|around|seen|shown|pictured|depicted|left|to be seen|"
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
_NONE_OF_PRONOUNS = frozenset({"them", "these", "those"})


def _none_of(tokens: list[str], mentions: list[Mention]) -> tuple[set[int], set[int]]:
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
            object_position = i > 0 and tokens[i - 1] not in {",", STOP} | _ANSWER_FILLERS
            # "none of the cats are visible": what none of is there is not there.
            present = bool(_PRESENT.match(" ".join(tokens[head_end:])))
            at = next((k for k in range(head_end, len(tokens)) if tokens[k] in _PREDICATE), None)
            present |= at is not None and bool(_ELSEWHERE.match(" ".join(tokens[at:])))
            (negated if usual or object_position or present else affirmed).add(head.start)
        for m in after:
            between = tokens[head_end : m.start]
            if between and between[-1] in QUANTIFIERS:
                between = between[:-1]
            if between and between[-1] in NONE_OF_VERBS | {"with"}:
                negated.add(m.start)  # "none of the X has / holds a Y"
    return negated, affirmed


def _never_subject(tokens: list[str], mentions: list[Mention]) -> set[int]:
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


def _hedged(tokens: list[str], mentions: list[Mention]) -> set[int]:
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
            _scope_end(tokens, i + 1, starts, ends, span)
    result = {m.start for m in mentions if m.start in span}
    for m in mentions:
        k = m.end
        while k < len(tokens) and tokens[k] in {"is", "are", "was", "were"}:
            k += 1
        if k < len(tokens) and tokens[k] == HEDGE:
            result.add(m.start)
    return result


_ANSWER_FILLERS = frozenset(
    {"a", "q", "answer", ",", "and", "but", "yet", "so", "well", "sadly", "apparently", "today",
     "now", "though", "unfortunately", "actually", "alas", "sorry", "oh"}
)  # fmt: skip
_NO_ANSWER = re.compile(
    r"^(?:(?:no|nope|nah|none|zero|nil|absent|missing|gone|all gone|sold out|negative)"
    r"(?: at all| whatsoever)?(?: ,|$)|none (?!of\b)|"
    r"not (?:here|one|really|at all|that i can see)(?: ,|$)|"
    r"none (?:does|do|did|is|are|here|that i can see|to be seen)\b|"
    r"(?:i|we) (?:do|did|can|could) not(?: see (?:one|any|it|them))?(?: ,|$)|"
    r"(?:it|they) (?:does|do|did) not(?: ,|$)|"
    r"there (?:is|are|was|were) (?:not (?:one|any)|none|no such)\b|"
    # "Where are the giraffes? None of them are in the enclosure."
    r"(?:none|neither) of (?:them|these|those) (?:is|are|was|were|made it|came back|have come)"
    r"(?: back)? (?:visible|present|here|there|around|in (?:view|sight)|"
    r"(?:in|on|at|inside|within|into|to) (?:the|this|that|its|their|our|my|his|her)\b))"
)


_YES_ANSWER = re.compile(
    r"^(?:but |and )?(?:yes|yep|yeah|there (?:is|are|was|were) (?:one|some|two|three|several))\b"
)


def _answer_end(tokens: list[str]) -> int | None:
    """Where a clause that opens by denying the object before ends its denial: "A dog? Not
    here.", "Any phone? No.", "..., but there isn't one", "I looked for a clock. There wasn't
    one.", "..., but it was removed"; None if it does not."""
    k = 0
    while k < len(tokens) and tokens[k] in _ANSWER_FILLERS:
        k += 1
    match = _NO_ANSWER.match(" ".join(tokens[k:]))
    if match:
        return k + len(match.group(0).split())
    if k < len(tokens) and tokens[k] in {"it", "they"}:
        k += 1
    elif k >= len(tokens) or tokens[k] != "not":
        return None  # "(toaster, microwave) are not included in the sale" answers nothing
    match = _POST.match(" ".join(tokens[k:]))
    return k + len(match.group(0).split()) if match else None


def _other_one(tokens: list[str]) -> bool:
    """ "(only) a black one", "the dirty ones": another of the kind just denied is there."""
    if len(tokens) > 1 and tokens[0] == "except" and tokens[1] in {"one", "num", "two", "some"}:
        return True  # "All chairs are gone except one"
    for i, token in enumerate(tokens):
        if token in {"one", "ones"} and i >= 2 and tokens[i - 2] in {"a", "an", "the"}:
            return not {"no", "not", "never", "without", "none"} & set(tokens[:i])
    return False


def _denied(
    answer: list[str], earlier: list[Mention], polarities: Mapping[int, Polarity]
) -> list[int]:
    """What a denial answers: every object only supposed about ("No laptops or phones allowed.
    None are visible."), else the thing "it" / "they" stands for (the last one named: "He lost
    his skateboard; it is nowhere to be seen"), else the first one named ("Any phone? No.")."""
    supposed = [m.start for m in earlier if polarities[m.start] == "unmentioned"]
    if supposed:
        return supposed
    head = next((t for t in answer if t not in _ANSWER_FILLERS), "")
    if head in {"it", "they"}:
        return [earlier[-1].start]
    return [earlier[0].start]


def analyze_index(text: str, index: Mapping[tuple[str, ...], str]) -> dict[str, Polarity]:
    """The polarity of every name of ``index`` that the caption mentions."""
    clauses: list[tuple[list[Mention], dict[int, Polarity]]] = []
    for tokens in tokenize(text):
        mentions = find_mentions(tokens, index)
        scoped = _negated_spans(tokens, mentions)
        post = _post_negated(tokens, mentions)
        none_neg, none_aff = _none_of(tokens, mentions)
        never = _never_subject(tokens, mentions)
        hedged = _hedged(tokens, mentions)
        answer = _answer_end(tokens)
        if answer is not None and clauses and all(m.start > answer for m in mentions):
            earlier, polarities = clauses[-1]
            for start in _denied(tokens, earlier, polarities):
                polarities[start] = "negated"  # the object asked or supposed about
        elif clauses and not mentions and _YES_ANSWER.match(" ".join(tokens)):
            earlier, polarities = clauses[-1]  # "Wasn't expecting a toaster, but there's one"
            if polarities[earlier[0].start] == "unmentioned":
                polarities[earlier[0].start] = "affirmed"
        elif clauses and _other_one(tokens):
            earlier, polarities = clauses[-1]  # "No white cars, only a black one"
            denied = [m.start for m in earlier if polarities[m.start] == "negated"]
            if denied:
                polarities[denied[-1]] = "affirmed"
        polarities = {}
        for m in mentions:
            negated = m.start in scoped or m.start in post or m.start in none_neg
            negated = (negated or m.start in never) and m.start not in none_aff
            polarity: Polarity = "negated" if negated else "affirmed"
            polarities[m.start] = "unmentioned" if m.start in hedged else polarity
        if mentions:
            clauses.append((mentions, polarities))
    found: dict[str, Polarity] = {}
    owners: set[str] = set()  # names affirmed only as the owner of something
    for mentions, polarities in clauses:
        for m in mentions:
            polarity = polarities[m.start]
            if polarity == "affirmed" and m.possessor:
                owners.add(m.name)
            elif polarity != "unmentioned" and found.get(m.name) != "affirmed":
                found[m.name] = polarity
    # "The goalkeeper's gloves are on the grass; the goalkeeper is not."
    for name in owners - set(found):
        found[name] = "affirmed"
    return found


_BASEBALL_PLAY = r"\b(?:baseball|softball|dugout|inning|home plate|umpire|catcher|mound|bats?)\b"
_BASEBALL = re.compile(r"\b(?:baseball|softball|dugout|batter|catcher|pitcher|inning|home plate)")
# Words that name a label only in a caption on its topic: (label, word, topic).
TOPIC_TERMS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("baseball bat", "bat", _BASEBALL),
    ("baseball glove", "glove", _BASEBALL),
    ("baseball glove", "mitt", _BASEBALL),
    ("surfboard", "board", re.compile(r"\bsurf(?:er|ers|ing)?\b")),
    ("skateboard", "board", re.compile(r"\bskat(?:e|er|ers|ing|epark)\b")),
    ("snowboard", "board", re.compile(r"\bsnowboard(?:er|ers|ing)\b")),
    # "the batter waits", "a pitcher winds up": players, not cake batter or a jug
    ("person", "batter", re.compile(rf"{_BASEBALL_PLAY}|\bpitchers?\b")),
    ("person", "pitcher", re.compile(rf"{_BASEBALL_PLAY}|\bbatters?\b")),
)
# A mouse that is an animal: "a mouse scurries across the barn", unless computers are about.
_ANIMAL_MOUSE = re.compile(r"\b(?:mice|mouse) (?:who|scurr|squeak|nibbl)|\b(?:rodent|cheese|barn)")
_COMPUTING = re.compile(r"\b(?:computer|keyboard|laptop|desk|click|cursor|wireless|pad|usb|pc)")
_PRONOUN = re.compile(r"\b(?:he|she)\b", re.IGNORECASE)


def _topic_terms(text: str, lexicon: Lexicon) -> dict[str, tuple[str, ...]]:
    """Extra terms the caption's topic gives labels ("bats and gloves" in a dugout); a word two
    topics claim ("board" by a surfer and a skater) is left out."""
    lower = text.lower()
    claims: dict[str, list[str]] = {}
    for label, word, topic in TOPIC_TERMS:
        if label in lexicon.vocabulary and topic.search(lower) and re.search(rf"\b{word}", lower):
            claims.setdefault(word, []).append(label)
    extra: dict[str, tuple[str, ...]] = {}
    for word, labels in claims.items():
        if len(set(labels)) == 1:
            extra[labels[0]] = (*extra.get(labels[0], ()), word)
    return extra


_LESS = re.compile(r"\b([a-z]{3,})-?less\b", re.IGNORECASE)


def analyze(text: str, lexicon: Lexicon) -> dict[str, Polarity]:
    """Polarity of every label or hypernym of ``lexicon`` that ``text`` mentions."""
    text = _initialisms(text)
    names = set(lexicon.mentioned(_LESS.sub(r"\1 less", text)))  # "a carless street"
    terms = {name: lexicon.terms(name) for name in names}
    for label, words in _topic_terms(text, lexicon).items():
        terms[label] = (*terms.get(label, lexicon.terms(label)), *words)
    lower = text.lower()
    if "mouse" in terms and _ANIMAL_MOUSE.search(lower) and not _COMPUTING.search(lower):
        del terms["mouse"]
    if "person" in lexicon.vocabulary:
        if _PERSON_NEGATION.search(text) and "person" not in terms:
            terms["person"] = lexicon.terms("person")
        animals = lexicon.members("animal")
        if _PRONOUN.search(text) and not any(lexicon.members(n) & animals for n in terms):
            # "She waits at a bus stop": a he or she with no animal about is a person.
            terms["person"] = (*terms.get("person", lexicon.terms("person")), "he", "she")
    return analyze_index(text, _index(terms))


def polarity(text: str, terms: Iterable[str]) -> Polarity:
    """``affirmed`` if any mention affirms the object named by ``terms``, else ``negated`` if one
    negates it, else ``unmentioned``."""
    return analyze_index(text, _index({"object": terms})).get("object", "unmentioned")
