"""Words that name a label only in a caption on its topic ("bat" in a dugout, "board" by a
surfer) and the animal mouse."""

from __future__ import annotations

import re

from negdata.detect.lexicon import Lexicon
from negdata.validate.negation.words import NOT_DESERTED

_BASEBALL_PLAY = r"\b(?:baseball|softball|dugout|inning|home plate|umpire|catcher|mound|bats?)\b"
_BASEBALL = re.compile(r"\b(?:baseball|softball|dugout|batter|catcher|pitcher|inning|home plate)")
_AT_THE_LIGHT = re.compile(
    r"\b(?:at|for|through|ran) (?:the|a) (?:red |green |amber |yellow )?lights?\b"
    # "the light turns green", "the lights changed to red"
    r"|\bthe lights? (?:turns?|turned|turning|changes?|changed|changing|goes|went) (?:to )?"
    r"(?:red|green|amber|yellow)\b"
    # "a taxi is parked near the light" where a street is about
    r"|^(?=.*\b(?:crosswalks?|intersections?|junctions?|crossings?|streets?|roads?|traffic)\b)"
    r".*\b(?:near|by|beside|past|under|towards?) the lights?\b"
    r"|\b(?:red|green|amber) lights? (?:at|over|above|on) (?:the|an?) "
    r"(?:intersection|crossing|corner|junction|crosswalk)"
    # "Light red, no cars waiting.", "the light's green", "the lights are still red"
    r"|(?:^|[.;:!?]\s*)lights?:? (?:red|green|amber|yellow)\b"
    r"|\bthe lights?(?:'s| is| are| was| were) (?:still |now |already )?"
    r"(?:red|green|amber|yellow)\b"
)
_PLACES = (
    r"(?:streets?|markets?|marketplaces?|beach(?:es)?|squares?|plazas?|platforms?|stations?|"
    r"sidewalks?|rooms?|halls?|cafes?|restaurants?|bars?|stadiums?|arenas?|pools?|parks?|trains?|"
    r"bus(?:es)?|subway cars?|festivals?|fairs?|airports?|terminals?|(?:bus |tram )?stops?"
    r"|lobby|lobbies|concourses?|piers?|boardwalks?|malls?|shops?|stores?|gyms?|courts?|zoos?"
    r"|museums?|galleries|gallery|theaters?|theatres?|cinemas?|venues?|crosswalks?|trails?)"
)
# "the crowded street", "the platform is crowded", "the beach was bustling", "Platform's packed",
# "Platforms: packed", "Bus 42: packed", "platform full,"
_CROWDED = re.compile(
    rf"\b(?:crowded|bustling) (?:[a-z]+ )?{_PLACES}\b"
    rf"|\b{_PLACES}(?:'s| is| are| was| were) (?:(?:still|very|so|really|already) )?"
    r"(?:crowded|bustling|packed(?! (?:with|away|up)\b))\b"
    rf"|\b{_PLACES}(?: #?\d+)?\s*[:?]\s*(?:crowded|bustling|packed)\b"
    # a headline's: "Train delayed; platform full, tracks empty.", "Platform? Packed."
    rf"|\b{_PLACES}(?: #?\d+)?\s*[:,?]?\s*(?:crowded|packed|full)(?= *(?:[.;,!]|$))"
)
_QUEUE = re.compile(
    r"\b(?:an?|the|long|short|growing|orderly|snaking) (?:line|queue)s? (?:at|outside|for|to)\b"
)
_SHEEPDOG = re.compile(
    r"^(?!.*\bflocks? of\b).*\b(?:collies?|sheepdogs?|shepherd(?:s|ess)?|ewes?|lambs?|shearing|"
    r"sheep ?dogs?)\b",
    re.DOTALL,
)
# "a face pressed to every window", "faces peering out": someone there (not a clock's face)
_FACE_AT = re.compile(
    r"(?<!clock )(?<!watch )(?<!rock )(?<!cliff )\bfaces? (?:pressed|peering|peeking|staring) "
    r"(?:to|against|out|through|from|at)\b"
)
# Words that name a label only in a caption on its topic: (label, word, topic).
TOPIC_TERMS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("baseball bat", "bat", _BASEBALL),
    ("baseball glove", "glove", _BASEBALL),
    ("baseball glove", "mitt", _BASEBALL),
    ("surfboard", "board", re.compile(r"\bsurf(?:er|ers|ing)?\b")),
    ("skateboard", "board", re.compile(r"\bskat(?:e|er|ers|ing|epark)\b")),
    ("snowboard", "board", re.compile(r"\bsnowboard(?:er|ers|ing)\b")),
    # "planks over his shoulder" on the slopes: skis
    ("skis", "planks", re.compile(r"\b(?:lift pass|ski|skiers?|skiing|slopes?|pistes?|chairlift)")),
    # "the batter waits", "a pitcher winds up": players, not cake batter or a jug
    ("person", "batter", re.compile(rf"{_BASEBALL_PLAY}|\bpitchers?\b")),
    ("person", "pitcher", re.compile(rf"{_BASEBALL_PLAY}|\bbatters?\b")),
    # "cars wait at the light", "waiting for the light": a traffic light
    ("traffic light", "light", _AT_THE_LIGHT),
    # "a collie working the flock": sheep, where no "flock of" says of what
    ("sheep", "flock", _SHEEPDOG),
    # "the crowded street": people are there
    ("person", "crowded", _CROWDED),
    ("person", "bustling", _CROWDED),
    ("person", "packed", _CROWDED),
    ("person", "full", _CROWDED),
    ("person", "face", _FACE_AT),
    # "a long line at the stop", "the queue outside the bakery": people waiting
    ("person", "line", _QUEUE),
    ("person", "queue", _QUEUE),
    # "the bus isn't empty - it's standing room only": people fill it
    ("person", "standing room", re.compile(r"\bstanding room only\b")),
)
# A mouse that is an animal: "a mouse scurries across the barn", unless computers are about.
ANIMAL_MOUSE = re.compile(r"\b(?:mice|mouse) (?:who|scurr|squeak|nibbl)|\b(?:rodent|cheese|barn)")
# A cab that is a truck's: "a dog in the back of the pickup, no one in the cab".
TRUCK_CAB = re.compile(
    r"\b(?:pickups?|trucks?|lorry|lorries|tractors?|cranes?|locomotives?|diggers?|excavators?|"
    r"forklifts?|bulldozers?|combines?)\b.*\b(?:in|inside|from|of|into|out of) (?:the|its|his|"
    r"her|their) cabs?\b"
    r"|\b(?:pickup|truck|lorry|tractor|crane|locomotive)(?:'s)? cabs?\b"
)
# A calf that is a young elephant or giraffe, not cattle: "an elephant with its calf".
WILD_CALF = re.compile(
    r"\b(?:elephants?|giraffes?|whales?|rhinos?|rhinoceros|hippos?|moose|camels?)\b"
)
COMPUTING = re.compile(r"\b(?:computer|keyboard|laptop|desk|click|cursor|wireless|pad|usb|pc)")
# "crowd" as the verb of a plural subject: "ten sheep crowd the lane", "glasses crowd the table",
# "two bottles of red crowd the bistro table", "a flock of pigeons crowds the pier", "the sheep
# have been brought in and crowd the pen".
CROWD_VERB = re.compile(
    r"\b(?:[a-z]+s|people|sheep|cattle|deer|fish|geese|and|then|who|which)"
    r"(?: of [a-z]+)? (?P<verb>crowds?)"
    r"(?= (?:the|a|an|its|their|around|into|onto|together|in|along|on|at)\b)",
    re.IGNORECASE,
)


def crowd_filled(text: str) -> str:
    """``text`` with "crowd" as a verb ("ten sheep crowd the lane") said as "fill"."""
    return CROWD_VERB.sub(lambda m: m.group(0)[: m.start("verb") - m.start()] + "fill", text)


PRONOUN = re.compile(r"\b(?:he|she)\b", re.IGNORECASE)
OWNER = re.compile(r"\b(?:his|her|him)\b", re.IGNORECASE)
# An animal's owner is a person: "he's never without his dog", and so is who feeds, walks or
# pets one: "he is feeding his sandwich to the dog".
PET_OWNER = re.compile(
    r"\b(?:(?:his|her)|(?:feed|feeds|feeding|fed|walk|walks|walking|pet|pets|petting|strokes?|"
    r"stroking)\b(?: [a-z]+){0,3}? (?:the|a|an|his|her|their)) "
    r"(?:dogs?|puppy|puppies|cats?|kitten|horses?|pony|parrot)\b",
    re.IGNORECASE,
)
# "us" is people, whatever else is about: "it's just us on the trail", "three of us" ("we"
# is most often the photographer: "so we walked").
FIRST_PERSON = re.compile(r"\bus\b", re.IGNORECASE)


def topic_terms(text: str, lexicon: Lexicon) -> dict[str, tuple[str, ...]]:
    """Extra terms the caption's topic gives labels ("bats and gloves" in a dugout); a word two
    topics claim ("board" by a surfer and a skater) is left out."""
    # "the beach is far from deserted"; a file name's words: "photo_baseball-glove-and-bat"
    lower = NOT_DESERTED.sub("crowded", text.lower().replace("_", " "))
    claims: dict[str, list[str]] = {}
    for label, word, topic in TOPIC_TERMS:
        if label in lexicon.vocabulary and topic.search(lower) and re.search(rf"\b{word}", lower):
            claims.setdefault(word, []).append(label)
    extra: dict[str, tuple[str, ...]] = {}
    for word, labels in claims.items():
        if len(set(labels)) == 1:
            extra[labels[0]] = (*extra.get(labels[0], ()), word)
    return extra
