import pytest

from negdata.detect.lexicon import lexicon_for
from negdata.detect.vocab import COCO80, singular


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
    assert lexicon_for("coco").name(noun) == label


def test_terms_include_label_and_synonyms() -> None:
    terms = lexicon_for("coco").terms("person")
    assert {"person", "man", "woman", "kid", "child"} <= set(terms)


@pytest.mark.parametrize(
    ("word", "one"),
    [
        ("buses", "bus"),
        ("boxes", "box"),
        ("berries", "berry"),
        ("glass", "glass"),
        ("policemen", "policeman"),
        ("abdomen", "abdomen"),
        ("calves", "calf"),
        ("goalies", "goalie"),
        ("minibuses", "minibus"),
    ],
)
def test_singular(word: str, one: str) -> None:
    assert singular(word) == one


def test_hypernyms_cover_their_members() -> None:
    lexicon = lexicon_for("coco")
    assert lexicon.name("animals") == "animal"
    assert {"cat", "dog", "giraffe"} <= lexicon.members("animal")
    assert lexicon.members("dog") == {"dog"}
    assert lexicon.name("a piece of furniture") == "furniture"


def test_a_label_covers_only_itself_even_where_a_hypernym_shares_a_word() -> None:
    """ "luggage" is a hypernym (backpack, handbag, suitcase), not a word for suitcase: else
    "only two suitcases" would cover the handbag beside them."""
    lexicon = lexicon_for("coco")
    for label in lexicon.vocabulary:
        assert lexicon.members(label) == {label}
    assert lexicon.name("luggage") == "luggage"
    assert lexicon.members("luggage") == {"backpack", "handbag", "suitcase"}


@pytest.mark.parametrize(
    ("name", "size"), [("lvis", 1203), ("objects365", 365), ("openimages", 601)]
)
def test_other_vocabularies_load_from_ultralytics(name: str, size: int) -> None:
    from negdata.detect.vocab import vocabulary

    labels = vocabulary(name)  # type: ignore[arg-type]
    assert len(labels) == size and all(label == label.lower() for label in labels)
    lexicon = lexicon_for(name)  # type: ignore[arg-type]
    assert lexicon.name("dogs") is not None and lexicon.name("people") is not None


def test_a_detectors_own_class_names_join_the_lexicon() -> None:
    from negdata.detect.lexicon import run_lexicon
    from negdata.records import Evidence, LabelScore

    evidence = Evidence(
        key="k",
        boxes=[],
        scores=[LabelScore(label="forklift", score=0.0), LabelScore(label="dog", score=0.9)],
        sources=["yolo:custom.pt"],
    )
    lexicon = run_lexicon("coco", [evidence])
    assert lexicon.name("two forklifts") == "forklift"
    assert lexicon.name("puppy") == "dog"
    assert lexicon_for("coco").name("forklift") is None


@pytest.mark.parametrize(
    ("noun", "label"),
    [
        ("dogs", "dog"),
        ("a woman", "person/baby/child/boy/girl/man/woman/human"),
        ("the sofa", "sofa/couch/lounge"),
        ("garbage cans", "trash can/garbage can/wastebin/dustbin/trash barrel/trash bin"),
        ("traffic cones", "cone/traffic cone"),
        ("a street lamp", "streetlight/street lamp"),
        ("helmets", "helmet"),
        # COCO's names, and the words for them, reach LVIS's names for the same things
        ("laptops", "laptop computer/notebook computer"),
        ("a glass of wine", "wineglass"),
        ("tv remote", "remote control"),
        ("skis", "ski"),
        ("hot dogs", "sausage"),  # not "dog"
        ("sky", None),
    ],
)
def test_lvis_lexicon_maps_free_text_to_its_labels(noun: str, label: str | None) -> None:
    assert lexicon_for("lvis").name(noun) == label


def test_lvis_hypernyms_cover_lvis_labels() -> None:
    lexicon = lexicon_for("lvis")
    assert {"cat", "dog", "giraffe"} <= lexicon.members("animal")
    assert "laptop computer/notebook computer" in lexicon.members("electronics")
