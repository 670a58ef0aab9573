"""Exclusive claims: a sentence that says what it affirms is all there is.

An exclusive claim ("only a motorcycle", "just a bench", "nothing but sand", "empty save for a
chair") is true only when every object the evidence finds present is one the sentence affirms
(``claims.left_out``). "Not only" and "not just" add rather than exclude, and claim nothing.
A claim about a kind ("the only animal is a cow") rules out the kind's other members
(``kind_exclusions``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from negdata.detect.lexicon import Lexicon
from negdata.validate.negation import Polarity
from negdata.validate.negation.words import THEIRS
from negdata.validate.parser import parse

if TYPE_CHECKING:  # spaCy (and torch, which thinc imports) only load to parse
    from spacy.tokens import Token

# People a sentence says there are no others of: "a woman reads; no other customers".
_PEOPLE = ("people", "persons", "customers", "guests", "passengers", "diners", "visitors",
           "shoppers", "patrons", "humans", "kids", "children", "adults", "players", "tourists",
           "pedestrians", "students", "workers")  # fmt: skip
_WORDS = r"(?:[\w'-]+,? ){0,12}"  # up to twelve words between the parts of a phrase
_BUT = r"(?:but|except|besides|apart from|other than|save|beyond|aside from|more than)"
# "nothing", in every register: "zilch in this pic except a skateboard", "naught but a cart"
VOID_WORDS = frozenset({"nothing", "naught", "nought", "nada", "zilch", "nowt", "nil"})
_VOID_PRONOUNS = (
    rf"(?:\b(?:{'|'.join(sorted(VOID_WORDS))}|not (?:a|one|a single) thing|not anything)"
    # "there isn't a thing on the counter besides", "there isn't anything on the sill besides"
    r"|n['\u2019]t (?:a|one|a single) thing|n['\u2019]t anything)"
)
EXCLUSIVE = re.compile(
    r"(?<!\bnot )\b(?:only|just|solely|merely|exclusively|no one else"
    # "alone", but not "home alone", "let alone", "alone in thought", "alone together"
    r"|(?<!\bhome )(?<!\bnever )(?<!\bnot )(?<!\blet )alone"
    r"(?! (?:in (?:thought|his|her|their|having|[a-z]+ing)|together)\b))\b"
    # not "just another day", "only half the pizza", "only minutes after sunrise"
    r"(?! another\b| half\b| (?:a few |a couple of )?(?:minutes|moments|seconds|hours|days|weeks"
    r"|months|years)\b)"
    # "a toothbrush lies solo", "the suitcase sits unaccompanied"; not "mid-solo", not
    # "unaccompanied by giraffes" (none there)
    r"|(?<!-)\bsolo\b(?!-)|\bunaccompanied\b(?! by\b)"
    r"|\bsole\b(?! of\b)"  # "sole occupant of the bench: a pigeon", not "the sole of a shoe"
    r"|\b(?:lone|only) occupants?\b"  # "the lone occupant of the lot is a pickup"
    # "a teddy bear on the shelf, the rest of which is bare", "bereft of anything but milk"
    r"|\bthe rest (?:of (?:which|it|them) )?(?:is|are|was|were|lies|stands) (?:bare|empty)\b"
    # "a wolf on the ridge, the rest of the snowy landscape empty"
    r"|\bthe rest of the (?:[a-z]+ ){0,3}?[a-z]+ (?:(?:is|are|was|were|lies|stands) )?"
    r"(?:bare|empty|deserted|vacant)\b"
    # "the bridge has no traffic on it except a single cyclist"
    r"|\bno (?:traffic|activity|movement|life)\b,? (?:[\w'-]+,? ){0,6}(?:except|but|save|other "
    r"than|apart from|besides)\b"
    rf"|\b(?:bereft|devoid|empty|free) of (?:anything|everything) {_BUT}\b"
    # "simply a bowl of oranges", "purely a stack of firewood"
    r"|\b(?:simply|purely) (?=(?:an?|the|one|two|three|some)\b)"
    # "no other objects", "no other vehicles", but "no other customers" only says who is not
    rf"|\bno other\b(?! (?:{'|'.join(_PEOPLE)})\b)"
    # "a field of snow with nothing in it whatsoever"
    r"|\bwith nothing (?:whatsoever |at all )?in (?:it|them)(?: whatsoever| at all)?"
    r"(?= *(?:[,.;:!?)]|$))"
    # "nothing but", "nothing else", "nothing on it except", "no one in the room but"
    rf"|(?:{_VOID_PRONOUNS}|\bnobody|\bno one)\b,? {_WORDS}(?:else|{_BUT})\b"
    # "a vase with nothing beside it", "no nothing", "a napkin the last thing on it"
    r"|\bnothing (?:beside|besides|near|around|next to|with) (?:it|them|him|her)\b|\bno nothing\b"
    r"|\bthe (?:last|only remaining) (?:thing|item|object)\b"
    # "a chair in an empty room", "a kite against an otherwise bare sky", "at a long empty table"
    r"|\b(?:in|on|at|across|along|against|inside|of) (?:an?|the|this|that) (?:[a-z]+,? )?"
    r"(?:otherwise |completely |totally |entirely )?(?:empty|bare|deserted|vacant)\b"
    # "a lone tree, nothing else in sight", "a bench with nothing around"
    r"|\bnothing (?:else )?(?:in (?:sight|view|the frame|the picture|the shot)|around|nearby)"
    r"(?: for (?:miles|a mile|kilometres|kilometers))?"  # "nothing around for miles"
    r"(?= *(?:[,.;:!?)]|$|and\b|but\b))"  # not "nothing in the picture suggests a plane"
    r"|\b(?:entirely|wholly|purely) of\b|\bnone but\b"
    r"|\bthe (?:whole|entire) (?:scene|picture|frame|image|photo|shot) is\b"
    r"|\bisolated on (?:an? )?(?:white|black|plain|transparent|grey|gray)\b"  # a stock photo
    # "empty except for a chair", "bare save for", "deserted but for"
    r"|\b(?:empty|bare|deserted|vacant|clear|unoccupied|unfurnished|sold out"
    r"|(?:licked|wiped|picked|swept|scraped) clean)\b,? "
    rf"{_WORDS}(?:{_BUT}|but for)\b"
    # "apart from the cat, the room is empty", "other than a bed, there is nothing"
    rf"|\b(?:apart from|aside from|other than|besides|save for|except for|short of|barring)\b "
    rf"{_WORDS}(?:nothing|nobody|no one|empty|bare|barren|deserted|unoccupied|vacant"
    r"|(?:completely|entirely|totally|wholly) (?:black|dark|blank|white))\b"
    # "nothing whatsoever on the balcony bar a watering can", "a pair of boots excepted"
    rf"|\b(?:nothing|nobody|no one)\b,? {_WORDS}bar\b|\bexcept(?:ing|ed)\b"
    # "not a single other object", "not another thing", "one coat and naught else", "nothing
    # further", "and absolutely nothing more", "not a thing more"
    r"|\bnot (?:a single |one )?(?:other|another) (?:things?|objects?|items?)\b"
    r"|\bnot (?:a single|one|an?) (?:thing|item|object)\b"
    r"|\b(?:nothing|naught|nought|nil|zilch|nowt|not a thing|not one thing) (?:else|more|further"
    r"|additional|in addition|alongside)\b|\bno anything\b|\bbeyond (?:that|this|it),? nothing\b"
    # "that's your lot", "that is literally everything", "that's the whole photo", "period."
    r"|\bthat(?:'s| is| was) (?:literally |really |basically |about )?(?:your lot|the lot|"
    r"everything|the entirety|the sum total|all there is|the (?:whole|entire) (?:picture|photo|"
    r"image|scene|thing|shot))\b|[,;]? (?:full stop|period)(?= *(?:[.;:!\u2014-]|$))"
    # "the single object on the platform", "the lone thing", "the single exception"
    r"|\bthe (?:single|lone|sole|only|one|solitary) (?:objects?|things?|items?|exceptions?)\b"
    # "the bench is the entire picture", "its entire content", "to the exclusion of all else"
    r"|\b(?:the|its) (?:entire|whole) (?:picture|photo|image|frame|scene|content|contents|shot)"
    r"\b(?! (?:is|of)\b)|\bto the exclusion of\b"
    # "cleared of all but a salt shaker", "everything has been removed except a mirror"
    rf"|\b(?:everything|all)(?:['\u2019]s)?\b {_WORDS}(?:but|except|save)\b"
    r"(?! (?:there|it|no|not|nobody|"
    r"nothing|we|i|you|they|he|she|this|that)\b)"
    r"|\b(?:no|zero|not any) (?:other |additional |further |extra )?(?:objects?|things?|items?)\b"
    r"|\bunaccompanied by (?:anything|anyone|anybody)\b"
    # "bare of all else", "empty of everything" (but "empty of people" denies only people)
    r"|\b(?:bare|empty|devoid|free|bereft|clear|emptied) of (?:all else|everything|all other)\b"
    r"|\ball (?:that(?:'s| is| are| remains?| stands?| sits?| lies| lie)|there is|there's|is there"
    r"|there was|there were"
    r"|remains"
    r"|(?:you|i|we|one)(?:'ll| will| can| could)? (?:see|find|spot)|(?:that )?(?:can|could) be "
    r"(?:seen|found)|the (?:picture|image|photo|frame|shot|scene|camera) (?:contains|shows|holds"
    r"|has|captures|caught))\b"
    r"|(?:\b(?:and|with)|[,;:]) nothing (?:else|more)\b|\band then nothing\b"
    r"|\bthat(?:'?s| is) (?:[a-z]+ly )?(?:it|all)\b"  # "and that's literally it"
    r"|\bby (?:it|them)sel(?:f|ves)\b|\bon its own\b"
    # "the dog has the couch (all) to itself", "we had the waterfall all to ourselves"
    # "the cat has claimed the armchair all for itself"
    rf"|\b(?:has|have|had|having|gets?|got|claim(?:s|ed)?|keeps?|kept) {_WORDS}(?:to|all for) "
    r"(?:it|him|her|them|my|our|your)sel(?:f|ves)\b"
    # "the pigeons have the whole plaza this morning", "pup stole the whole couch", "share it
    # with no one", "the road belongs to the cyclists today"
    r"|\b(?:has|have|had|having|gets?|got|stole|steals|took|takes|hogs?|hogged|hogging|claims?"
    r"|claimed|occup(?:y|ies|ied)) the (?:whole|entire) (?!(?:time|day|night|week|weekend"
    r"|morning|afternoon|evening|year|thing|story|family|set|series|collection|team)\b)[a-z]+\b"
    # "a single kite owns the sky over the park" (not "the man who owns the field")
    r"|(?<!\bwho )(?<!\bthat )(?<!\bwhich )\b(?:owns|owned) the (?:sky|skies|road|street|beach"
    r"|lake|pond|river|water|waves|field|meadow|pasture|lane|pitch|court|trail|path|slope|square"
    r"|plaza|platform|runway|couch|sofa|bed|sidewalk|pavement|shore|sand)\b"
    r"|\b(?:shares?|sharing|shared) (?:it|them|the [a-z]+) with (?:no one|nobody|no-one)\b"
    r"|\b(?:belongs|belonged) to (?:the|a|an|one) (?:[a-z]+ ){0,2}?[a-z]+ (?:today|tonight|now"
    r"|this (?:morning|afternoon|evening))\b"
    # "the whole compartment to himself, a businessman stretches out"
    r"|\bthe (?:whole|entire) (?:[a-z]+ ){1,3}(?:all )?to "
    r"(?:it|him|her|them|my|our|your)sel(?:f|ves)\b"
    # "an otherwise empty pasture", "a lone elephant and otherwise nothing on the horizon"
    r"|\botherwise (?:[a-z]+ and )?(?:completely |entirely |totally )?"
    r"(?:empty|bare|deserted|vacant|clear|nothing|nobody|no one|devoid of|untouched|undisturbed"
    r"|unoccupied|uninhabited|spotless|pristine)\b"
    # "a lone horse, and otherwise the paddock is bare"
    r"|\botherwise,? (?:the|this|that|its|their) (?:[a-z]+ ){0,2}?[a-z]+ (?:is|are|was|were|lies"
    r"|stands|sits|remains|looks) (?:completely |entirely |totally )?"
    r"(?:empty|bare|deserted|vacant|clear)\b"
    # "parked jet, empty tarmac otherwise", "nothing otherwise"
    r"|\b(?:empty|bare|deserted|vacant|nothing|nobody|no one)(?: [a-z]+){0,2} otherwise\b"
    r"(?= *(?:[,.;:!?)]|$))"
    # "everything in the fridge is fruit"
    r"|\b(?:everything|all) (?:in|on|inside) (?:the|this|that|her|his|my|our) (?:[a-z]+ )?[a-z]+ "
    r"(?:is|was) (?!(?:gone|missing|empty|clean|dirty|wet|quiet|closed|open|new|old|broken)\b)"
    # "the pond is all ducks today": nothing but ducks
    r"|\b(?:is|was) all (?:(?!(?:its|his|yours|ours|smiles|ears|eyes|thumbs|legs|teeth|hands"
    r"|arms|nerves|fingers)\b)[a-z]+s|sheep|cattle|deer|fish|people|geese)\b"
    # "the whole pasture belongs to one sheep today", "the sofa belongs entirely to the cat"
    r"|\b(?:whole|entire) [a-z]+ (?:belongs|belonged) to\b"
    r"|\b(?:belongs|belonged) (?:entirely|wholly|solely|exclusively|completely) to\b"
    # "the dance floor belongs to a single couple", "the bench is all his", "the entire beach
    # is his"
    r"|\b(?:belongs|belonged) to (?:a single|a lone|one lone|just one|only one)\b"
    r"|\b(?:is|was) all (?:his|hers|theirs|mine|ours|yours)\b"
    # "the couch is taken up entirely by a sleeping man"
    r"|\b(?:taken up|occupied|filled|claimed) (?:entirely|wholly|completely) by\b"
    r"|\b(?:entirely|wholly|completely) (?:taken up|occupied|filled|claimed) by\b"
    r"|\bthe (?:entire|whole) [a-z]+ (?:is|was) (?:his|hers|theirs|mine|ours|yours)\b"
    # "no buses: the road belongs to a man walking his horse" (but "the car belongs to a doctor")
    r"|\b(?:road|street|lane|path|trail|track|beach|pier|plaza|square|sidewalk|slope|field|park"
    r"|court|pool|runway|platform)s? (?:now |today |tonight )?(?:belongs|belonged) to\b"
    # "the slope is completely empty": nothing at all on it
    r"|\b(?:completely|entirely|totally) (?:empty|bare|deserted|vacant)\b"
    r"|\bclose-?up of\b"  # the thing fills the frame
    # "the entire frame is filled with oranges", "tulips fill the whole picture"
    r"|\b(?:fills?|filling|filled) (?:the )?(?:entire|whole) (?:frame|picture|image|photo|shot)\b"
    r"|\b(?:entire|whole) (?:frame|picture|image|photo|shot) is (?:filled with|full of|taken up)\b"
    r"|\bthe one (?:thing|object|item|and only)\b"
    r"|\bnot nothing\b"  # "there is not nothing on the table: a lone apple"
    # "no laptop, book or other objects visible": nothing else either
    r"|\bno\b[^.;:]*\b(?:or|nor) (?:any )?other (?:objects?|items?|things?|stuff)\b"
    # one thing, said of the picture or a place: "a single object is in the image", "the room
    # has one thing in it", "the frame's single occupant"
    r"|\b(?:a|one|the|its|[a-z]+'s) (?:single|sole|lone|only|one) (?:objects?|things?|items?"
    r"|occupants?|subjects?|elements?|residents?|inhabitants?|fixtures?|features?)\b"
    r"|\b(?:one|a single) (?:object|thing|item)\b"
    r"|\b(?:count|number|total) of (?:objects|things|items)\b"
    # all there is, in so many words: "the entirety of the picture", "the sum total of this
    # picture", "the complete contents of the fridge", "confined to one battery", "the scene
    # amounts to a mailbox", "everything in the shot", "that's the extent of it"
    r"|\b(?:entirety|sum total|beginning and end|end of story|extent of it)\b"
    r"|\b(?:complete|full|entire|whole) (?:contents?|inventory)\b"
    r"|\b(?:restricted|confined|limited) to\b|\bamounts? to\b"
    r"|\b(?:everything|every (?:single )?(?:object|thing|item)) (?:in|on|within) (?:the|this|that) "
    r"(?:shot|frame|picture|photo|image|scene|pic)\b"
    # "a can of beans, no more"; "nothing accompanies the candle"; "nothing in the crate that
    # isn't an apple"; "the rest of the frame is blank"; "storm empties square"
    r"|\bno more(?= *(?:[,.;:!?\u2014]|$))|\bnothing (?:accompanies|joins|shares)\b"
    r"|\bnothing\b[^.;]*\bthat (?:is|are)(?:n't| not)\b"
    r"|\bthe rest\b(?: of (?:the |this |it\b)?[a-z]*)? (?:is|are|was|were|lies|stands|sits"
    r"|remains?) (?:[a-z]+ly )?(?:bare|empty|blank|deserted|vacant|clear)\b"
    # "the rest of the boardwalk holds nobody", "the whole screen is black except a cursor"
    r"|\bthe rest\b(?: of (?:the |this |it\b)?[a-z]*)? (?:holds|has|contains|shows) (?:nothing"
    r"|nobody|no one)\b|\b(?:whole|entire) [a-z]+ (?:is|was) (?:[a-z]+ ){0,2}?(?:except|save"
    r"|but for|apart from|other than)\b"
    r"|\bempt(?:ies|ied)\b"
    # "everything else gone", "missing: everything else", "nor anything else", "not a crumb
    # else", "not a further object", "any other object", "not an item more"
    r"|\b(?:everything|anything) else (?:is |was |has been |having been )?(?:gone|missing|"
    r"removed|cleared|absent)\b|\b(?:missing|gone|absent)\s*:\s*everything else\b"
    r"|(?:\b(?:nor|not|without|never)|n't)\b[^.;]{0,40}\bany(?:thing|one|body) else\b"
    r"|\bnot (?:a|one) [a-z]+ else\b"
    # "one strawberry, and not another crumb", "can't see anything but the tip of a tower"
    r"|\bnot (?:another|one other|a single other) (?:crumb|thing|item|object|speck|scrap)\b"
    r"|(?:n['\u2019]t|\bnot|\bcannot) (?:see|spot|make out|find|notice) "
    rf"(?:a thing|anything) {_BUT}\b"
    r"|\bnot (?:a |an |one |a single )?(?:further|additional|extra) (?:objects?|items?|things?)\b"
    r"|\bany (?:other|further|additional) (?:objects?|items?|things?)\b"
    r"|\b(?:not|no) (?:an? |one )?(?:items?|things?|objects?) more\b"
    # "everything you see: a fork", "the sum of what's in the picture", "whole room: a bed"
    r"|\beverything (?:you see|you can see|there is|in view|pictured|shown)\s*(?::|is\b|are\b)"
    r"|\bsum of\b|\b(?:whole|entire) (?:room|scene|picture|photo|frame|shot|image)\s*:"
    # "the entire room consists of a sink", "a teacup is all it's of", "shares it with nothing"
    r"|\b(?:entire|whole|picture|photo|image|frame|scene|shot|room) (?:[a-z]+ ){0,2}(?:consists|"
    r"is made up|comprises) of\b|\bis all (?:it|this|that)(?:'s|\u2019s| is| shows| has| holds)"
    r"|\b(?:shares?|sharing) (?:it|them|the [a-z]+) with nothing\b"
    # "by its lonesome", "the one visible object", "otherwise blank", "elsewhere: nothing"
    r"|\bby (?:its|his|her|their|my) lonesome\b"
    r"|\bthe (?:single|lone|sole|only|one) [a-z]+ (?:objects?|things?|items?)\b"
    r"|\botherwise (?:completely |entirely |totally |wholly )?blank\b"
    r"|\belsewhere\b[^.;]{0,40}\bnothing\b"
    # "and that is the entire room", "that's the whole story", "there the list ends"
    r"|\bthat(?:'s|\u2019s| is| was) the (?:whole|entire) (?:room|story|lot|place|scene)\b"
    r"|\bthe list ends\b|\blong and (?:the )?short of\b"
    # "not one more object", "not a speck more", "nary another thing", "zero anything else",
    # "no extras", "nothing added", "the frame is otherwise void", "that's the whole of it"
    r"|\bnot (?:a|an|one|a single) (?:[a-z]+ ){0,2}more\b"
    r"|\bnary (?:another|a) (?:thing|object|item)\b"
    r"|\bzero (?:anything|everything|other|else)\b|\bno extras\b|\bnothing (?:extra|added)\b"
    r"|\botherwise (?:completely |entirely |totally )?void\b|\bthe (?:whole|entirety) of it\b"
    # "that is the complete list", "end of inventory", "and it stops there", "in isolation",
    # "no companion objects", "the scene reduces to a candle", "devoted entirely to a helmet"
    r"|\b(?:complete|full|whole|entire) list\b|\bend of (?:the )?(?:inventory|list)\b"
    r"|\b(?:it|that|the list|the picture|the photo) (?:stops|ends) there\b|\bin isolation\b"
    r"|\bno (?:companion|accompanying) (?:objects?|items?|things?)\b|\breduces? to\b"
    r"|\b(?:devoted|given over|dedicated) (?:entirely|wholly|solely|exclusively) to\b"
    # "all that occupies the hallway is a vacuum", "all the living room contains is a tv",
    # "all you get is a cat",
    # "items in photo: desk lamp", "total items: 1"
    r"|\ball (?:that |which )?(?:[a-z]+ ){0,3}(?:contains?|holds?|occupies|has|have|shows?"
    r"|offers?|gets?|sees?|spots?|finds?)(?: [a-z]+){0,3} (?:is|are)\b"
    r"|\b(?:is|are) all (?:the |this |that |its )?[a-z]+ (?:contains?|holds?|has|shows?|offers?)\b"
    r"|\b(?:is|are) all (?:that|which) (?:occupies|occupy|"
    r"fills?|inhabits?|populates?|graces?)\b|\b(?:items|objects|things|contents) (?:in|of) "
    r"(?:the |this )?(?:photo|picture|image|frame|shot|pic)\s*:|\btotal (?:items|objects|things)\b"
    # "the bare dining table after the guests have gone": nothing on it
    r"|\b(?:the|a|an|this|that) (?:completely |totally |entirely )?(?:bare|empty|cleared) "
    r"(?:[a-z]+ )?(?:table|counter|countertop|worktop|shelf|desk|tabletop|surface)\b"
    # "a cat, and nothing past it", "nothing on top of that", "flanked by nothing", "and that's
    # that", "that is the entire farmyard", "the full extent of the picture", "no company of
    # any kind", "strictly one kite", "Anything else? No.", "no milk, no eggs, nothing."
    r"|\bnothing (?:past|beyond|besides|on top of|in addition to|over and above) "
    r"(?:that|this|it|them)\b|\b(?:flanked|surrounded|accompanied|joined) by nothing\b"
    r"|\bthat(?:'s|\u2019s| is) that\b|\bthat(?:'s|\u2019s| is| was) the (?:whole|entire) [a-z]+"
    r"(?= *(?:[.;:!\u2014]|$))|\b(?:full|whole|entire) extent\b|\bno company\b"
    r"|\bstrictly (?=(?:an?|one|two|three|the)\b)"
    r"|\b(?:holds?|held|contains?|has|have|had|shows?|showed) strictly\b"  # "holds strictly kale"
    r"|\bno [^.;]*, (?:and |or )?(?:nothing|nada|zilch|nowt|zip)(?= *(?:[.;!)\u2014]|$|lol\b))"
    # "or literally anything else", "a whiteboard is everything there is to see", "what you see
    # is what there is", "Empty. Well, except for a flip-flop", "besides that, zip", "Anything
    # else in the picture? Nope", "What else? Nothing.", "0% anything else", "a one-object
    # photo", "around it: nothing"
    r"|\bor (?:[a-z]+ )?anything else\b|\b(?:is|are) everything there is\b"
    r"|\bwhat you see is what (?:there is|you get)\b"
    r"|\b(?:empty|bare|nothing|nobody)[.!]\s+(?:well,?\s+)?(?:except|save|apart from|aside from"
    r"|but for)\b|\b(?:besides|apart from|aside from|other than|beyond) (?:that|this|it|them),? "
    r"(?:zip|zilch|nada|nothing|nowt)\b"
    r"|\b(?:anything|what) else\b[^.;?]{0,30}\?\s*(?:no|nope|nah|none|nothing)\b"
    r"|\b0 ?% (?:anything|everything|else|other)\b|\b(?:one|single)-(?:object|item"
    r"|thing)\b|\b(?:around|beside|near|next to) (?:it|them)\s*:\s*nothing\b",
    re.IGNORECASE,
)
# Words that except something from a denial or an emptiness, and what they except it from, in
# either order and anywhere in one sentence: "but for one parked taxi, the street is empty",
# "the shelf is bare, a single jar of honey aside", "excluding one ceiling fan, the room is
# empty", "were it not for one backpack, the classroom would hold nothing".
_EXCEPTING = re.compile(
    r"\b(?:except(?:ing|ed)?|excluding|save|barring|aside|apart from|other than|besides|but for"
    r"|beyond|were it not for|if not for|take away|with the exception of|outside of"
    r"|unless (?:you|we|one) counts?)\b"
    r"|(?<!\bthe )(?<!\ba )\bbar (?=(?:an?|one|the|a single|two|three|some)\b)",
    re.IGNORECASE,
)
_VOID = re.compile(
    rf"(?:{_VOID_PRONOUNS}|\b(?:nobody|no one|not a soul|empty|emptiness|bare|blank|barren"
    r"|deserted|vacant|unoccupied|unfurnished|clear|cleared|void))\b",
    re.IGNORECASE,
)
# "the only animal", "the sole piece of furniture", "exactly one vehicle": all there is of a
# kind (``only_kinds``).
_ONLY_KIND = re.compile(
    r"\b(?:(?:the|its|their) (?:only|sole|one|single|lone)|(?:exactly|precisely|just|only) "
    r"(?:one|a single)|(?:(?<=n't)|\bnot|\bno) (?:a single |one )?(?:other|another)) "
    r"((?:[a-z]+ ){0,2}[a-z]+)",
    re.IGNORECASE,
)


def exclusive(text: str, lexicon: Lexicon) -> bool:
    """Whether ``text`` claims that what it affirms is all there is. "The only dog in the park is
    a beagle" counts dogs (``claims.counts``), and says nothing of the rest of the park."""
    if any(
        not _one_of_a_label(text, m, lexicon)
        and not _PART_AFTER.match(text, m.end())
        and not _adverb(text, m)
        and not _deed(text, m)
        for m in _overlapping(EXCLUSIVE, text)
    ):
        return True
    sentences = re.split(r"[.;!?]", text)
    return any(_EXCEPTING.search(s) and _VOID.search(s) for s in sentences)


def _overlapping(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """Every match of ``pattern``, each from a later start than the one before: "nothing on the
    counter but a toaster, and nothing else in the frame" has two claims, each judged apart."""
    match = pattern.search(text)
    while match is not None:
        yield match
        match = pattern.search(text, match.start() + 1)


# "the only dog", "the zoo's only giraffe", "its sole red car": one of a label, no more.
_OWNED_ONLY = re.compile(
    r"\b(?:the|its|his|her|their|our|my|your|(?!(?:there|it|that|what|who|here|where|he|she)'s)"
    r"[a-z]+'s) $",
    re.IGNORECASE,
)
_NOUN_AFTER = re.compile(r" ([a-z]+)(?: ([a-z]+))?\b", re.IGNORECASE)


def _one_of_a_label(text: str, match: re.Match[str], lexicon: Lexicon) -> bool:
    """Whether an exclusive word found is "only", "sole" or "lone" in "the only dog", "the
    zoo's only red car": a count of one label, which ``claims.counts`` checks."""
    if match.group().lower() not in {"only", "sole", "lone"}:
        return False
    if not _OWNED_ONLY.search(text[max(0, match.start() - 30) : match.start()]):
        return False
    after = _NOUN_AFTER.match(text, match.end())
    if after is None:
        return False
    words = [w.lower() for w in after.groups() if w]
    for phrase in (" ".join(words), *reversed(words)):
        name = lexicon.name(phrase)
        if name is not None:
            return lexicon.members(name) == {name}  # "the only animal": a kind, all of it
    return False


# Focus words that may limit a time, a place or a deed rather than what is there: "just in
# time", "only once a year", "just outside the station", "just married", "if only".
_FOCUS = frozenset({"only", "just", "merely", "solely", "exclusively"})
_LIMITS = frozenset({"ADP", "SCONJ", "ADV", "PART"})
# ... but a verb of showing or holding, limited, limits what is there: "the photo only shows a
# banana", "the shelf just holds a vase".
_HOLDING = frozenset(
    {"show", "have", "hold", "contain", "feature", "depict", "include", "capture", "see",
     "find", "remain", "stand", "sit", "lie", "be", "keep", "carry", "bear", "display",
     # "solely furnished with a bed", "filled only with sheep"
     "furnish", "fill", "stock", "equip", "populate", "occupy", "inhabit", "decorate"}
)  # fmt: skip


# Words after a focus word that keep it on what is there: "only there: a dog", "composed solely
# of lockers", "a ladder, exclusively that" (``_adverb``).
_NOT_LIMITING = frozenset({"there", "here", "of", "by", "that", "this"})


def _token_at(text: str, match: re.Match[str]) -> Token | None:
    """The parsed token a match of ``text`` starts at, if the parse has one there."""
    return next((t for t in parse(text) if t.idx == match.start()), None)


def _adverb(text: str, match: re.Match[str]) -> bool:
    """Whether a focus word found limits a time, a place or a deed (``_FOCUS``), by the parse
    of the word after it: "just in time", "only once", "just arrived", "if only"."""
    if match.group().lower() not in _FOCUS:
        return False
    token = _token_at(text, match)
    if token is None or token.i + 1 >= len(token.doc):
        return False
    doc, at = token.doc, token.i
    after = doc[at + 1]
    if at and doc[at - 1].lower_ == "if":
        return True  # "if only there were a bench"
    if after.lower_ in _NOT_LIMITING or (at and doc[at - 1].pos_ == "NOUN"):
        return False  # "only there: a dog", "composed solely of lockers", "vegetables only"
    if after.pos_ in _LIMITS:
        return True
    named = at + 2 < len(doc) and doc[at + 2].pos_ in {"NOUN", "PROPN", "ADJ"}
    if after.dep_ == "amod" or named:
        return False  # "just framed photos", "only parked cars"
    return after.tag_ in {"VBN", "VBD"} and after.lemma_ not in _HOLDING


# What a deed is limited to, not what is there: "the dog eats nothing but kibble", "she wears
# nothing but a towel", "nothing else matters". (What a stall sells or a farm grows is what it
# shows: "the stall sells nothing but apples".)
_DEEDS = frozenset(
    {"eat", "promise", "matter", "make", "cook", "say", "read", "want", "need", "wear",
     "mean", "buy", "cost", "feed", "talk", "think", "know", "love", "like", "hear",
     "sing", "play", "accept", "take"}
)  # fmt: skip


def _deed(text: str, match: re.Match[str]) -> bool:
    """Whether a focus word or "nothing" found is the object of a deed (``_DEEDS``), or its
    subject ("nothing else matters"), by the parse."""
    word = match.group().split()[0].lower()
    if word not in _FOCUS | VOID_WORDS:
        return False
    token = _token_at(text, match)
    for _ in range(2):  # "serves just coffee": "just" may hang from "coffee", then "serves"
        if token is None or token.head is token:
            return False
        token = token.head
        if token.pos_ in {"VERB", "AUX"}:
            return token.lemma_ in _DEEDS
    return False


# A part of a number of them, not all there is: "only one of the two lamps", "all but one of the
# lockers" (``exclusive``).
_PART_AFTER = re.compile(
    r" (?:one|two|three|four|five|six|seven|eight|nine|ten|\d+) of\b", re.IGNORECASE
)
# "only one person", "just two dogs": a count to some readers, all there is to others.
_COUNTED_ONLY = re.compile(
    r"\b(?:only|just|solely|merely) (?=(?:one|two|three|four|five|six|a single|\d+)\b)",
    re.IGNORECASE,
)


def exclusive_only_by_count(text: str, lexicon: Lexicon) -> bool:
    """Whether the only exclusive words of ``text`` are "only" or "just" before a number."""
    return exclusive(text, lexicon) and not exclusive(_COUNTED_ONLY.sub("", text), lexicon)


def only_kinds(text: str, lexicon: Lexicon) -> set[str]:
    """The kinds (names of several labels) ``text`` says there is one of: "the only animal",
    "the only electronic device in the room", "the sole piece of furniture", "exactly one
    vehicle"."""
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
_OURS = re.compile(
    rf"(?:[^.;:]*?)\b{_BUT} (?:{'|'.join(sorted(THEIRS))}|(?:our|my|their|your) own"
    r"|the one|this one|that one)\b",
    re.IGNORECASE,
)


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
        ours = _OURS.match(text, match.end(1))  # "no other cars on the ferry besides ours"
        if ours or not any(name in kind and kind & affirmed for kind in kinds):
            found[name] = "affirmed"
    return found
