"""Word lists of the checker: cues, false friends, function words, compound heads and
the marks that normalised text carries."""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

Polarity = Literal["affirmed", "negated", "unmentioned"]


def plain(text: str) -> str:
    """``text`` with its letters' accents dropped, so "in the caf\u00e9 that isn't" reads as
    words do: the rules' patterns spell words in ``[a-z]``."""
    marked = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in marked if unicodedata.category(c) != "Mn")
    )


FALSE_FRIENDS = (
    "not only", "no doubt", "without a doubt", "no wonder", "no matter", "never mind",
    "not to mention", "none other than", "no longer", "not far from", "not far", "not bad",
    "not surprisingly", "no big deal", "none the worse", "no denying", "nothing but",
    "nothing more than", "not just",
    "never a dull moment", "middle of nowhere", "to nowhere", "feel free", "never have i",
    "never seen without", "not least", "no problem", "no way", "no filter", "nobody xposs perfect",
    "nobody is perfect", "no one is perfect", "not enough", "no fewer than", "no less than",
    "no more than", "not more than", "not less than", "not a lot", "not lots",
    "no lack of", "no shortage of", "no absence of", "not an absence of", "never without",
    "not without", "no end of", "no small number of", "no small amount of", "no small quantity of",
    "not a few", "no few",
    "there is nothing like", "nothing beats",
    # "nowhere near as big", but "the shepherd nowhere near" says where he is not
    r"nowhere near(?= (?:as|enough|the|a|an|num|done|ready|finished|full)\b)",
)  # fmt: skip
# Places for people: empty, they say no one is there ("an empty stadium").
PEOPLE_PLACES = (
    "stadiums?|rooms?|classrooms?|streets?|roads?|beach(?:es)?|playgrounds?|benches|bench|beds?|"
    "seats?|offices?|halls?|courts?|platforms?|stations?|squares?|plazas?|theaters?|theatres?|"
    "arenas?|churche?s?|restaurants?|caf[eé]s?|bars?|cabins?|pools?|lobby|lobbies|corridors?|"
    "hallways?|auditoriums?|gyms?|stores?|shops?|chairs?|couch(?:es)?|sofas?|armchairs?|"
    "stands|bleachers|terraces?|booths?|"
    "carriages?|train cars?|trams?|sidewalks?|pavements?|pews?|stalls?|desks?|counters?|"
    "waiting rooms?|parks?|parking lots?|car parks?|intersections?|crosswalks?|alleys?|"
    "bus stops?|tram stops?|stops?(?! signs?\\b)|bus shelters?|piers?|docks?|jett(?:y|ies)|"
    "boardwalks?|promenades?|"
    "trails?|pitch(?:es)?|dance floors?|galler(?:y|ies)|museums?|librar(?:y|ies)|markets?|"
    "terminals?|concourses?"
)
# Places for cars: empty or deserted, they say no car is there either.
VEHICLE_PLACES = (
    "streets?|roads?|highways?|motorways?|freeways?|parking lots?|car parks?|parking garages?|"
    "garages?|intersections?|driveways?"
)
PERSON_NEGATIONS = (
    "not a single soul", "not a soul", "nobody", "no one", "no-one", "noone", "deserted",
    "uninhabited", "unpopulated", "unoccupied", "unstaffed", "unmanned", "where is everyone",
    "where is everybody",
)  # fmt: skip
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
     "appear", "appears", "need", "there", "is", "are", "was", "were", "own", "owns",
     "bring", "brings", "brought", "bringing"}
)  # fmt: skip
# Two-word denials that ``prepare`` joins into one cue: "free of" -> "free-of".
JOINED_CUES = (
    "free of", "devoid of", "empty of", "emptied of", "clear of", "cleared of", "instead of",
    "rather than", "void of", "bereft of", "barren of", "stripped of", "absent of", "bare of",
    "vacant of",
)  # fmt: skip
PRE_CUES = frozenset(
    {"no", "without", "lacking", "lacks", "lack", "neither", "nor", "absent", "missing",
     "not-pictured", "not-present", "nowhere", "sans", "minus", "zero", "excluding", "excludes",
     "exclude", *(phrase.replace(" ", "-") for phrase in JOINED_CUES)}
)  # fmt: skip
NONE_OF_VERBS = frozenset(
    {"is", "are", "has", "have", "hold", "holds", "contain", "contains", "carry", "carries",
     "own", "owns", "wear", "wears", "brought", "brings", "bring", "carried", "wore",
     "took", "takes"}
)  # fmt: skip
VERBAL_CUES = frozenset({"not", "never"})
# Nouns whose words are text, not what is there: what a sign says ("a sign welcoming pets").
SIGN_NOUNS = ("signboard", "sign", "poster", "banner", "notice", "placard", "billboard", "menu")
FRAME_WORDS = ("picture", "frame", "view", "sight", "shot", "photo", "image", "scene")
# Rooms a photo is taken in: "the cat is not in the room" says it is not in the photo either.
ROOM_WORDS = ("room", "bathroom", "kitchen", "bedroom")
POST_MISSING_OK = frozenset(
    {",", BREAK, STOP, "from", "too", "today", "again", "now", "entirely", "at", "in", "on", "here",
     "and", "altogether", "tonight", "though", "yet", "still"}
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
     "sleeve", "sleeves", "mount", "mounts", "carousel", "claim", "allowance", "tag", "tags",
     "holders", "trailer", "trailers", "friendly", "cake", "cakes",
     # where a thing is kept or goes: "the dog park", "a cat room", "the bear enclosure"
     "park", "basket", "baskets", "room", "rooms", "enclosure", "enclosures", "pen",
     "rank", "contrails", "owner", "owners", "line", "clicker", "platform", "platforms",
     "tunnel", "chest", "chests", "yard", "yards", "paddock", "paddocks", "stables",
     "path", "paths", "trail",
     # an event or a trade named for it: "a car wash, no car", "dog show, but no dogs"
     "wash", "show", "dealership", "dealer", "sitter", "walker", "bath", "baths"}
)  # fmt: skip
# Owners who may be elsewhere: "grandma's cake", "the owner's cat", "the dog's bowl" put no one
# in the picture (a thing's owner is there: "the sink's edge", "the teddy bear's owner")...
LIVING = frozenset(
    {"person", "animal", "pet", "bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear",
     "zebra", "giraffe"}
)  # fmt: skip
# ... unless the sentence goes on about them ("while she eats") ...
PRONOUNS = frozenset({"he", "she", "him", "they", "them", "himself", "herself", "themselves"})
# ... or what they own is on them: "the man's tie is loosened", "the dog's tail wags".
ON_BODY = frozenset(
    {"tie", "hat", "cap", "helmet", "shirt", "jacket", "coat", "dress", "skirt", "jeans", "pants",
     "trousers", "shorts", "shoe", "boot", "sneaker", "sock", "glasses", "sunglasses", "scarf",
     "glove", "sweater", "hoodie", "uniform", "suit", "apron", "mask", "backpack", "collar",
     "hand", "arm", "face", "head", "hair", "eye", "mouth", "lip", "smile", "nose", "ear", "leg",
     "foot", "feet", "knee", "lap", "shoulder", "back", "finger", "fist", "neck", "chest",
     "belly", "body", "skin", "tail", "paw", "fur", "mane", "trunk", "horn", "beak", "wing",
     "hoof", "muzzle", "snout", "whisker", "shadow", "reflection", "silhouette", "grip", "gaze",
     "expression"}
)  # fmt: skip
PARTITIVES = frozenset(
    {"slice", "slices", "piece", "pieces", "pair", "pairs", "bunch", "bunches", "box", "boxes",
     "plate", "plates", "stack", "stacks", "pile", "piles", "set", "sets", "loaf", "carton",
     "crate", "crates", "herd", "herds", "flock", "flocks", "pack", "packs", "group", "groups",
     "couple", "lot", "lots", "row", "rows", "basket", "baskets", "tray", "jar", "kind", "kinds",
     "sort", "sorts", "type", "types", "form", "forms", "number", "crowd", "line", "team",
     "family", "swarm", "crumb", "crumbs", "scrap", "scraps", "morsel", "morsels", "speck", "bite",
     "bites", "drop", "drops", "head", "heads", "stalk", "stalks",  # "a head of broccoli"
     # containers: "no bowl of fruit" has no fruit in it either
     "bowl", "bowls", "cup", "cups", "mug", "mugs", "vase", "vases"}
)  # fmt: skip
# A colour or a material: a list item described so is there ("no refrigerator, white oven").
DESCRIBED = frozenset(
    {"white", "black", "red", "blue", "green", "yellow", "brown", "grey", "gray", "silver",
     "pink", "purple", "beige", "wooden", "marble", "stainless", "metal", "chrome", "leather",
     "plastic", "ceramic", "granite", "wicker", "velvet",
     # a state said of what is there: "no umbrella, soaked cyclist"
     "soaked", "drenched", "dripping", "sodden", "wet", "muddy", "sweaty", "exhausted", "sleepy",
     "grinning", "smiling", "beaming"}
)  # fmt: skip

# Words that deny the absence word after them: "far from deserted" (crowded), "hardly empty".
DENIED_ABSENCE = r"(?:far from|anything but|hardly|scarcely|by no means|not at all)"
# "hardly unpopulated", "far from deserted": people are there
NOT_DESERTED = re.compile(
    rf"\b{DENIED_ABSENCE} (?:deserted|unpopulated|uninhabited|unoccupied|unstaffed|unmanned)\b"
)
EXAMPLE_WORDS = frozenset({"such-as", "including", "like", "especially"})
GENERIC_HEADS = frozenset({"items", "products", "things", "objects", "stuff", "goods", "articles"})
COPULAS = frozenset({"is", "are", "was", "were"})
# A photo's camera, named in its caption: "Taken with iPhone 12", "shot on my phone".
CAMERA_PHRASE = (
    r"(?:taken|shot|captured|photographed|snapped) (?:with|on|using) (?:an? |my |the )?"
    r"(?:iphone|phone|smartphone|cell ?phone|mobile|pixel|galaxy|android)"
)
CAMERA_VERBS = frozenset({"take", "shoot", "shot", "capture", "photograph", "snap"})
# What one leaves by going ("the dog has left the room"); anything else left stays ("he has left
# his pickup running").
LEFT_PLACES = (
    "room|house|home|building|park|field|beach|scene|table|stage|station|platform|frame|shot"
    "|picture|area|yard|garden|court|pitch|kitchen|office|shop|store|party|nest|harbor|harbour"
    "|port|dock|pier|airport|gate|road|street|lot|pasture|stable|barn|pen|ring|arena|track"
    "|driveway|driveways|garage|cafe|restaurant|bar|pub|diner|classroom|hall|square|plaza|market"
    "|church|gym|library|lobby|patio|terrace|porch"
)
# What taxis to a runway ("a jet taxis to the gate"), and what has a bed that is no bed ("no dog
# in the bed" of a pickup).
AIRCRAFT_WORDS = "plane|airplane|jet|airliner|aircraft|jetliner"
PICKUP_WORDS = "pickup|pick-up|truck|pickups|pick-ups|trucks"
# Animals whose "family" is a herd, not people: "an elephant family", "zebra families".
BIG_GAME = "elephant|giraffe|moose|elk|seal|walrus|whale|hippo|rhino|bison|buffalo"
FAMILY_ANIMALS = "zebra|bear|horse|sheep|cow|duck|goose|swan|cat|dog|bird"
YOUNG_ANIMALS = (
    "ducklings|goslings|cygnets|chicks|foals|lambs|calves|cubs|puppies|pups|kittens|piglets|fawns"
    "|joeys"
)
YOUNG_ANIMAL = "duckling|gosling|cygnet|chick|foal|lamb|calf|cub|puppy|pup|kitten|piglet|fawn|joey"
SOFT_PREPOSITIONS = frozenset({"here", "today", "tonight", "yet", "again", "anywhere"})
ADVERBS = frozenset({"even", "really", "exactly", "ever", "yet", "currently"})
# Pronouns for what someone owns: "no other cars besides ours".
THEIRS = frozenset({"ours", "mine", "theirs", "yours", "his", "hers"})
# People a thing is for, not said to be there: "no bench for visitors".
BENEFICIARIES = (
    "visitors|guests|customers|kids|children|passengers|diners|patrons|shoppers|commuters"
    "|students|spectators|fans|tourists|residents|staff|employees|hikers|swimmers|skaters"
    "|owners"
)
# Phrases that contain a term but name something else: no mention of anything.
NOT_OBJECTS = (
    "zebra crossing", "jet bridge", "field mouse", "house mouse", "mouse pad", "mouse mat",
    "lunch bag", "shopping bag", "plastic bag", "paper bag", "tea bag", "sleeping bag", "bean bag",
    "garbage bag", "trash bag", "punching bag", "coffee table", "side table", "bedside table",
    "end table", "pool table", "changing table", "tray table", "table setting", "table tennis",
    "apple pie", "chocolate orange", "bus stop sign", "local pickup", "pickup only",
    "curbside pickup", "for pickup",
    "bear hug", "cat walk", "hot tub", "super bowl", "rose bowl", "dust bowl", "piece of cake",
    "train of thought", "ball of yarn", "ball of wool", "ball of string", "ball of twine",
    # a group of animals or things, not people: "a couple of dogs", "a family of ducks"
    "couple of", "family of", "team of", "crew of", "family room", "traffic cone",
    # what skiers use or where they go, not skis
    "ski lift", "ski slope", "ski resort", "ski pole", "ski instructor", "ski lodge",
    "ski jacket", "ski boot", "ski goggle", "ski mask", "ski trip", "ski run", "ski area",
    "ski chalet", "ski patrol", "ski jump", "ski school", "ski pass", "ski hill", "ski season",
    "ski town", "ski suit", "ski trail", "toilet paper", "toilet roll",
    "lifeguard tower", "lifeguard stand", "hen house",
    # a diner is a restaurant where it is a place or a part of one
    "outside the diner", "at the diner", "in the diner", "inside the diner", "into the diner",
    "roadside diner", "diner counter", "diner booth", "at a diner", "outside a diner",
    # what washes or holds no dish of a table's
    "soap dish", "dish soap", "dish rack", "dish towel", "dish drainer", "satellite dish",
    # a pond named for ducks, the people a game draws
    "duck pond", "football fan", "football fans", "football supporters",
    # rooms and things kept for guests
    "guest bathroom", "guest room", "guest bedroom", "guest house", "guest towel", "guest book",
    # toys, models and machines named for what they imitate
    "toy car", "toy truck", "toy train", "toy bus", "toy boat", "toy airplane", "toy plane",
    "toy motorcycle", "kick scooter", "push scooter", "electric scooter", "e scooter",
    "mobility scooter", "model train", "model airplane", "model plane", "stationary bike",
    "exercise bike",
    # beds that no one sleeps in
    "raised bed", "flower bed", "garden bed", "river bed", "sea bed", "truck bed", "dog bed",
    "cat bed", "pet bed", "bed of",
)  # fmt: skip
# Words that modify a name right after them: "a baby elephant", "a toy car", "baggage trucks",
# "a fruit bowl", "a food truck"
PREFIX_MODIFIERS = frozenset({"baby", "toy", "baggage", "luggage", "fruit", "food", "computer"})
# Heads that are also verbs of a plural subject: "a bench and a parking meter line the corner".
LIST_VERBS = frozenset({"line", "flank", "border", "frame", "crowd", "dot"})
VERB_OBJECTS = frozenset(
    {"his", "her", "their", "its", "my", "your", "our", "the", "a", "an", "up"}
)
SUBJECTS = frozenset({"to", "he", "she", "they", "i", "we", "you", "who"})
# Words that are adjectives before a noun: "an orange kite", "a remote cabin", "a glass lobby"
AMBIGUOUS_ADJECTIVES = frozenset({"orange", "remote", "glass"})
# Predicates after an ambiguous word show it is the noun: "remote present", "orange: none".
NOUN_PREDICATES = frozenset(
    {"present", "visible", "shown", "pictured", "missing", "absent", "gone", "yes", "no", "none",
     "zero", "nope", "included", "removed", "either", "anymore"}
)  # fmt: skip
INTENSIFIERS = frozenset({"so", "too", "very", "quite", "rather", "more", "most", "less"})
SHOW_VERBS = (
    "show|shows|include|includes|depict|depicts|feature|features|capture|captures|contain|contains"
)
POSSESS_VERBS = (
    "brought|brings|bring|carries|carry|carrying|has|have|holds|holding|wears|wearing|uses|using|"
    "owns|took|takes|remembered|packed"
)

HEDGE = "hedge"  # an object only supposed, expected or asked about: neither affirmed nor negated
# "bride & groom": the sign between two words is "and", for the rules and for the counts.
AND_SIGN = re.compile(r"(?<=[a-z]) & (?=[a-z])", re.IGNORECASE)
NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen")  # fmt: skip
NUMBERS = "|".join(("one", *NUMBER_WORDS[:9]))  # "one" to "ten", for patterns
# Words that are numbers wherever they stand ("there are five"; "one" is a pronoun as often).
TENS = ("twenty", "thirty", "forty", "fifty")
NUMERALS = frozenset({*NUMBER_WORDS, *TENS, "dozen"})
# Words that count a plural noun: "five sheep stand" (no "sheep stand").
COUNT_WORDS = NUMERALS | {"several", "many", "few"}
NT_BASES = "is|are|was|were|does|do|did|has|have|had|could|would|should|must|need"
POSSESSIVE = "xposs"  # stands for "'s": "the child's bike" -> "the child xposs bike"

# A yes, as an answer says it: "Car: yes, one.", "Remote - here? Yep."
YES_WORDS = frozenset({"yes", "yep", "yeah"})
YES = r"(?:yes|yep|yeah)"
# A bullet or slash between a tally's items: "cows 3 \u2022 horses 0", "cows 5 / horses 0"
TALLY_BULLET = re.compile(r"(?<=\S) [\u2022\u00b7] |(?<=\d) / (?=[a-z])")
ANSWER_FILLERS = frozenset(
    {"a", "q", "answer", ",", "and", "but", "yet", "so", "well", "sadly", "apparently", "today",
     "now", "right", "tonight", "currently", "though", "unfortunately", "actually", "alas",
     "sorry", "oh", "obviously", "definitely", "certainly", "clearly", "absolutely", "surely",
     "honestly", "really"}
)  # fmt: skip

# Check marks: a cross says an item is not there, a tick that it is ("\u2705 hot dog \u274c fork").
CROSS_MARKS, TICK_MARKS = "\u274c\u2716\u2717\u2718\U0001f6ab", "\u2705\u2713\u2714\u2611"

# Verbs that need a phone, matched as said ("texts" is no plural of "text" here).
TEXTING = frozenset({"texts", "texting", "texted"})
# A person named by what they ride: "a lone surfer" has a board, whatever the reader makes of
# the word (a person).
GEAR: dict[str, str] = {
    "skier": "skis",
    "snowboarder": "snowboard",
    "surfer": "surfboard",
    "skateboarder": "skateboard",
    "cyclist": "bicycle",
    "motorcyclist": "motorcycle",
    "backpacker": "backpack",
    **dict.fromkeys(TEXTING, "cell phone"),  # "a teenager texts"
}
