"""Vocabularies of the evidence sources and the lexicon from free-text nouns to their labels."""

from __future__ import annotations

import re
from functools import cache

COCO80: tuple[str, ...] = (
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat",
    "traffic light", "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog",
    "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella",
    "handbag", "tie", "suitcase", "frisbee", "skis", "snowboard", "sports ball", "kite",
    "baseball bat", "baseball glove", "skateboard", "surfboard", "tennis racket", "bottle",
    "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple", "sandwich", "orange",
    "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch", "potted plant",
    "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard", "cell phone",
    "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase", "scissors",
    "teddy bear", "hair drier", "toothbrush",
)  # fmt: skip

SYNONYMS: dict[str, str] = {
    "people": "person", "man": "person", "men": "person", "woman": "person",
    "women": "person", "child": "person", "children": "person", "kid": "person",
    "boy": "person", "girl": "person", "player": "person", "pedestrian": "person",
    "astronaut": "person", "driver": "person", "lady": "person", "guy": "person", "human": "person",
    "cameraman": "person", "photographer": "person", "worker": "person", "baby": "person",
    "bride": "person", "groom": "person", "student": "person", "soldier": "person",
    "tourist": "person", "crowd": "person",
    "bike": "bicycle", "motorbike": "motorcycle", "motorcycle": "motorcycle",
    "plane": "airplane", "aeroplane": "airplane", "jet": "airplane", "ship": "boat",
    "automobile": "car", "taxi": "car", "puppy": "dog", "kitten": "cat", "kitty": "cat",
    "sofa": "couch", "television": "tv", "tv set": "tv", "monitor": "tv",
    "phone": "cell phone", "smartphone": "cell phone", "mobile phone": "cell phone",
    "fridge": "refrigerator", "table": "dining table", "plant": "potted plant",
    "houseplant": "potted plant", "mug": "cup", "teacup": "cup", "coffee cup": "cup",
    "doughnut": "donut", "ball": "sports ball", "football": "sports ball",
    "soccer ball": "sports ball", "purse": "handbag", "bag": "handbag", "necktie": "tie",
    "hairdryer": "hair drier", "hair dryer": "hair drier",
    "notebook computer": "laptop", "computer mouse": "mouse", "remote control": "remote",
    "stool": "chair", "armchair": "chair", "lorry": "truck", "pickup": "truck",
}  # fmt: skip

IRREGULAR_PLURALS: dict[str, str] = {
    "people": "person", "men": "man", "women": "woman", "children": "child", "mice": "mouse",
    "knives": "knife", "sheep": "sheep", "skis": "skis", "scissors": "scissors",
    "geese": "goose", "feet": "foot", "teeth": "tooth", "buses": "bus",
}  # fmt: skip


def singular(word: str) -> str:
    """A naive English singular for one word; good enough for object nouns."""
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def normalize(noun: str) -> str:
    """Lower-case, drop articles and punctuation, singularise the head (last) word."""
    words = re.findall(r"[a-z]+", noun.lower())
    while words and words[0] in {"a", "an", "the", "some", "two", "three", "several", "many"}:
        words = words[1:]
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words)


class Lexicon:
    """Maps free-text nouns to vocabulary labels; a noun that maps to nothing is unverifiable."""

    def __init__(self, vocabulary: tuple[str, ...] = COCO80) -> None:
        self.vocabulary = frozenset(vocabulary)
        self._terms: dict[str, str] = {label: label for label in vocabulary}
        for term, label in SYNONYMS.items():
            if label in self.vocabulary:
                self._terms[normalize(term)] = label
                self._terms[term] = label

    def label(self, noun: str) -> str | None:
        """The vocabulary label of ``noun``, trying the whole phrase, then its head word."""
        norm = normalize(noun)
        if norm in self._terms:
            return self._terms[norm]
        words = norm.split()
        for start in range(1, len(words)):
            tail = " ".join(words[start:])
            if tail in self._terms:
                return self._terms[tail]
        return None

    def terms(self, label: str) -> tuple[str, ...]:
        """Every surface form (singular) that maps to ``label``, longest first."""
        found = {term for term, lab in self._terms.items() if lab == label}
        return tuple(sorted(found, key=lambda t: (-len(t), t)))


@cache
def coco_lexicon() -> Lexicon:
    return Lexicon(COCO80)
