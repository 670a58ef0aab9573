"""A denial of a denial the rules do not rewrite: refused, not guessed at.

``normalize`` turns the double negations it knows into what they say ("it is not true that no
buses run here": some do; "there isn't a single chair that isn't taken": every one is). One that
is left, a cue with another inside the clause it embeds ("I would hardly call the shelf free
of books", "nobody would deny that there is no cat"), could be read either way round, and a reading
the wrong way round publishes a false sentence: the gate refuses it as ``double_negation``, unless
its clause names only what the rest of the caption says plainly is there ("the station isn't
deserted: commuters crowd it; no train", ``said_plainly``), when however it is read the caption
says what the rest says.

A contrast in a cleft is no safer: "it's the microwave, not the oven, that's running" (or "it
isn't the toaster that's humming but the microwave") leaves the oven there to some readers and out
of the picture to others (the labelled sets have both), so the gate refuses it as
``contrast_cleft``. "It's a truck, not a bus" says what the thing is: no
bus, as the rules read it.
"""

from __future__ import annotations

import re

from negdata.detect.lexicon import Lexicon
from negdata.validate.negation import analyze
from negdata.validate.negation.normalize import prepare
from negdata.validate.negation.words import LEFT_PLACES, STOP, YES, plain

_CUE = (
    r"(?:no|not|never|none|nobody|nothing|without|lacks?|lacking|missing|absent|free-of"
    r"|(?:empty|devoid|bare)[- ]of)"  # "you'd never call this playground empty of kids"
)
_FIRST = rf"(?:{_CUE}|hardly|barely|scarcely)"
# What embeds a clause, a few words after the first cue: "not that", "would deny that",
# "hardly call", "not say", "I'm not saying".
_SAY = (
    r"(?:say|says|said|saying|claim|claims|claiming|call|calling|called|described as|describe"
    r"|describes|describing|think"
    r"|thinking|pretend|pretending|argue|arguing|deny|denying|doubt|doubting)"
)
_EMBED = rf"(?:(?:[a-z'-]+ ){{0,3}}?{_SAY}|that|as if|as though)"
_GAP = r"(?:(?!\b(?:and|or|nor|but)\b)[^.;:!?|,]){0,60}?"  # no new list item or clause
# The rest of a subject a denial opens: a few words, no verb or clause ("not one car", "none of
# the guests"; not "nobody is left now that the players").
_SUBJECT = (
    r"(?:(?!(?:is|are|was|were|that|who|which|now|when|while|and|or|nor|but)\b)[a-z'-]+ ){0,4}"
)
# "you won't find a single", "you'd be hard pressed to find a", "it's hard to find a"
_FIND_ONE = (
    r"(?:not|(?:hard pressed|hard-?pressed|hard|difficult|impossible|struggle) to) find"
    r" (?:an?|one|a single|any)"
)
# What is done to a thing that is there: "been cleared", "none cut yet"
_DONE_TO = (
    r"(?:cleared|cleaned|touched|used|plowed|ploughed|shoveled|shovelled|washed|unwrapped"
    r"|claimed|taken|opened|eaten|sliced|cut|lit|occupied|sold|collected|repaired|fixed|picked up"
    r"|finished|started|tidied|put away|switched on|turned on|uncorked|poured|emptied|unpacked"
    r"|served)"
)
_DOUBLE = re.compile(
    rf"\b{_FIRST} {_EMBED}\b{_GAP}\b{_CUE}\b"
    # "the bathroom isn't sinkless", "nothing about the lot is carless" ("no sink", as
    # ``prepare`` writes a "-less" word)
    rf"|\b(?:not|never)\b (?:[a-z]+ )?no [a-z]+ {STOP}"
    rf"|\b(?:nothing|no part|nowhere|no person|none|not (?:an?|one|a single))\b{_GAP}"
    rf"\b(?:is|was|are|were) (?:[a-z]+ )?no [a-z]+ {STOP}"
    # "there's no pretending the cat isn't there"
    rf"|\bno (?:pretending|denying|doubting|arguing|claiming|saying)\b{_GAP}\b{_CUE}\b"
    # a denial of what lacks: "not a window on this street is without a potted plant",
    # "there is never a time the vending area lacks bottles", "you'd be hard pressed to find a
    # bench without a pigeon", "you won't find a single empty chair" ("a chair with no person",
    # as ``prepare`` writes it)
    rf"|\b(?:not (?:an?|one|a single|once)|not even (?:an?|one)|never|no|none|nobody|nothing"
    rf"|(?:hardly|scarcely|barely) an?|{_FIND_ONE})\b{_GAP}\b(?:without|lacks?|lacking|lacked"
    r"|missing|free-of|devoid of"
    r"|empty of)\b"
    # ... "there's no empty chair" ("no chair with no person"): every one taken
    rf"|\b(?:not (?:an?|one|a single)|no|{_FIND_ONE}) (?:[a-z]+ )?[a-z]+ with no\b"
    # "you'd be hard-pressed to find a branch of this tree not holding a bird": all hold one
    rf"|\b{_FIND_ONE}\b{_GAP}\bnot (?:[a-z]+ing|with)\b"
    # "it wouldn't be the beach without a surfboard stuck in the sand": one is there
    rf"|\b(?:would|could|will|can) not (?:be|feel|look|seem)\b{_GAP}\bwithout\b"
    # a denial of what is left untouched: "not a single deckchair is unoccupied" ("no person",
    # as ``prepare`` writes it), "not one of the guests arrived empty-handed", "not a sheep in
    # the flock is unshorn": every one taken, carrying something, shorn
    rf"|\b(?:not (?:an?|one|a single)|none|nobody|no person|(?:hardly|scarcely|barely) an?)\b"
    rf"{_GAP}\b(?:is|are|was|were"
    r"|arrived|came|left|sat|stands?|sits?|remains?|stays?|went|goes|stood) (?:[a-z]+ )?"
    r"(?:emptyhanded|empty-handed|no person|unlit|un(?!accounted)[a-z]{2,}(?:ed|en|rn))\b"
    # "not a single car on the street isn't buried in snow": every one is
    rf"|\b(?:not (?:an?|one|a single)|(?:hardly|scarcely|barely) an?)\b{_GAP}\b(?:is|are|was|were)"
    r" not\b"
    # "hardly a bench in the hall is empty", "none of the four chairs is empty", "not a chair
    # at the cafe sits empty": (nearly) every one taken
    r"|\b(?:not (?:an?|one|a single)|none|neither|(?:hardly|scarcely|barely) an?)\b"
    rf"{_GAP}\b(?:is|are|was|were|sits|sit|sat|stands|stand|stood|remains|remain|remained"
    r"|stays|stay|stayed) (?:left )?(?:empty|vacant|free|unoccupied)\b"
    # a denial of going: "not one car has left the driveway", "not a single car has made it out"
    # (all still there), or of what was done to them: "not a single bench has been cleared"
    rf"|\b(?:not (?:an?|one|a single)|none|nobody|no one|no)\b {_SUBJECT}(?:has|have|had) "
    r"(?:yet |already |even )?(?:gone|departed|moved|made it (?:out|home|through|past|across|in)"
    rf"|been {_DONE_TO}|left(?! (?:out|behind)\b)(?! (?:his|her|their"
    rf"|its|my|our|your|a|an|the|some|any|a single) (?!(?:{LEFT_PLACES})\b)))\b"
    # ... said after its name: "three pizzas on the counter, none cut yet", "seats, none taken"
    rf"|\bnone (?:yet |of them )?{_DONE_TO}\b"
    # a denial of a lack that goes on with "nor": "not short of umbrellas, nor of surfboards"
    r"|\b(?:not|never|hardly|barely|scarcely) (?:short|lacking|without|free|empty|devoid|bare)\b"
    r"[^.;:!?|]{0,60}\bnor\b"
    # ... or said of it in a clause of its own: "there isn't a chair in the room that's empty"
    rf"|\b(?:not (?:an?|one|a single)|no)\b{_GAP}\b(?:that|which) (?:is|are|was|were) "
    r"(?:empty|vacant|free|unoccupied|unused|untouched)\b"
    # ... or one that has none: "there isn't a vase in the cafe that holds no flowers" (every one
    # holds some), "you won't find a cup that isn't chipped" (``prepare`` rewrites only "is not")
    rf"|\b(?:not (?:an?|one|a single)|no|{_FIND_ONE})\b{_GAP}\b(?:that|which|who) (?:[a-z]+ )?"
    r"(?:no|not|never|without|lacks?)\b"
    # a denial of a state: "not one umbrella on the beach is open" is no umbrella there to most
    # authors and every one shut to some
    rf"|\bnot (?:one|a single|even one)\b {_SUBJECT}(?:[a-z]+ ){{0,3}}(?:is|are|was|were) "
    r"(?:open|lit|switched on|turned on|in use|unfolded|folded|closed|shut|furled"
    r"|used|touched|eaten|sliced|unwrapped"  # "not a single fork is used": all laid out
    r"|(?:on|up)(?= *(?:[,.;:!?|)]|$|and\b"
    r"|but\b|despite\b|even\b|though\b)))\b"
)
# "nobody could", "no one would ever", "none of us can really": a denial of saying so
_NOBODY_WOULD = r"(?:nobody|no one|none of us)\b (?:could|would|can|will)(?: ever| really)?"
# Denials of a denial that ``prepare`` rewrites out of sight, read in the text as written:
_RAW_CUE = (
    r"(?:n't\b|\b(?:no|not|never|none|nobody|nothing|without|lacks?|lacking|missing|absent)\b)"
)
_RAW_GAP = r"(?:(?!\b(?:and|or|nor|but)\b)[^.;:!?|,\n]){0,40}?"
_RAW_DOUBLE = re.compile(
    # "not even the fog leaves the pier without its fishermen", "the crosswalk is seldom
    # without a pedestrian" (most days, and now?): they are there
    rf"\bnot even\b{_RAW_GAP}\bwithout\b|\b(?:seldom|rarely|hardly ever) without\b|"
    # "rarely is the lake without sailboats": as often as not, they are there today too
    # "rarely is the station roof pigeon-free"
    r"\b(?:seldom|rarely|rare|hardly ever) (?:is|are|was|were|has|have|had) (?:[a-z']+ ){1,4}?"
    r"(?:without\b"
    r"|[a-z]{3,}-?(?:less|free)\b|(?:free|empty|devoid) of\b)|"
    # "the table does not go without wine glasses tonight": they are there
    r"(?:\bnot|n't|\bnever) (?:go|goes|went|going|gone) without\b|"
    # "nowhere on the hill is there not a sheep": a sheep everywhere ("no", as written)
    r"\bnowhere\b[^.;:!?|]{0,60}\b(?:is|are|was|were) there (?:not|no|never)\b"
    # "nowhere on this pier is without an angler": one everywhere
    rf"|\bnowhere\b{_RAW_GAP}\b(?:is|are|was|were) (?:without|lacking|(?:free|empty|devoid) of)\b"
    # "don't think there isn't a dog", "there's no way there isn't a cat", "it's not like the
    # bowl is missing", "it's not as if I didn't expect a cow", "far from there being no cars"
    r"|\b(?:do|does|did)(?:n't| not) (?:think|believe|suppose|imagine|reckon|assume|presume)"
    rf"(?: for (?:a|one) (?:moment|second|minute))?\b{_RAW_GAP}{_RAW_CUE}"
    # "no way he's racketless", "no way you'd call the sidewalk empty of people"
    rf"|\bno way\b{_RAW_GAP}(?:{_RAW_CUE}|[a-z]{{3,}}-?less\b|\b(?:empty|free|devoid|bare) of\b)"
    rf"|\bnot (?:like|as if|as though)\b{_RAW_GAP}(?:n't\b|\b(?:missing|absent|gone|without|lacks?"
    r"|lacking)\b)"
    rf"|\bfar from (?:(?:there|it) )?(?:being |having )?(?:an? |any )?{_RAW_CUE}"
    # "far from laptopless", "far from a zoo without giraffes": they are there
    r"|\bfar from (?:an? |the )?(?:[a-z]+-?(?:less|free)\b|[a-z]+ (?:without|lacking)\b)"
    # "nobody would call the bus empty; it's packed", "nobody is not smiling"
    rf"|\b{_NOBODY_WOULD} (?:call"
    rf"|describe|consider)\b{_RAW_GAP}\b(?:empty|deserted|vacant|bare|unoccupied|uncrowded)\b"
    # ... "nobody would say the platform is deserted" (of people: "the bowl is empty" the rules
    # read as naming nothing)
    rf"|\b{_NOBODY_WOULD} (?:say"
    rf"|claim|think)\b{_RAW_GAP}\b(?:deserted|unoccupied|uninhabited)\b"
    # ... "nobody in the photo is not smiling"
    r"|\b(?:nobody|no one|none of them)\b(?: (?:in|on|at) (?:the|this|that) (?:[a-z]+ )?[a-z]+)?"
    r" (?:here |there )?(?:is|are|was|were)(?: not|n't)\b"
    # "nobody left the table bare of cups": there are some
    rf"|\b(?:nobody|no one)\b (?:(?:has|had|would|will) )?(?:left|leaves|leave)\b{_RAW_GAP}"
    r"\b(?:(?:bare|empty|free|devoid) of|without)\b"
    # "the meadow lacks neither cows nor grass", "gulls are hardly absent", "hardly an absence of
    # cows": they are there ("hardly lacking in sheep", "no shortage of chairs" the rules read)
    r"|\b(?:lacks?|lacking|lacked|missing|without) neither\b"
    r"|\b(?:hardly|scarcely|barely) (?:absent|missing|gone)\b"
    r"|\b(?:hardly|scarcely|barely) an? (?:absence|lack|shortage) of\b"
    # "it would be wrong to think the beach is umbrella-free"
    r"|\b(?:wrong|false|untrue|incorrect|a mistake|mistaken) to (?:say|claim|think|suggest"
    rf"|assume|believe)\b{_RAW_GAP}\b[a-z]{{3,}}-(?:free|less)\b"
    # "nobody looking at this photo could claim there were no motorcycles", "ain't nobody gonna
    # tell me this lot don't have trucks"
    r"|\b(?:nobody|no one)\b(?: [a-z']+){1,5}? (?:could|would|can|will)(?: ever| really)? "
    rf"(?:say|claim|argue|think|pretend|call)\b{_RAW_GAP}{_RAW_CUE}"
    r"|\b(?:nobody|no one)\b (?:is |'s )?(?:gonna|going to|will|would|could|can) (?:tell|convince)"
    rf" (?:me|us|you)\b{_RAW_GAP}{_RAW_CUE}"
    # "it's not the absence of a kite that's odd - there's one right there"
    r"|\bnot the (?:absence|lack) of\b"
    # "she's the only one in the office without a laptop", "the only one not looking at a
    # phone": the others have one
    r"|\bthe only [a-z]+\b[^.;:!?|]{0,40}?\b(?:without|not [a-z]+ing)\b"
    # "the bookshelf could never be accused of being bookless", "it can't be said the broccoli
    # was forgotten"
    rf"|\bcan(?:not|'t| not) be (?:said|claimed|argued)\b{_RAW_GAP}(?:{_RAW_CUE}"
    r"|\b(?:forgotten|gone|left behind)\b)"
    rf"|(?:\b(?:never|not)|n't) (?:be |been )?accused of\b{_RAW_GAP}"
    rf"(?:{_RAW_CUE}|[a-z]{{3,}}-?less\b)"
    # "saying the runway lacks planes would be wrong", "neither is the runway without a plane"
    rf"|\bsaying\b{_RAW_GAP}{_RAW_CUE}[^.;:!?|]{{0,40}}?\b(?:would be|is|was) (?:wrong|untrue"
    r"|false|incorrect|a mistake|a lie|mistaken)\b"
    rf"|\bneither (?:is|are|was|were)\b{_RAW_GAP}\b(?:without|lacking)\b"
    # "calling the pitch empty of players would be wrong"
    r"|\b(?:calling|describing)\b[^.;:!?|]{0,60}?\b(?:empty|bare|free|devoid|deserted|without"
    r"|[a-z]{3,}-?less)\b[^.;:!?|]{0,40}?\b(?:would be|is|was) (?:wrong|untrue|false|incorrect"
    r"|a mistake|a lie|mistaken)\b"
    # "the waiting room is not empty of chairs, nor of people": of people neither
    r"|\bnot (?:empty|free|devoid|bare) of\b[^.;:!?|]{0,60}\bnor of\b"
    # "would I say there's no cat?", "who says there's no pizza?": no, there is one
    rf"|\b(?:would|could|can|should|do|did|does) (?:i|you|we|anyone|anybody|one) "
    rf"(?:say|claim|call|think|argue)\b{_RAW_GAP}{_RAW_CUE}"
    rf"|\bwho (?:says|said|claims|would say|could say)\b{_RAW_GAP}{_RAW_CUE}"
    # "the field isn't sheep-less", "the street isn't car-free", "nothing about this street is
    # car-free", "not a branch of the tree is bird-free", "nobody in the room is laptop-less"
    r"|(?:\bnot|n't) (?:[a-z]+ )?[a-z]+-(?:less|free)\b"
    # "the library table is hardly bookless, and hardly laptop-free"
    r"|\b(?:hardly|scarcely|barely) (?:[a-z]+ )?[a-z]{3,}-?(?:less|free)\b"
    r"|\b(?:nothing|no part|nowhere|nobody|no one|none|not (?:an?|one|a single))\b[^.;:!?|]{0,40}"
    r"\b(?:is|was|are|were) (?:[a-z]+ )?[a-z]+-(?:less|free)\b"
    # "nobody could argue the classroom is chairless": it has chairs ("nobody could say it lacks
    # chairs" the rules read)
    rf"|\b{_NOBODY_WOULD} (?:argue|say"
    rf"|claim|call|deny|pretend|think|accuse)\b{_RAW_GAP}\b[a-z]{{3,}}-?(?:less|free)\b"
    # "the corner never runs out of books", "can't confirm the absence of a giraffe": they are there
    r"|(?:\b(?:never|not)|n't) (?:runs?|ran|running) out of\b"
    r"|(?:\bcannot|n't|\bnot|\bunable to) (?:confirm|verify|prove|say) (?:the |an? |any )?"
    r"(?:absence|lack)\b"
    # "nobody in the waiting room is watching tv", "not one child on the playground is standing
    # still": the ones there do something else
    r"|\b(?:nobody|no one|not (?:one|a single)(?: [a-z]+)?) (?:in|on|at) (?:the|this|that) "
    r"(?:[a-z]+ )?[a-z]+ (?:is|are|was|were) [a-z]+ing\b"
    # "it's false that the fridge is missing", "I didn't fail to spot the horse"
    r"|\bit(?:'s| is| was) (?:not true|untrue|false|wrong|incorrect)\b"
    rf"{_RAW_GAP}\b(?:missing|absent|gone)\b"
    r"|(?:n't|\bnot|\bnever) fail(?:ed|s)? to\b"
    # "there's never a moment the oven isn't busy" ("never a day without a dog" the rules read)
    r"|\b(?:never|not) (?:a|one|a single) (?:moment|day|time|minute|hour|night|week|second)\b"
    rf"(?! (?:goes by |went by |passes |passed )?without\b){_RAW_GAP}(?:n't\b|\bnot\b)"
    # "never have I seen a dock without a boat": every one has one
    r"|\bnever (?:have|had|did|do|does|will|would) (?:i|we|you|they|one|anyone)\b"
    rf"{_RAW_GAP}\bwithout\b"
    # a question that denies, answered: "Is the garage without a car? No." (one is there), "Is
    # the dog gone? No.", "Is there no cat? Yes." (either way round)
    rf"|(?:{_RAW_CUE}|\b(?:gone|nowhere|away|empty|(?:free|devoid) of)\b|[a-z]-?(?:less|free)\b)"
    rf"[^.!?;:|\n]*\?\s*(?:no|nope|nah|{YES})\b"
    # "not once did the dog leave the sofa": it stayed
    r"|\b(?:not once|never once|never) (?:did|does|has|had|do) (?:[a-z']+ ){1,4}?"
    r"(?:leave|left|move|moved|budge|budged|stir|stirred|get up|got up)\b",
    re.IGNORECASE,
)


_OWNED = r"(?:the|his|her|their|its|my|our)"
_CLEFT = re.compile(
    rf"\bit (?:is|was) {_OWNED} (?:[a-z]+ ){{0,3}}?[a-z]+,? not {_OWNED} (?:[a-z]+ ){{0,3}}?"
    r"[a-z]+,? (?:that|who|which)\b"
    # "it isn't the toaster that's humming but the microwave": the toaster is there to most
    rf"|\bit (?:is|was) not {_OWNED} (?!(?:case|fact|truth|idea|point|reason|problem|issue)\b)"
    r"(?:[a-z]+ ){0,3}?[a-z]+ (?:that|who|which) "
    r"(?!(?:is|are|was|were) (?:missing|gone|absent|lacking)\b)"
)


def contrast_cleft(text: str) -> bool:
    """Whether ``text`` contrasts two things that the article says are there in a cleft:
    "it's the microwave, not the oven, that's running"."""
    return _CLEFT.search(prepare(text)) is not None


def unread_double_negation(text: str) -> bool:
    """Whether ``text`` keeps, after the rules' rewriting, a cue inside what another embeds."""
    return _RAW_DOUBLE.search(plain(text)) is not None or _DOUBLE.search(prepare(text)) is not None


# A caption's clauses: "the pond isn't exactly duckless - ducks paddle everywhere - yet no boat"
_CLAUSE = re.compile(r"\s*(?:[.!?;:()\u2014\u2013]|\s-\s|,\s*(?=(?:but|yet|though|and)\b))\s*")


def said_plainly(text: str, lexicon: Lexicon) -> str | None:
    """The caption without the clauses that keep an unread double negation, where those name
    only things that the rest affirms in plain words and the whole caption affirms: "the station
    isn't deserted: commuters crowd it; no train". However the denial is read, the caption says
    what the rest says; "you couldn't call the cafe empty of laptops, but I see no cups" names
    laptops nowhere else, and "the bench is rarely without someone, but today no one is there"
    denies them. ``None`` where that is not so."""
    clauses = [c for c in _CLAUSE.split(text) if c.strip()]
    doubles = [c for c in clauses if unread_double_negation(c)]
    rest = ". ".join(c for c in clauses if c not in doubles)
    if not doubles or not rest or unread_double_negation(rest):
        return None
    named = set().union(*(set(lexicon.mentioned(c)) | set(analyze(c, lexicon)) for c in doubles))
    plainly, whole = analyze(rest, lexicon), analyze(text, lexicon)
    if named and all(plainly.get(n) == whole.get(n) == "affirmed" for n in named):
        return rest
    return None
