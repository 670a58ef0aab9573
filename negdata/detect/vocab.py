"""Vocabularies of the evidence sources: COCO-80, LVIS (1,203), Objects365, Open Images V7
and CheXpert.

The class-name lists ship with Ultralytics' dataset configs; labels are kept lower-case.
CheXpert's are its findings in the words a radiology report uses.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Literal

import yaml

VocabularyName = Literal["coco", "lvis", "objects365", "openimages", "chexpert"]

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

# CheXpert's finding columns and the label each stands for. "No Finding" is no finding: it is
# read as a check on the row (negdata.detect.chexpert), not as a label. "Pleural Other" (pleural
# thickening, plaques, scarring) goes by its commonest form.
CHEXPERT_FINDINGS: dict[str, str] = {
    "Enlarged Cardiomediastinum": "enlarged cardiomediastinum",
    "Cardiomegaly": "cardiomegaly",
    "Lung Opacity": "lung opacity",
    "Lung Lesion": "lung lesion",
    "Edema": "edema",
    "Consolidation": "consolidation",
    "Pneumonia": "pneumonia",
    "Atelectasis": "atelectasis",
    "Pneumothorax": "pneumothorax",
    "Pleural Effusion": "pleural effusion",
    "Pleural Other": "pleural thickening",
    "Fracture": "fracture",
    "Support Devices": "support devices",
}
# Vocabularies whose labels are clinical findings: captions read like a report's impression,
# and every finding a caption names must be decided by the labels (no uncertain one affirmed
# or negated).
CLINICAL_VOCABULARIES: frozenset[str] = frozenset({"chexpert"})

_ULTRALYTICS_FILES = {
    "lvis": "lvis.yaml",
    "objects365": "Objects365.yaml",
    "openimages": "open-images-v7.yaml",
}

IRREGULAR_PLURALS: dict[str, str] = {
    "people": "person", "men": "man", "women": "woman", "children": "child", "mice": "mouse",
    "knives": "knife", "sheep": "sheep", "scissors": "scissors",
    "geese": "goose", "feet": "foot", "teeth": "tooth", "buses": "bus", "glasses": "glass",
    "leaves": "leaf", "shelves": "shelf", "wolves": "wolf", "loaves": "loaf", "oxen": "ox",
    "cattle": "cow", "fish": "fish", "deer": "deer", "series": "series", "species": "species",
    "dice": "die", "potatoes": "potato", "tomatoes": "tomato", "mangoes": "mango",
    "heroes": "hero", "taxis": "taxi", "tvs": "tv", "skis": "skis", "pants": "pants",
    "jeans": "jeans", "shorts": "shorts", "calves": "calf", "halves": "half", "wives": "wife",
    "scarves": "scarf", "hooves": "hoof", "passersby": "passerby", "ponies": "pony",
    "schoolchildren": "schoolchild",
}  # fmt: skip
# Nouns in -ie, whose plural is not one in -y ("goalies" -> "goalie", not "goaly").
_IE_NOUNS = frozenset(
    {"goalie", "collie", "cookie", "brownie", "movie", "selfie", "rookie", "auntie", "smoothie",
     "newbie", "hoodie", "beanie", "zombie", "pixie", "doggie", "budgie", "hippie", "techie"}
)  # fmt: skip
# Words in -men that are not plurals of -man ("firemen" -> "fireman").
_NOT_MEN_PLURALS = frozenset({"abdomen", "specimen", "regimen", "stamen", "acumen", "hymen"})


def singular(word: str) -> str:
    """A naive English singular for one word; good enough for object nouns."""
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if len(word) > 5 and word.endswith("men") and word not in _NOT_MEN_PLURALS:
        return word[:-3] + "man"
    if word.endswith("ies") and word[:-1] in _IE_NOUNS:
        return word[:-1]
    if word.endswith("buses"):
        return word[:-2]  # "minibuses"
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zzes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def normalize(noun: str) -> str:
    """Lower-case, drop articles, numbers and punctuation, singularise the head (last) word."""
    words = re.findall(r"[a-z]+", noun.lower())
    while words and words[0] in {"a", "an", "the", "some", "two", "three", "several", "many"}:
        words = words[1:]
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words)


@cache
def vocabulary(name: VocabularyName) -> tuple[str, ...]:
    """The lower-case class names of a vocabulary, in the dataset's order."""
    if name == "coco":
        return COCO80
    if name == "chexpert":
        return tuple(CHEXPERT_FINDINGS.values())
    spec = find_spec("ultralytics")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the ultralytics package is needed for the class-name lists")
    path = (
        Path(next(iter(spec.submodule_search_locations)))
        / "cfg/datasets"
        / _ULTRALYTICS_FILES[name]
    )
    names = yaml.safe_load(path.read_text())["names"]
    return tuple(str(names[i]).strip().lower() for i in sorted(names))
