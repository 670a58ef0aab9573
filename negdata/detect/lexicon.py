"""From free-text nouns to vocabulary labels: plurals, synonyms, multi-word names, hypernyms.

A *name* is what a noun resolves to: a vocabulary label, or a hypernym ("animal") standing for
the labels below it. A noun that resolves to nothing is unverifiable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import yaml

from negdata.detect.vocab import VocabularyName, normalize, singular, vocabulary
from negdata.records import Evidence

SYNONYMS_FILE = Path(__file__).with_name("synonyms.yaml")
RADIOLOGY_FILE = Path(__file__).with_name("radiology.yaml")
_RADIOLOGY: dict[str, dict[str, list[str]]] = yaml.safe_load(RADIOLOGY_FILE.read_text())


def _synonyms() -> dict[str, str]:
    """Word -> label, from ``synonyms.yaml`` and ``radiology.yaml`` (label -> the words for it)."""
    by_label: dict[str, list[str]] = yaml.safe_load(SYNONYMS_FILE.read_text())
    words = {word: label for label, words in by_label.items() for word in words}
    for label, clinical in _RADIOLOGY["synonyms"].items():
        for word in clinical:
            if words.setdefault(word, label) != label:
                raise ValueError(f"{RADIOLOGY_FILE.name}: {word!r} is a word for {words[word]}")
    return words


SYNONYMS: dict[str, str] = _synonyms()

HYPERNYMS: dict[str, tuple[str, ...]] = {
    "animal": ("bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra",
               "giraffe"),
    "pet": ("cat", "dog"),
    "wildlife": ("bird", "elephant", "bear", "zebra", "giraffe"),
    "livestock": ("horse", "sheep", "cow"),
    "vehicle": ("bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat"),
    "furniture": ("chair", "couch", "bed", "dining table", "bench"),
    "food": ("banana", "apple", "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza",
             "donut", "cake"),
    "fruit": ("banana", "apple", "orange"),
    "vegetable": ("broccoli", "carrot"),
    "dessert": ("cake", "donut"),
    "appliance": ("microwave", "oven", "toaster", "refrigerator"),
    "electronics": ("tv", "laptop", "mouse", "remote", "keyboard", "cell phone"),
    "device": ("tv", "laptop", "mouse", "remote", "keyboard", "cell phone"),
    "computer": ("laptop",),
    "utensil": ("fork", "knife", "spoon"),
    "cutlery": ("fork", "knife", "spoon"),
    "silverware": ("fork", "knife", "spoon"),
    "dish": ("bowl", "cup", "wine glass"),
    # "no plates or glasses": COCO's cups take in tumblers and beer glasses, so a glass is either;
    # an affirmed "glass" affirms no label
    "glass": ("wine glass", "cup"),
    "tableware": ("bowl", "cup", "wine glass", "fork", "knife", "spoon"),
    "luggage": ("backpack", "handbag", "suitcase"),
    "baggage": ("backpack", "handbag", "suitcase"),
    "toy": ("teddy bear", "kite", "frisbee"),
    # a stuffed animal need not be a bear: "no plush toys" denies teddy bears, "a plush toy"
    # affirms none
    "stuffed animal": ("teddy bear",),
    "stuffed toy": ("teddy bear",),
    "plush toy": ("teddy bear",),
    "soft toy": ("teddy bear",),
    "plushie": ("teddy bear",),
    "seating": ("chair", "couch", "bench"),
    "poultry": ("bird",),
    "fowl": ("bird",),
    "pastry": ("donut", "cake"),
    "baked goods": ("donut", "cake"),
    "produce": ("banana", "apple", "orange", "broccoli", "carrot"),
    "glassware": ("wine glass", "cup"),
    "crockery": ("bowl", "cup"),
    "gadget": ("tv", "laptop", "mouse", "remote", "keyboard", "cell phone"),
    "sports gear": ("frisbee", "skis", "snowboard", "sports ball", "kite", "baseball bat",
                    "baseball glove", "skateboard", "surfboard", "tennis racket"),
    # road traffic: "a street devoid of traffic" has no cars ("traffic light" is longer)
    "traffic": ("car", "bus", "truck", "motorcycle"),
    "sports equipment": ("frisbee", "skis", "snowboard", "sports ball", "kite", "baseball bat",
                         "baseball glove", "skateboard", "surfboard", "tennis racket"),
    **{name: tuple(labels) for name, labels in _RADIOLOGY["hypernyms"].items()},
}  # fmt: skip


def _label_terms(label: str) -> list[str]:
    """Surface forms of a vocabulary label: ``"handbag/satchel"`` -> handbag, satchel;
    ``"bat (animal)"`` -> bat; plural labels (``"street lights"``) -> singular."""
    plain = re.sub(r"\(.*?\)", "", label)
    return [t for t in (normalize(part) for part in plain.split("/")) if t]


class Lexicon:
    """Resolves nouns to names (labels or hypernyms) and names to their surface terms."""

    def __init__(self, labels: Iterable[str]) -> None:
        self.vocabulary = frozenset(labels)
        self._names: dict[str, str] = {}
        self._members: dict[str, frozenset[str]] = {}
        for label in sorted(self.vocabulary):
            self._members[label] = frozenset({label})
            for term in _label_terms(label):
                self._names.setdefault(term, label)
        self._add_synonyms()
        for group, member_terms in HYPERNYMS.items():
            members = {self._names[t] for t in member_terms if t in self._names}
            if not members:
                continue
            name = self._names.setdefault(normalize(group), group)
            self._members[name] = self._members.get(name, frozenset()) | members
        self._terms: dict[str, tuple[str, ...]] = {}
        for term, name in self._names.items():
            self._terms[name] = (*self._terms.get(name, ()), term)
        self._terms = {
            n: tuple(sorted(t, key=lambda s: (-len(s), s))) for n, t in self._terms.items()
        }
        # Every word singular, as ``mentioned`` reads the text: "sports gear" is "sport gear".
        self._surface: dict[tuple[str, ...], set[str]] = {}
        for term, name in self._names.items():
            self._surface.setdefault(tuple(singular(w) for w in term.split()), set()).add(name)
        self._longest = max(map(len, self._surface), default=0)

    def _add_synonyms(self) -> None:
        """Words for the labels, then words for those words ("glass of wine" -> "wine glass"
        -> LVIS's "wineglass"), until no word is left that resolves."""
        pending = dict(SYNONYMS)
        while True:
            resolved = {
                term: self._names[normalize(target)]
                for term, target in pending.items()
                if normalize(target) in self._names
            }
            if not resolved:
                return
            for term, name in resolved.items():
                self._names.setdefault(normalize(term), name)
                del pending[term]

    def name(self, noun: str) -> str | None:
        """The label or hypernym ``noun`` stands for: the whole phrase, else its longest tail."""
        words = normalize(noun).split()
        for start in range(len(words)):
            found = self._names.get(" ".join(words[start:]))
            if found is not None:
                return found
        return None

    def is_term(self, noun: str) -> bool:
        """Whether ``noun`` is itself a surface term (not a phrase that merely ends in one)."""
        return normalize(noun) in self._names

    def members(self, name: str) -> frozenset[str]:
        """The vocabulary labels a name covers: itself for a label, its hyponyms for a hypernym."""
        return self._members.get(name, frozenset())

    def terms(self, name: str) -> tuple[str, ...]:
        """Every surface form (singular) of ``name``, longest first."""
        return self._terms.get(name, (name,))

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self._members))

    def mentioned(self, text: str) -> list[str]:
        """Names with a surface term in ``text`` (a cheap pre-filter before scope checking)."""
        text = re.sub(r"['\u2019]s\b", "", text.lower())  # "a catcher's mitt"
        words = tuple(singular(w) for w in re.findall(r"[a-z]+", text))
        found: set[str] = set()
        for n in range(1, self._longest + 1):
            for i in range(len(words) - n + 1):
                found |= self._surface.get(words[i : i + n], set())
        return sorted(found)


@cache
def lexicon_for(name: VocabularyName, extra: frozenset[str] = frozenset()) -> Lexicon:
    """The lexicon of a vocabulary, plus ``extra`` labels (a detector's own class names)."""
    return Lexicon((*vocabulary(name), *sorted(extra)))


def run_lexicon(name: VocabularyName, evidence: Iterable[Evidence]) -> Lexicon:
    """The vocabulary's lexicon extended by every label the evidence sources cover."""
    return labels_lexicon(name, (s.label for e in evidence for s in e.scores))


def labels_lexicon(name: VocabularyName, labels: Iterable[str]) -> Lexicon:
    """The vocabulary's lexicon extended by those of ``labels`` it lacks."""
    return lexicon_for(name, frozenset(labels) - frozenset(vocabulary(name)))
