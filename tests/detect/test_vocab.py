import pytest

from negdata.detect.vocab import COCO80, coco_lexicon, singular


def test_coco_vocabulary_has_eighty_unique_labels() -> None:
    assert len(COCO80) == len(set(COCO80)) == 80


@pytest.mark.parametrize(
    ("noun", "label"),
    [
        ("dogs", "dog"),
        ("a puppy", "dog"),
        ("people", "person"),
        ("women", "person"),
        ("two kids", "person"),
        ("the sofa", "couch"),
        ("television", "tv"),
        ("wine glasses", "wine glass"),
        ("knives", "knife"),
        ("a red double-decker bus", "bus"),
        ("hot dogs", "hot dog"),
        ("skis", "skis"),
        ("lamp post", None),
        ("sky", None),
    ],
)
def test_lexicon_maps_free_text_to_labels(noun: str, label: str | None) -> None:
    assert coco_lexicon().label(noun) == label


def test_terms_include_label_and_synonyms() -> None:
    terms = coco_lexicon().terms("person")
    assert {"person", "people", "man", "woman", "kid"} <= set(terms)


@pytest.mark.parametrize(
    ("word", "one"), [("buses", "bus"), ("boxes", "box"), ("berries", "berry"), ("glass", "glass")]
)
def test_singular(word: str, one: str) -> None:
    assert singular(word) == one
