"""Negation cues and their scope: does a caption affirm, negate, or not mention an object?

The checker is a small rule system over tokens, no parser:

1. Normalise: contractions ("isn't" -> "is not"), "w/o" -> "without", "nobody" / "no one" /
   "not a soul" -> "no person" (and "nobody brought forks" -> "no person brought no forks"),
   "X-free" -> "no X", "fails to show" -> "does not show", "no longer has / is visible / hangs"
   -> a negation, "nothing (here) suggests a X" -> "no X", report phrasing ("negative for",
   "no / without evidence of", "Toilet: absent", "Cars? None.") -> a cue; split hyphenated
   words ("double-decker"), and drop the false friends that contain a cue word but negate no
   object ("not only", "no doubt", "nothing but", "no longer", "not far from", ...).
2. Split into clauses at sentence punctuation and at contrast and relative words ("but",
   "while", "only", "except", "which", ...).
3. Find object mentions, longest term first, so "hot dog" is not a dog and "teddy bear" not a
   bear; a term used as a modifier ("bus stop", "train station", "an orange bus", "a baby
   elephant") or as a verb ("to tie his shoes") is no mention, and neither is a phrase of
   ``NOT_OBJECTS`` ("zebra crossing", "field mouse", "coffee table").
4. A pre-nominal cue ("no", "without", "lacking", "free of", "instead of", "neither"/"nor",
   "sans", "minus", "zero", "excluding", "not a", "does not have", "never had", ...) negates the
   noun phrases that follow it, through coordination ("no cats, dogs, or birds", "minus the
   toast and the cup"), until a preposition, "of" (except after a partitive: "not a slice of
   pizza"), a verb, a new determiner after "and" or a comma, a list item that names no object
   ("no umbrellas, turquoise water, boats"), or the end of the clause.
5. A post-nominal cue negates the noun phrase before it: "X is missing / absent / gone /
   nowhere to be seen / not in the picture / not visible / can not be seen / not depicted /
   removed / excluded", "X does not" (ellipsis), "X: none".
6. "none of the X" presupposes X ("none of the chairs are occupied": chairs exist) unless X is
   "the usual X" or "none" is an object ("holds none of the books"); "none of the X is a Y",
   "none of the X has / holds a Y" negate Y.

Everything mentioned and not negated is affirmed.
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
    "never seen without", "not least", "no problem", "no way", "no filter", "nobody perfect",
    "nowhere near", "nobody is perfect", "no one is perfect",
)  # fmt: skip
PERSON_NEGATIONS = ("not a single soul", "not a soul", "nobody", "no one", "no-one", "noone")
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
     "my", "your", "some", "one", "two", "three", "several", "many", "few", "every", "each",
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
     "excluding", "excludes", "exclude"}
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
    r"out of (?:the )?(?:frame|picture|shot|view|sight)|off (?:camera|screen)|"
    r"(?:(?:none(?: at all| whatsoever)?|no|removed|excluded)(?= ,|$))|"
    r"(?:(?:does |do |did )?not|never) (?:appears?|show up)\b|"
    r"(?:(?:is|are|was|were|been|being) (?:removed|excluded|taken (?:away|down|out)))|"
    r"(?:does |do |did )?not$|"
    r"not (?:be )?(?:present|visible|pictured|here|there|around|anywhere|seen|identified|"
    r"detected|noted|observed|found|shown|spotted|evident|visualized|visualised|appreciated|"
    r"demonstrated|depicted|included|featured|captured|in (?:view|sight)|"
    r"(?:in|within) (?:the |this )?(?:" + "|".join(FRAME_WORDS) + r")))\b"
)
CLINICAL_PRE = re.compile(
    r"\b(?:negative for|(?:the |a )?(?:absence|removal|lack) of|no presence of|"
    r"(?:no|without|lacking|lacks?) (?:any )?"
    r"(?:visible |obvious |clear )?(?:evidence|signs?|traces?|indications?|hints?) (?:of|that))"
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
     "cage", "bowl", "bowls", "dish", "bed", "beds", "toy", "toys", "house", "feeder"}
)  # fmt: skip
PARTITIVES = frozenset(
    {"slice", "slices", "piece", "pieces", "pair", "pairs", "bunch", "bunches", "box", "boxes",
     "plate", "plates", "stack", "stacks", "pile", "piles", "set", "sets", "loaf", "carton",
     "crate", "crates", "herd", "herds", "flock", "flocks", "pack", "packs", "group", "groups",
     "couple", "lot", "lots", "row", "rows", "basket", "baskets", "tray", "jar", "kind", "kinds",
     "sort", "sorts", "type", "types", "number", "crowd", "line", "team", "family", "swarm"}
)  # fmt: skip
SOFT_PREPOSITIONS = frozenset({"here", "today", "tonight", "yet", "again", "anywhere"})
ADVERBS = frozenset({"even", "really", "exactly", "ever", "yet", "currently"})
# Phrases that contain a term but name something else: no mention of anything.
NOT_OBJECTS = (
    "zebra crossing", "field mouse", "house mouse", "mouse pad", "mouse mat", "lunch bag",
    "shopping bag", "plastic bag", "paper bag", "tea bag", "sleeping bag", "bean bag",
    "garbage bag", "trash bag", "punching bag", "coffee table", "side table", "bedside table",
    "end table", "pool table", "changing table", "table tennis", "apple pie", "chocolate orange",
    "bear hug", "cat walk", "hot tub",
)  # fmt: skip
PREFIX_MODIFIERS = frozenset({"baby", "toy"})
VERB_OBJECTS = frozenset(
    {"his", "her", "their", "its", "my", "your", "our", "the", "a", "an", "up"}
)
AMBIGUOUS_ADJECTIVES = frozenset({"orange", "remote"})
INTENSIFIERS = frozenset({"so", "too", "very", "quite", "rather", "more", "most", "less"})
_SHOW_VERBS = (
    "show|shows|include|includes|depict|depicts|feature|features|capture|captures|contain|contains"
)
_POSSESS_VERBS = (
    "brought|brings|bring|carries|carry|carrying|has|have|holds|holding|wears|wearing|uses|using|"
    "owns|took|takes"
)
_TOKEN = re.compile(r"[a-z]+(?:-[a-z]+)*|[,|#]")


def _prepare(text: str) -> str:
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"\bcan't\b|\bcannot\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"(\w)n't\b", r"\1 not", text)
    text = re.sub(r"'s\b|'re\b|'ll\b|'ve\b|'d\b|'m\b", "", text)
    text = re.sub(r"\bw/o\b", "without", text)
    text = re.sub(r"\bnary an?\b", "no", text)
    text = re.sub(r"\bw/", "with ", text)
    text = re.sub(rf"\bfails? to ({_SHOW_VERBS})\b", r"does not \1", text)
    text = re.sub(r"\b(not|never) (?:appears?|seems?) to\b", r"\1", text)
    # "no longer" negates what is no longer had or seen, not what no longer works.
    text = re.sub(
        rf"\bno longer ((?:has|have|had|holds?|contains?|{_SHOW_VERBS})\b)", r"not \1", text
    )
    text = re.sub(r"\bno longer (?=visible|there|present|here|in (?:view|sight)\b)", "not ", text)
    text = re.sub(r"\bno longer (?:hangs?|sits?|stands?|lies|lie|rests?|stays?)\b", "is gone", text)
    for phrase in FALSE_FRIENDS:
        text = re.sub(rf"\b{phrase}\b", f" {STOP} ", text)
    for phrase in PERSON_NEGATIONS:
        text = re.sub(rf"\b{phrase}\b", "no person", text)
    # "nobody brought forks": what nobody has is not there either.
    text = re.sub(
        rf"\bno person ((?:is |was )?(?:{_POSSESS_VERBS}))"
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
    # "double-decker", "flat-screen" (but "absent-minded" and "no-nonsense" stay one word)
    text = re.sub(
        r"\b(?!(?:no|not|non|never|absent|missing|zero)-)([a-z]+)-(?=[a-z])", r"\1 ", text
    )
    # Inventory phrasing: "Cars? None.", "Toilet: absent", "Kite: not visualized".
    text = re.sub(r"\s*[:?]\s*(?=(?:none|no|absent|missing|not|zero)\b)", " ", text)
    for phrase in (
        "free of", "devoid of", "empty of", "emptied of", "clear of", "cleared of", "instead of",
        "rather than",
    ):  # fmt: skip
        text = re.sub(rf"\b{phrase}\b", phrase.replace(" ", "-"), text)
    text = re.sub(r"\bnot (pictured|present)(?: here)?\s*:", r"not-\1", text)
    text = re.sub(r"\bnowhere (?:is|are|was|were) there\b", "no", text)
    frame = "|".join(FRAME_WORDS)
    text = re.sub(
        rf"\bnowhere (?:in|within) (?:the |this )?(?:{frame}) (?:is|are) there\b", "no", text
    )
    text = re.sub(
        r"\b(nor|neither|not|never) (?:is|are|was|were|has|have|had|does|do) there\b", r"\1", text
    )
    text = re.sub(r"\b(absent|missing)\s*:", r"\1", text)
    # Report phrasing: "negative for X", "no evidence / sign / trace of X", "absence of X".
    text = re.sub(CLINICAL_PRE, "no", text)
    text = re.sub(r"\s-\s|[.;:!?()\"\[\]{}]", f" {BREAK} ", text)
    return text


def tokenize(text: str) -> list[list[str]]:
    """Clauses of tokens (words, commas and scope stops)."""
    clauses: list[list[str]] = [[]]
    for token in _TOKEN.findall(_prepare(text)):
        if token == BREAK or (token in CLAUSE_WORDS and clauses[-1]):
            clauses.append([])
        if token != BREAK:
            clauses[-1].append(token)
    return [c for c in clauses if c]


@dataclass(frozen=True)
class Mention:
    name: str
    start: int
    end: int


def _index(terms_by_name: Mapping[str, Iterable[str]]) -> dict[tuple[str, ...], str]:
    """Term (singular words) -> name; the phrases of ``NOT_OBJECTS`` map to ``""``."""
    index = {tuple(singular(w) for w in phrase.split()): "" for phrase in NOT_OBJECTS}
    for name, terms in terms_by_name.items():
        for term in terms:
            index[tuple(singular(w) for w in term.split())] = name
    return index


def _is_modifier(tokens: list[str], start: int, end: int, term_starts: set[int]) -> bool:
    after = tokens[end] if end < len(tokens) else ""
    word = tokens[end - 1]
    plural = singular(word) != word  # "guests stand": a plural noun is no modifier
    if (after in COMPOUND_HEADS and not plural) or after.endswith("-shaped"):
        return True
    if end - start == 1 and start and tokens[start - 1] == "to" and after in VERB_OBJECTS:
        return True  # "to tie his shoes", "to book a table": a verb
    if word in PREFIX_MODIFIERS and end in term_starts:
        return True  # "a baby elephant"
    if word in AMBIGUOUS_ADJECTIVES and end - start == 1:
        before = tokens[start - 1] if start else ""
        if before in INTENSIFIERS or end in term_starts:
            return True
        function_words = PREPOSITIONS | VERBS | DETERMINERS | {",", "and", "or", "s", STOP}
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
            name = index.get(key) or index.get(tuple(tokens[i : i + n]))
            if name is not None:
                candidates.append(Mention(name, i, i + n))
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
    return [m for m in chosen if not _is_modifier(tokens, m.start, m.end, starts)]


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
        if tok == STOP or (tok in PREPOSITIONS and j not in mention_starts):
            break
        if tok == "of" and j not in mention_starts and tokens[j - 1] not in PARTITIVES:
            break  # "no fear of the horse"; but "not a slice of pizza"
        if tok in VERBS and j > start and j not in mention_starts:
            break
        if tok == ",":
            if not item_found and not {"or", "nor"} & set(tokens[j:]):
                break  # "no umbrellas, turquoise water, boats": a list of scenery, not objects
            item_found = False
        if tok in {",", "and", "or"} and (nxt in DETERMINERS or nxt in {"with", "and"}):
            parallel = nxt == det and tok != "," and _mention_near(j + 2, mention_starts)
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
        return i > 0 and nxt in _POST_MISSING_OK
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
        while k < len(tokens) and tokens[k] not in {",", STOP} and k not in ends:
            if tokens[k] in {"and", "or"} and k + 1 in ends:
                k = ends[k + 1]  # "forks and knives absent": the cue covers the whole list
                continue
            match = _POST.match(" ".join(tokens[k:]))
            if match:
                cue_at = k + len(match.group(0).split()) - 1
                if tokens[cue_at] not in {"missing", "absent"} or _is_post_use(tokens, cue_at):
                    result.add(m.start)
                break
            if tokens[k] in PREPOSITIONS - SOFT_PREPOSITIONS or tokens[k] in {"and", "or"}:
                break
            k += 1
    return result


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
        if verb is None or after[0].start < verb:
            head = after.pop(0)
            head_end = head.end
            usual = "usual" in tokens[i + 2 : head.start]
            object_position = i > 0 and tokens[i - 1] not in {",", STOP}
            (negated if usual or object_position else affirmed).add(head.start)
        for m in after:
            between = tokens[head_end : m.start]
            if between and between[-1] in QUANTIFIERS:
                between = between[:-1]
            if between and between[-1] in NONE_OF_VERBS:
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


def analyze_index(text: str, index: Mapping[tuple[str, ...], str]) -> dict[str, Polarity]:
    """The polarity of every name of ``index`` that the caption mentions."""
    found: dict[str, Polarity] = {}
    for tokens in tokenize(text):
        mentions = find_mentions(tokens, index)
        scoped = _negated_spans(tokens, mentions)
        post = _post_negated(tokens, mentions)
        none_neg, none_aff = _none_of(tokens, mentions)
        never = _never_subject(tokens, mentions)
        for m in mentions:
            negated = m.start in scoped or m.start in post or m.start in none_neg
            negated = (negated or m.start in never) and m.start not in none_aff
            polarity: Polarity = "negated" if negated else "affirmed"
            if found.get(m.name) != "affirmed":
                found[m.name] = "affirmed" if polarity == "affirmed" else "negated"
    return found


def analyze(text: str, lexicon: Lexicon) -> dict[str, Polarity]:
    """Polarity of every label or hypernym of ``lexicon`` that ``text`` mentions."""
    names = lexicon.mentioned(text)
    if "person" in lexicon.vocabulary and _PERSON_NEGATION.search(text):
        names = sorted({*names, "person"})
    return analyze_index(text, _index({name: lexicon.terms(name) for name in names}))


def polarity(text: str, terms: Iterable[str]) -> Polarity:
    """``affirmed`` if any mention affirms the object named by ``terms``, else ``negated`` if one
    negates it, else ``unmentioned``."""
    return analyze_index(text, _index({"object": terms})).get("object", "unmentioned")
