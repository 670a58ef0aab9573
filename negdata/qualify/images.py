"""The images a model is qualified on: their evidence, not their pixels.

``images.jsonl`` ships with negdata: per image a key, a CC12M-style original caption and every
COCO object in it with how many there are. Plan and compose work from evidence and the
original caption alone, so this is all they need; and since every object is known (a label
that is not listed is absent), every sentence a model writes about the image can be judged.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from pydantic import BaseModel, ConfigDict, Field, model_validator

from negdata.detect.vocab import VocabularyName, vocabulary
from negdata.records import Evidence, known_evidence

VOCABULARY: VocabularyName = "coco"
SOURCE = "truth"  # the evidence's one source: the known objects


class QualifyImage(BaseModel):
    """One image of the set: what it shows, exactly."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    caption: str = Field(min_length=1)
    objects: dict[str, int]  # every object in the image: label -> how many

    @model_validator(mode="after")
    def _known_labels(self) -> QualifyImage:
        unknown = sorted(set(self.objects) - set(vocabulary(VOCABULARY)))
        if unknown:
            raise ValueError(f"{self.key}: not {VOCABULARY} labels: {', '.join(unknown)}")
        if any(n < 1 for n in self.objects.values()):
            raise ValueError(f"{self.key}: an object is there at least once")
        return self

    def evidence(self) -> Evidence:
        """The evidence a perfect detector would give: a box per object, every label of the
        vocabulary scored (1 for those there, 0 for the rest)."""
        return known_evidence(self.key, self.objects, vocabulary(VOCABULARY), SOURCE)


@cache
def load_images() -> tuple[QualifyImage, ...]:
    """The shipped set, in file order."""
    text = files("negdata.qualify").joinpath("images.jsonl").read_text()
    images = tuple(QualifyImage.model_validate(json.loads(line)) for line in text.splitlines())
    keys = [image.key for image in images]
    if len(set(keys)) != len(keys):
        raise ValueError("negdata/qualify/images.jsonl repeats a key")
    return images
