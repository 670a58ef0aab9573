"""The shipped qualification images: evidence a perfect detector would give, and a set worth
qualifying a model on."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from negdata.config import DetectConfig
from negdata.detect.lexicon import lexicon_for
from negdata.qualify.images import QualifyImage, load_images
from negdata.verify import box_counts, evidence_verdicts

DETECT = DetectConfig.model_validate({"sources": [{"kind": "labels", "path": "unused.json"}]})


def test_the_evidence_counts_every_object_and_rules_out_everything_else() -> None:
    image = QualifyImage(key="room", caption="a cat and two dogs", objects={"cat": 1, "dog": 2})
    evidence = image.evidence()
    verdicts = evidence_verdicts(evidence, lexicon_for("coco"), DETECT)

    assert box_counts(evidence, DETECT) == {"cat": 1, "dog": 2}
    assert verdicts["cat"] == verdicts["dog"] == verdicts["animal"] == "present"
    assert verdicts["bird"] == verdicts["tv"] == "absent"
    assert set(verdicts.values()) == {"present", "absent"}  # nothing is left undecided


@pytest.mark.parametrize(
    "objects", [{"unicorn": 1}, {"dog": 0}], ids=["not a coco label", "no count"]
)
def test_an_entry_the_judge_could_not_hold_sentences_to_is_refused(
    objects: dict[str, int],
) -> None:
    with pytest.raises(ValidationError):
        QualifyImage(key="x", caption="a photo", objects=objects)


def test_the_set_is_varied_enough_to_qualify_a_model_on() -> None:
    images = load_images()
    labels = {label for image in images for label in image.objects}

    assert 20 <= len(images) <= 40
    assert len({image.key for image in images}) == len(images)
    assert len(labels) >= 30  # many kinds of scene, not one kitchen twenty times
    assert any(n > 1 for image in images for n in image.objects.values())  # counts to check
    assert any(not image.objects for image in images)  # a scene with nothing to affirm
