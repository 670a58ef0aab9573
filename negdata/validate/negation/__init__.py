"""Negation cues and their scope: does a caption affirm, negate, or not mention an object?

The checker is a small rule system over tokens, no parser:

1. Normalise: contractions ("isn't" -> "is not", "it's" -> "it is", also typed without the
   apostrophe: "isnt", "doesnt", "aint", "theres"), dotted initialisms ("T.V." -> "TV"), a
   possessive "'s" -> a mark ("the child's bike"), "not one of" and "neither dog has" -> "none
   of", a rule ("no dogs allowed", "phones are not permitted") -> a hedge, "w/o" -> "without",
   "nobody" / "no one" / "not a soul" / "deserted" / "uninhabited" / "where is everyone" -> "no
   person" (and "nobody brought forks" -> "no person brought no forks", "no one from the family"
   -> "no family"), an empty or deserted road or parking lot -> "with no car", "X-free" /
   "X-less" / "Xless" -> "no X", "fails to show" -> "does not show", "failed to arrive" -> "did
   not arrive", "forgot to bring" -> "did not have", "ran out of" -> "no", "not any of" / "no
   one of" / "nothing of" -> "none of", "of X there is no sign" -> "no X", "X's gone / not" ->
   "X is ...", file-name slugs ("beach-no-people.jpg") -> words, "no longer has / is visible /
   hangs / sleeps" and "used to have" -> a negation, "not V-ed by any X" -> "not have any X",
   "nothing (here) suggests a X" -> "no X", counts of zero ("Cars: 0", "0 trucks", "balls x0")
   -> "zero", report phrasing ("negative for", "no / without evidence of", "resolution of",
   "Toilet: absent", "Not found: X") -> a cue; split hyphenated words ("double-decker") but keep
   counts whole ("a two-person tent"), drop descriptors that name no one ("men's necktie", "its
   mother"), and drop the false friends that contain a cue word but negate no object ("not
   only", "no doubt", "nothing but", "no longer", "not far from", "not enough", "no bigger
   than", ...), and turn denials that leave the thing there into what they say of it ("not a
   single chair that isn't taken", "not even one light works", "not the cat but the dog is
   asleep", "never without his dog", "it isn't true that no buses run", "I can't say there's no
   cake", "the dog doesn't have the frisbee"). Hedges ("there could be", "maybe", "rule out", "not
   excluded", "expect", "want", "room for", "unclear whether", "waiting for", a likeness:
   "shaped like a dog", "dressed as a bear", the standard of a comparison: "than a teacup")
   become a ``HEDGE`` mark.
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
   lived a girl"), a list item with a verb of its own ("no toothbrushes, sink wiped clean"), or
   the end of the clause.
5. A post-nominal cue negates the noun phrase before it: "X is missing / absent / gone / nowhere
   to be seen / not in the picture / not visible / can not be seen / not depicted / removed /
   excluded / ruled out", departures and consumption ("X has left / has flown away / left an
   hour ago / has not arrived / was eaten / was sold / stolen / replaced / put or packed away"),
   being elsewhere ("X is away / elsewhere / out / not home / in the other room / beyond the
   frame", "X stayed home", "X is no longer on the wall"), "X does not" (ellipsis), "X: none", "X,
   no" ("Cars, yes; buses, no"), "X: none visible / nil / negative / undetected", "X is cropped
   out", also past an aside ("The couch, usually present, is absent") and over a list ("a table,
   a bed, and a fridge are absent", but not past a verb of the first: "the bowl is empty and the
   dog is gone"); a part is not its whole ("half of the pizza was eaten"); "absent / missing
   from the scene (:) X" and "nothing resembling a X" are pre-nominal.
6. "none of the X" presupposes X ("none of the chairs are occupied": chairs exist) unless X is
   "the usual X" or "none" is an object ("holds none of the books"); "none of the X is a Y",
   "none of the X has / holds / with a Y" negate Y; "none of the X are visible / have arrived /
   are in the paddock / made it into the photo" negates X, and "none of them are in the room"
   answers the clause before (8). Inside a cue's scope an unknown verb with an object ends it
   ("without a helmet rides a bicycle").
7. A mention in the scope of a hedge, or just before one, is neither affirmed nor negated.
   ``analyze`` adds what the caption's topic decides: "bat" / "glove" / "mitt" are baseball's in
   a dugout, a "batter" or "pitcher" by a mound is a player, "board" a surfer's or a skater's;
   "he" / "she" with no animal about is a person, "us" always is; a mouse that scurries in a
   barn is no computer mouse.
8. A clause that names no object and opens with a denial ("No.", "Nope", "Not here", "I don't",
   "there isn't one", "there's none", "it was removed", "it's not in this photo", "Absent.",
   "Gone.", "Sold out") negates the objects of the clause before that were only supposed about
   ("No phones allowed, and none are visible"), else the one "it" / "they" stands for (the last
   named), else the first named: the object asked about ("Any phone? No.", "You might expect a
   dog, but there isn't one"); "there's one" / "yes" affirms a hedged one, and "a black one" /
   "the dirty ones" affirms the last one just denied ("No white cars, only a black one").

Everything mentioned and neither negated nor hedged is affirmed.

Modules: ``words`` (cue, false-friend and function-word lists), ``cues`` (post-nominal and report
cue patterns), ``normalize`` (step 1 and 2), ``mentions`` (3), ``scope`` (4), ``post`` (5),
``none_of`` (6), ``hedges`` (7), ``answers`` (8), ``topics`` (the caption's topic in 7),
``forms`` (scene lists, yes/no questions and translated word order, before step 1), ``clinical``
(radiology report phrasing: "cannot exclude", "resolved", "heart size is normal", in step 1),
``denials`` (a denial of a denial step 1 leaves: the gate refuses it as ``double_negation``),
``anaphora`` (a pronoun or a bare count for what a denial names: ``unresolved_anaphor``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from negdata.detect.lexicon import Lexicon
from negdata.validate.negation.answers import YES_ANSWER, answer_end, denied_starts, other_one
from negdata.validate.negation.clinical import rewrite_report
from negdata.validate.negation.hedges import hedged_starts
from negdata.validate.negation.mentions import Mention, TermIndex, build_index, find_mentions
from negdata.validate.negation.none_of import decide_none_of, never_subjects
from negdata.validate.negation.normalize import (
    EMPTY_FRIDGE,
    EMPTY_PLACES,
    EMPTY_ROADS,
    EMPTY_TRACKS,
    FREE_SEATS,
    FRIDGE_CONTENTS,
    ROAD_VEHICLES,
    SEAT_TAKEN,
    TAKEN_SEAT,
    hashtags,
    initialisms,
    prepare,
    tokenize,
)
from negdata.validate.negation.post import post_negated
from negdata.validate.negation.scope import negated_spans
from negdata.validate.negation.topics import (
    ANIMAL_MOUSE,
    COMPUTING,
    CROWD_VERB,
    FIRST_PERSON,
    OWNER,
    PET_OWNER,
    PRONOUN,
    TRUCK_CAB,
    WILD_CALF,
    crowd_filled,
    topic_terms,
)
from negdata.validate.negation.words import ANSWER_FILLERS, HEDGE, PERSON_NEGATIONS, Polarity

__all__ = [
    "Mention",
    "Polarity",
    "analyze",
    "analyze_index",
    "find_mentions",
    "mention_terms",
    "polarity",
    "tokenize",
]

_PERSON_NEGATION = re.compile("|".join(rf"\b{p}\b" for p in PERSON_NEGATIONS), re.IGNORECASE)


Clause = tuple[list[str], list[Mention], dict[int, Polarity]]  # tokens, mentions, polarities


def analyze_index(text: str, index: TermIndex) -> dict[str, Polarity]:
    """The polarity of every name of ``index`` that the caption mentions."""
    found: dict[str, Polarity] = {}
    owners: set[str] = set()  # names affirmed only as owners in the picture
    for _, mentions, polarities in _clauses(text, index):
        for m in mentions:
            polarity = polarities[m.start]
            if polarity == "affirmed" and m.possessor:
                if m.owner_there:  # "the man's tie"; "grandma's cake" says nothing of grandma
                    owners.add(m.name)
            elif polarity != "unmentioned" and found.get(m.name) != "affirmed":
                found[m.name] = polarity
    # "The goalkeeper's gloves are on the grass; the goalkeeper is not."
    for name in owners - set(found):
        found[name] = "affirmed"
    return found


# Words that make a denial about another one of a kind: "no other dog", "no more cake".
_ANOTHER = frozenset({"other", "another", "more", "else", "extra", "additional", "second"})


def contradictions(text: str, lexicon: Lexicon) -> set[str]:
    """The names ``text`` both affirms and denies, each in a mention of its own: "There is no
    knife in the image, except for the knife in the image", "Two fire hydrants are shown, but
    the photo contains no fire hydrants". A denial of another one ("a dog, and no other dog")
    contradicts nothing."""
    said: dict[str, set[Polarity]] = {}
    for tokens, mentions, polarities in _clauses(*_read(text, lexicon)):
        for m in mentions:
            near = set(tokens[max(0, m.start - 3) : m.end + 2])
            if polarities[m.start] != "unmentioned" and not m.possessor and not near & _ANOTHER:
                said.setdefault(m.name, set()).add(polarities[m.start])
    return {name for name, polarity in said.items() if len(polarity) == 2}


def _emphatic(tokens: list[str], following: list[list[str]], index: TermIndex) -> bool:
    """Whether ``tokens`` is a bare "no," before a clause that denies something it names, or
    opens one: "broccoli, carrots, and... no, no oranges"."""
    k = 0
    while k < len(tokens) and tokens[k] in ANSWER_FILLERS:
        k += 1  # "though, no, not a single person"
    if tokens[k : k + 2] in (["no", ","], ["nope", ","], ["nah", ","]):
        rest = tokens[k + 2 :]  # a denial that opens right after: "no, no oranges"
        if rest[:1] in (["no"], ["not"], ["never"]) and find_mentions(rest, index):
            return True
    if not set(tokens) - ANSWER_FILLERS <= {"no", "nope", "nah", ","} or "," not in tokens:
        return False
    return any(
        {"not", "no", "never"} & set(clause) and find_mentions(clause, index)
        for clause in following
    )


def _answers_nothing(clauses: list[list[str]], i: int, index: TermIndex) -> bool:
    """Whether the clause at ``i``, though it opens like an answer, answers nothing: an emphatic
    "no," ("two players rally | and no, there isn't a bench") or a bare "no" inside a list that
    goes on ("donuts, a sandwich, and | no | not a slice of pizza")."""
    tokens = clauses[i]
    if _emphatic(tokens, clauses[i + 1 : i + 2], index):
        return True
    return (
        bool(i) and clauses[i - 1][-1:] in (["and"], ["or"]) and set(tokens) <= {"no", "nope", ","}
    )


def _deny_asked_before(clauses: list[Clause], clause_tokens: list[list[str]], i: int) -> None:
    """What a "neither" answers besides the question just before it: the one before that
    ("Knife? Fork? Neither."), denied too."""
    if clause_tokens[i][:1] != ["neither"] or i < 2 or len(clauses) < 2:
        return
    (first, mentions, polarities), (second, _, _) = clauses[-2], clauses[-1]
    asked = first is clause_tokens[i - 2] and second is clause_tokens[i - 1]
    if asked and first[:1] == [HEDGE] and second[:1] == [HEDGE]:
        for m in mentions:
            if polarities[m.start] == "unmentioned":
                polarities[m.start] = "negated"


def _clauses(text: str, index: TermIndex) -> list[Clause]:
    """Each clause's tokens and mentions of ``index``, with the polarity of each mention (by
    its start)."""
    clauses: list[Clause] = []
    unknown_before = False  # the clause just before supposes something unnamed
    where_before = False  # "(chairs against the wall) where (it used to stand)": no answer
    clause_tokens = tokenize(text)
    for i, tokens in enumerate(clause_tokens):
        mentions = find_mentions(tokens, index)
        scoped = negated_spans(tokens, mentions)
        post = post_negated(tokens, mentions)
        none_neg, none_aff = decide_none_of(tokens, mentions)
        never = never_subjects(tokens, mentions)
        hedged = hedged_starts(tokens, mentions)
        answer = None if _answers_nothing(clause_tokens, i, index) else answer_end(tokens)
        # "The recipe calls for walnuts, but there are none": the denial answers what is
        # supposed there, no object named earlier.
        if (
            answer is not None
            and clauses
            and not unknown_before
            and not where_before
            and all(m.start >= answer for m in mentions)
        ):
            asked, earlier, polarities = clauses[-1]
            before = [*asked, *(clause_tokens[i - 1] if i else [])]
            only = {"only", "just"} & set(before)  # "bananas only? No - apples too": more
            for start in [] if only else denied_starts(tokens, asked, earlier, polarities):
                polarities[start] = "negated"  # the object asked or supposed about
            _deny_asked_before(clauses, clause_tokens, i)
        elif clauses and YES_ANSWER.match(" ".join(tokens)):
            _, earlier, polarities = clauses[-1]  # "Wasn't expecting a toaster, but there's one"
            if polarities[earlier[0].start] == "unmentioned":
                polarities[earlier[0].start] = "affirmed"
        elif clauses and other_one(tokens, {m.start for m in mentions}):
            _, earlier, polarities = clauses[-1]  # "No white cars, only a black one"
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
            clauses.append((tokens, mentions, polarities))
        if not set(tokens) <= ANSWER_FILLERS:  # "but" alone changes nothing
            unknown_before = HEDGE in tokens and not mentions
        where_before = tokens[-1:] == ["where"]
    return clauses


_LESS = re.compile(r"\b([a-z]{3,})-?less\b", re.IGNORECASE)


def analyze(text: str, lexicon: Lexicon) -> dict[str, Polarity]:
    """Polarity of every label or hypernym of ``lexicon`` that ``text`` mentions."""
    return analyze_index(*_read(text, lexicon))


def _read(text: str, lexicon: Lexicon) -> tuple[str, TermIndex]:
    """``text`` as the rules read it ("heart size is normal": no cardiomegaly) and the index of
    the names it mentions."""
    text = _plain(text)
    return text, build_index(_terms(text, lexicon))


def mention_terms(text: str, lexicon: Lexicon) -> dict[str, tuple[str, ...]]:
    """The words ``text`` names each object of ``lexicon`` it mentions by, as ``analyze`` reads
    them: the lexicon's terms and what the caption's topic adds ("board" by a surfer, "he",
    "us")."""
    return _terms(_plain(text), lexicon)


def _seats_said(text: str) -> bool:
    """Whether ``text`` says seats are taken, or that none is, once the rules unwind it:
    "there isn't a spot on the bench that isn't taken", "four chairs, none of them taken"."""
    if SEAT_TAKEN.search(text):
        return True
    prepared = prepare(text)
    return TAKEN_SEAT in prepared or FREE_SEATS in prepared


def _plain(text: str) -> str:
    """``text`` in the words the rules read: tags and initialisms spelled out, report phrasing
    said plainly ("heart size is normal": no cardiomegaly)."""
    return rewrite_report(initialisms(hashtags(text)))


def _terms(text: str, lexicon: Lexicon) -> dict[str, tuple[str, ...]]:
    names = set(lexicon.mentioned(_LESS.sub(r"\1 less", text)))  # "a carless street"
    terms = {name: lexicon.terms(name) for name in names}
    crowd_verb = CROWD_VERB.search(text) is not None  # "ten sheep crowd the lane": a verb
    if crowd_verb and "person" in terms and "person" not in lexicon.mentioned(crowd_filled(text)):
        del terms["person"]
    for label, words in topic_terms(text, lexicon).items():
        terms[label] = (*terms.get(label, lexicon.terms(label)), *words)
    lower = text.lower()
    if "mouse" in terms and ANIMAL_MOUSE.search(lower) and not COMPUTING.search(lower):
        del terms["mouse"]
    if "car" in terms and TRUCK_CAB.search(lower):
        terms["car"] = tuple(t for t in terms["car"] if t not in {"cab", "cabs"})
    if "cow" in terms and WILD_CALF.search(lower):
        terms["cow"] = tuple(t for t in terms["cow"] if t not in {"calf", "calves"})
    emptied: tuple[str, ...] = ROAD_VEHICLES if EMPTY_ROADS.search(text) else ()  # "empty road"
    emptied += ("train",) if EMPTY_TRACKS.search(text) else ()  # "the tracks are clear"
    emptied += FRIDGE_CONTENTS if EMPTY_FRIDGE.search(text) else ()  # "an empty fridge"
    for label in emptied:
        if label not in terms and lexicon.members(label):
            terms[label] = lexicon.terms(label)
    if "person" in lexicon.vocabulary:
        # "nobody", "a deserted beach", "the seat is taken": a person the rewriting names
        said = _PERSON_NEGATION.search(text) or any(e.search(text) for e in EMPTY_PLACES)
        if "person" not in terms and (said or _seats_said(text)):
            terms["person"] = lexicon.terms("person")
        animals = lexicon.members("animal")
        no_animal = not any(lexicon.members(n) & animals for n in terms)
        if OWNER.search(text) and no_animal and "person" not in terms and not PRONOUN.search(text):
            # "a laptop open on her lap": whose lap, where no one else is named, is a person's.
            terms["person"] = (*lexicon.terms("person"), "his", "her", "him")
        if PRONOUN.search(text) and (no_animal or PET_OWNER.search(text)):
            # "She waits at a bus stop": a he or she with no animal about is a person.
            terms["person"] = (*terms.get("person", lexicon.terms("person")), "he", "she")
        if FIRST_PERSON.search(text):
            terms["person"] = (*terms.get("person", lexicon.terms("person")), "us")
    if crowd_verb and "person" in terms:  # "... crowd the bistro table, yet nobody is there"
        terms["person"] = tuple(t for t in terms["person"] if t != "crowd")
    return terms


def polarity(text: str, terms: Iterable[str]) -> Polarity:
    """``affirmed`` if any mention affirms the object named by ``terms``, else ``negated`` if one
    negates it, else ``unmentioned``."""
    return analyze_index(text, build_index({"object": terms})).get("object", "unmentioned")
