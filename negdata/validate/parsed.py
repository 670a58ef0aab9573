"""A second reader of negation, built on a dependency parse (``validate.parser``).

It answers what ``validate.negation.analyze`` answers (the polarity of every name a caption
mentions) from one tree instead of token rules:

- **Mentions** are nouns that head their phrase: "bus stop" names no bus (a ``compound``), "an
  orange bus" no orange (an ``amod``). The words before the head make multi-word terms ("teddy
  bear", "hot dog"). An owner is affirmed where nothing else names it and it is in the picture
  (``mentions.owner_in_picture``): "the man's tie", "the sink's edge", not "the child's bike".
- **Negation** of a mention comes from its own phrase (determiner "no", "not a", "zero"), from
  what governs it ("without", "free of", "lacks", "missing"; a verb with a ``neg`` arc or
  "never", over its objects and, when the verb says whether something is there, its subject:
  "the dog is not visible", not "the dog is not sleeping"), or from a predicate of absence ("the
  bus is nowhere to be seen", "the dog is absent / gone / missing").
- **Conjuncts** share their first conjunct's negation ("no cats, dogs, or birds"), unless a
  contrast starts them: "but", "only", "just", or, under a determiner "no", a determiner of
  their own ("no car, only a motorcycle").
- **Hedges** make a mention neither affirmed nor negated: a modal ("there could be a dog"),
  "maybe", "perhaps", a likeness ("shaped like a dog"), a wish or a search ("looking for a dog"),
  unless its own determiner denies it ("there might be a bear, but no person").

Everything mentioned and neither negated nor hedged is affirmed; a name is affirmed where any
mention affirms it, else negated where one negates it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from negdata.detect.lexicon import Lexicon
from negdata.detect.vocab import singular
from negdata.validate.negation import mention_terms
from negdata.validate.negation.mentions import TermIndex, build_index, owner_in_picture
from negdata.validate.negation.topics import CROWD_VERB
from negdata.validate.negation.words import (
    AIRCRAFT_WORDS,
    BENEFICIARIES,
    BIG_GAME,
    CAMERA_VERBS,
    FAMILY_ANIMALS,
    LEFT_PLACES,
    PICKUP_WORDS,
    SIGN_NOUNS,
    YOUNG_ANIMAL,
    YOUNG_ANIMALS,
    Polarity,
)
from negdata.validate.parser import parse

if TYPE_CHECKING:  # spaCy (and torch, which thinc imports) only load to parse
    from spacy.tokens import Token

NOUNS = frozenset({"NOUN", "PROPN"})
NO_WORDS = frozenset({"no", "zero", "neither", "nor", "nary"})
# Prepositions whose object is not there.
WITHOUT = frozenset({"without", "sans", "minus", "excluding", "lacking", "barring"})
# "free of X", "devoid of X": the head of "of" that makes its object absent.
FREE_OF = frozenset(
    {"free", "devoid", "empty", "absence", "lack", "absent", "bare", "clear", "void", "sign"}
)
LACK_VERBS = frozenset({"lack", "miss", "omit", "exclude", "remove", "forget"})
# "no trace of X", "not a sign of X": a denied trace denies its object.
TRACE_WORDS = frozenset({"trace", "sign", "hint", "evidence", "glimpse", "sight", "presence"})
# A subject that has left, or was taken away, is not there.
GONE_PASSIVE = frozenset({"remove", "steal", "take", "sell", "eat", "crop", "move", "cancel",
                          "clear", "pack", "put", "drive", "tow"})  # fmt: skip
GONE_ACTIVE = frozenset({"leave", "depart", "vanish", "disappear", "escape", "flee", "fly"})
# A role the subject has, said after a copula: "a lone horse is the sole resident".
ROLES_OF_WHAT_IS_THERE = frozenset({"resident", "residents", "tenant", "tenants", "guest", "guests",
                                    "visitor", "visitors"})  # fmt: skip
# What one does to a thing by going without it: "someone has left a skateboard here".
LEFT_BEHIND = frozenset({"leave", "abandon", "drop", "discard"})
# What one leaves by going: "the dog has left the room".
PLACES_LEFT = frozenset(LEFT_PLACES.split("|"))
ELSEWHERE = frozenset({"home", "indoors", "inside", "behind", "away", "out", "elsewhere"})
ABSENT_WORDS = frozenset({"absent", "missing", "gone", "nowhere", "away", "elsewhere", "lacking"})
# Predicates that say whether something is there, so that negating them negates their subject.
THERE_WORDS = frozenset(
    {"visible", "present", "there", "here", "around", "seen", "shown", "pictured", "depicted",
     "included", "featured", "found", "spotted", "available", "in", "inside", "on", "at",
     "within", "anywhere", "appear", "exist", "show", "feature", "include", "be", "remain"}
)  # fmt: skip
MODALS = frozenset({"could", "might", "may", "would", "should", "must", "can"})
HEDGE_ADVERBS = frozenset({"maybe", "perhaps", "possibly", "probably", "likely", "presumably"})
HEDGE_VERBS = frozenset(
    {"expect", "want", "wait", "hope", "search", "look", "seek", "wish", "imagine", "need",
     "resemble", "pretend", "ask", "wonder", "dream"}
)  # fmt: skip
LIKENESS = frozenset({"like", "as", "than", "unlike"})
SIGNS = frozenset(SIGN_NOUNS)
SAYING_VERBS = frozenset(
    {"say", "read", "welcome", "warn", "ban", "forbid", "prohibit", "allow", "announce",
     "advertise", "offer"}
)  # fmt: skip
# A checklist's answer that leaves the item open: "Keyboard: equivocal".
CHECKLIST_HEDGES = frozenset(
    {"equivocal", "indeterminate", "possible", "suspected", "unclear", "uncertain", "unknown",
     "maybe", "possibly", "probable", "likely", "questionable", "undetermined"}
)  # fmt: skip
CONTRAST = frozenset({"but", "only", "just", "except", "yet", "instead"})
NOBODY = frozenset({"nobody", "noone", "no-one"})
FOR_WHOM = frozenset(BENEFICIARIES.split("|"))
AIRCRAFT = frozenset(AIRCRAFT_WORDS.split("|"))
HERD_ANIMALS = frozenset(f"{BIG_GAME}|{FAMILY_ANIMALS}".split("|"))
PICKUPS = frozenset(PICKUP_WORDS.split("|"))
PLACE_PREPOSITIONS = frozenset({"at", "outside", "inside", "into", "in", "near", "by"})
PARENTS = frozenset({"mother", "mom", "mum", "mama", "parent", "parents"})
YOUNG = frozenset((*YOUNG_ANIMALS.split("|"), *YOUNG_ANIMAL.split("|")))


@dataclass(frozen=True)
class Mention:
    name: str
    head: Token
    owner: bool = False  # "the child's bike": the owner of a thing, perhaps not in the picture


def _mentions(doc: list[Token], index: TermIndex) -> Iterator[Mention]:
    longest = max(index.lengths, default=0)
    for token in doc:
        if token.pos_ not in NOUNS and token.tag_ not in {"NN", "NNS"}:
            continue
        head = token.head
        if (
            token.dep_ in {"compound", "amod"}
            and head.i > token.i
            and (
                head.pos_ in NOUNS
                or head.dep_ in {"pobj", "dobj"}  # "at the bus stop", stop a VERB
            )
            and not _names_nothing_here(head, doc)  # "a jet taxis": "jet" heads its phrase
        ):
            continue  # "bus stop", "dog bed", "fat orange cats"
        after = doc[token.i + 1 : token.i + 3]
        if len(after) == 2 and after[0].text == "-" and after[1].lower_.endswith("ed"):
            continue  # "a glass-topped desk": part of an adjective
        if _names_nothing_here(token, doc):
            continue
        ahead = tuple(singular(t.lower_) for t in doc[token.i : token.i + longest])
        if any(index.get(ahead[:n]) == "" for n in range(2, len(ahead) + 1)):
            continue  # "a couple of suitcases", "a ball of yarn": a phrase that names no object
        window = doc[max(0, token.i - 2 * longest + 2) : token.i + 1]
        words = [w.lower_ for w in window if w.text != "-"][-longest:]  # "a teddy-bear"
        for n in range(min(longest, len(words)), 0, -1):
            name = index.get(tuple(singular(w) for w in words[-n:]))
            if name is None:
                continue
            if name:  # "" is a phrase that names something else ("zebra crossing")
                yield Mention(name, token, token.dep_ == "poss")
            break


def _names_nothing_here(token: Token, doc: list[Token]) -> bool:
    """A noun-tagged word that names no one and nothing in the picture: a verb the small model
    reads as a noun ("a jet taxis to the gate", "a flock of sheep crowds the lane"), an
    animal's family ("an elephant family"), a hashtag ("#family"), the camera ("Taken with
    iPhone 12")."""
    word = token.lower_
    camera = token.head.head if token.dep_ == "pobj" else token.head
    subject = any(c.dep_.startswith("nsubj") for c in camera.children)
    if (
        camera.lemma_.lower() in CAMERA_VERBS
        # "Taken with iPhone 12", "Shot on my phone:", "skyline ..., shot on iPhone 11" (the
        # small model's subject), not "she photographs it with a phone", "he has shot it on"
        and (
            (camera.tag_ == "VBN" and not any(c.dep_ == "aux" for c in camera.children))
            or (camera.i == 0 and not subject)
            # "... No pedestrians. Shot on iPhone": what the camera verb's preposition takes
            or (token.dep_ == "pobj" and doc[camera.i - 1].is_punct and not subject)
        )
        and camera.i < token.i
    ):
        return True
    before = [t.lower_ for t in doc[max(0, token.i - 3) : token.i]]
    after = doc[token.i + 1 : token.i + 2]
    return (
        (word.startswith("taxi") and not AIRCRAFT.isdisjoint(singular(w) for w in before))
        or any(m.start("verb") == token.idx for m in CROWD_VERB.finditer(token.doc.text))
        or (word in {"matriarch", "patriarch"} and bool(before) and before[-1] in HERD_ANIMALS)
        or (word in PARENTS and _young_ones_kin(token))
        or (word in {"nurse", "nurses"} and before[-1:] != [] and before[-1] in YOUNG)  # suckles
        # "a pickup truck with no dog in the bed": the truck's bed
        or (word == "bed" and any(t.lower_ in PICKUPS for t in doc))
        # "the cake, which the baker finished at dawn": who made it then, not said to be here
        or _past_agent(token)
        # "a lone horse is the sole resident of the paddock": the horse, no one else
        or (
            word in ROLES_OF_WHAT_IS_THERE
            and token.dep_ == "attr"
            and any(c.lower_ in {"sole", "only", "lone", "single", "last"} for c in token.children)
        )
        # "someone has left a rucksack by the door": whoever left it is gone
        or (
            word in {"someone", "somebody"}
            and token.dep_.startswith("nsubj")
            and token.head.lemma_.lower() in LEFT_BEHIND
            and any(c.dep_ == "dobj" for c in token.head.children)
        )
        # "parked at a Route 66 diner", "Thanksgiving at Grandma's": a place
        or (word == "diner" and token.dep_ == "pobj" and token.head.lower_ in PLACE_PREPOSITIONS)
        or (before[-1:] == ["at"] and after[:1] != [] and after[0].lower_ in {"'s", "\u2019s"})
        or (
            word in {"family", "families"} and bool(before) and singular(before[-1]) in HERD_ANIMALS
        )
        or before[-1:] == ["#"]
    )


def _past_agent(token: Token) -> bool:
    """The subject of a relative clause in the past whose object is the thing named before it:
    "the cake, which the baker finished at dawn"."""
    verb = token.head
    return (
        token.dep_ == "nsubj"
        and verb.dep_ == "relcl"
        and verb.tag_ in {"VBD", "VBN"}
        and any(c.dep_ == "dobj" and c.lower_ in {"which", "that"} for c in verb.children)
    )


def _young_ones_kin(token: Token) -> bool:
    """ "Ducklings follow their mother", "a calf beside her mother", "a mother and her calf": a
    young animal's parent, not a person."""
    theirs = any(
        c.dep_ == "poss" and c.lower_ in {"its", "their", "her", "his"} for c in token.children
    )
    after = [t.lower_ for t in token.doc[token.i + 1 : token.i + 4]]
    young_after = after[:1] == ["and"] and after[1:2] in (["her"], ["its"], ["his"])
    young_after = young_after and after[2:] != [] and after[2] in YOUNG  # "a mother and her calf"
    return (theirs and any(t.lower_ in YOUNG for t in token.doc[: token.i])) or young_after


def _first_conjunct(token: Token) -> tuple[Token, bool]:
    """The conjunct a list starts with, and whether a contrast cuts ``token`` from it; a conjunct
    with a determiner of its own is cut from a first one whose "no" is a determiner."""
    cut = False
    while token.dep_ == "conj" and token.head.i < token.i:
        children = {c.lower_ for c in token.children if c.dep_ in {"cc", "advmod", "preconj"}}
        if children & CONTRAST or _cc_before(token) in CONTRAST:
            cut = True
        own = [c for c in token.children if c.dep_ == "det" and c.lower_ not in NO_WORDS]
        if own and _det_no(token.head) and "nor" not in children | {_cc_before(token)}:
            cut = True
        token = token.head
    return token, cut


def _cc_before(token: Token) -> str:
    """The coordinating word just before a conjunct ("no car, only a motorcycle")."""
    for left in reversed(list(token.doc[max(0, token.left_edge.i - 2) : token.left_edge.i + 1])):
        if left.dep_ in {"cc", "advmod"} or left.lower_ in CONTRAST:
            return left.lower_
    return ""


def _det_no(token: Token) -> bool:
    return any(
        c.lower_ in NO_WORDS
        or (c.lower_ == "not" and c.dep_ in {"neg", "advmod", "preconj"})
        or (c.dep_ == "nummod" and c.lower_ in {"0", "zero"})
        for c in token.children
    )


def _negated_verb(verb: Token) -> bool:
    return any(c.dep_ == "neg" or c.lower_ == "never" for c in verb.children)


def _says_there(verb: Token) -> bool:
    """Whether a predicate says that its subject is (or is not) in the picture; a passive
    participle by its form ("the fridge is not seen": "seen", whose lemma is "see")."""
    if verb.lemma_ in THERE_WORDS or (verb.tag_ == "VBN" and verb.lower_ in THERE_WORDS):
        return (
            verb.lemma_ != "be"
            or any(
                c.dep_ in {"acomp", "advmod", "prep", "attr", "expl"} and c.lemma_ in THERE_WORDS
                for c in verb.children
            )
            or not any(c.dep_ in {"acomp", "attr", "dobj"} for c in verb.children)
        )
    return any(c.dep_ == "acomp" and c.lemma_ in THERE_WORDS for c in verb.children)


def _governed_negation(token: Token) -> bool:
    """Negation from what governs a noun: its preposition, its verb, its predicate."""
    head, dep = token.head, token.dep_
    if dep == "pobj":
        if head.lower_ in WITHOUT:
            return True
        if head.lower_ == "of" and head.head.lemma_ in FREE_OF:
            return True
        if head.lower_ == "of" and head.head.lemma_ in TRACE_WORDS:
            return _negated(head.head)
        if head.lower_ == "of" and head.head.lower_ == "out":
            return True  # "ran out of donuts"
        if head.lower_ == "of" and head.head.lower_ in {"none", "nothing"}:
            return _says_there(head.head.head) and _negated_or_absent(head.head.head)
        return False
    if dep in {"dobj", "attr", "oprd"}:
        if head.lemma_ in LACK_VERBS and not _negated_verb(head):
            return True
        if head.lemma_ in {"wear", "have"} and any(
            c.dep_ == "nsubj" and c.lower_ in NOBODY | {"neither", "none"} for c in head.children
        ):
            return True  # "neither is wearing a tie", "nobody has a ball"
        return _negated_verb(head) or (dep == "attr" and head.lemma_ == "be" and _absent(head))
    if dep == "nsubjpass" and head.lemma_ in GONE_PASSIVE:
        return not _negated_verb(head)
    if dep == "nsubj" and _gone(head):
        return not _negated_verb(head)
    if dep in {"nsubj", "nsubjpass", "expl"}:
        if _absent(head):
            return not _negated_verb(head)
        return _negated_verb(head) and _says_there(head)
    if dep == "appos":  # "no trace of the cake, just a fork": a contrast, not the same thing
        return not any(c.lower_ in CONTRAST for c in token.children) and _governed_negation(head)
    return False


def _gone(verb: Token) -> bool:
    """ "The birds have left", "the dog stayed home"."""
    if verb.lemma_ in GONE_ACTIVE:
        # "the man has left his pickup running": what he left is there, and so may he be
        left = [c for c in verb.children if c.dep_ == "dobj"]
        return all(c.lemma_.lower() in PLACES_LEFT for c in left)
    return verb.lemma_ == "stay" and any(c.lower_ in ELSEWHERE for c in verb.children)


def _absent(predicate: Token) -> bool:
    """ "The dog is absent / gone / missing": the tagger reads "missing" as the verb "miss",
    which is absence only with nothing missed ("the dog is missing the ball" is not)."""
    if predicate.lemma_ in ABSENT_WORDS:
        return True
    if predicate.lower_ in ABSENT_WORDS and not any(c.dep_ == "dobj" for c in predicate.children):
        return True
    return any(
        c.dep_ in {"acomp", "advmod", "attr"} and c.lower_ in ABSENT_WORDS
        for c in predicate.children
    )


def _negated_or_absent(verb: Token) -> bool:
    return _negated_verb(verb) or _absent(verb)


def _negated(token: Token) -> bool:
    first, cut = _first_conjunct(token)
    if _det_no(token) or _governed_negation(token):
        return True
    if cut or first is token:
        return False
    return _det_no(first) or _governed_negation(first)


def _hedged(token: Token) -> bool:
    if token.head.lower_ == "for" and token.lower_ in FOR_WHOM:
        return token.head.head.lemma_ != "lack"  # "no bench for visitors", not "lacks for"
    after = token.doc[token.i + 1 : token.i + 3]
    if len(after) == 2 and after[0].text == ":" and after[1].lower_ in CHECKLIST_HEDGES:
        return True  # "Keyboard: equivocal"
    for ancestor in token.ancestors:
        if ancestor.lower_ in LIKENESS and ancestor.dep_ == "prep":
            return True
        if ancestor.pos_ in {"VERB", "AUX"}:
            if ancestor.lemma_ in SAYING_VERBS and _said_by_sign(ancestor):
                return True
            if any(
                a.dep_ in {"nsubj", "nsubjpass"}
                for a in (token, *token.ancestors)
                if a.head == ancestor
            ):
                return False  # "men waiting for a bus": the men are there
            words = {c.lower_ for c in ancestor.children if c.dep_ in {"aux", "advmod"}}
            return bool(words & (MODALS | HEDGE_ADVERBS)) or ancestor.lemma_ in HEDGE_VERBS
    return False


def _said_by_sign(verb: Token) -> bool:
    """ "a sign welcoming pets", "the poster says no dogs": ``verb``'s sayer is a sign."""
    sayers = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if verb.dep_ in {"acl", "relcl"}:
        sayers.append(verb.head)
    return any(singular(t.lower_) in SIGNS for t in sayers)


def _nobody(token: Token) -> bool:
    """ "nobody", "no one", "not a soul"."""
    if token.lower_ in NOBODY:
        return True
    return token.lower_ in {"one", "soul"} and _det_no(token)


def analyze(text: str, lexicon: Lexicon) -> dict[str, Polarity]:
    """Polarity of every label or hypernym of ``lexicon`` that ``text`` mentions."""
    doc = parse(text)
    index = build_index(mention_terms(text, lexicon))
    found: dict[str, Polarity] = {}
    owners: set[str] = set()
    for mention in _mentions(list(doc), index):
        if _hedged(mention.head) and not _det_no(mention.head):  # "but no person" is said
            continue
        if mention.name == "person" and any(
            c.dep_ == "poss" and c.lower_ == "its" for c in mention.head.children
        ):
            continue  # "a foal and its mother": kin of an animal
        negated = _negated(mention.head)
        if mention.owner and not negated:
            words = (t.lower_ for t in mention.head.doc)
            if owner_in_picture(mention.name, words, [mention.head.head.lower_]):
                owners.add(mention.name)
            continue
        polarity: Polarity = "negated" if negated else "affirmed"
        if found.get(mention.name) != "affirmed":
            found[mention.name] = polarity
    if "person" in lexicon.vocabulary and any(_nobody(t) for t in doc):
        found.setdefault("person", "negated")
    for name in owners - set(found):
        found[name] = "affirmed"
    return found
