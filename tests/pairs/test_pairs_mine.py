"""Mining NegPairs from evidence alone: the join, the hierarchy, the cap, the overlap, the order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from negdata.config import Config, DetectConfig
from negdata.detect.lexicon import lexicon_for
from negdata.detect.vocab import VocabularyName
from negdata.pairs import ImageLabels, image_labels, mine, pair_id
from negdata.pairs.mine import candidates
from negdata.records import Evidence, LabelScore, known_evidence

CFG = Config.model_validate(
    {
        "input": {"path": "unused.tsv"},
        "detect": {"sources": [{"kind": "labels", "path": "unused.json"}]},
    }
)
DETECT: DetectConfig = CFG.detect  # t_absent 0.1, t_present 0.5, t_affirm 0.8
COCO = ("person", "dog", "cat", "tie", "cup", "bench", "bicycle", "car")


def _known(key: str, present: Iterable[str], vocabulary: Iterable[str] = COCO) -> Evidence:
    """An oracle's evidence: ``present`` scored 1, the rest of ``vocabulary`` scored 0."""
    return known_evidence(key, {label: 1 for label in present}, vocabulary, "oracle")


def _labels(*evidence: Evidence, vocabulary: VocabularyName = "coco") -> list[ImageLabels]:
    return [image_labels(e, 0, vocabulary, DETECT) for e in evidence]


def _triples(images: list[ImageLabels], min_overlap: float = 1.0, cap: int = 2) -> list[tuple]:
    kept, _ = mine(images, min_overlap, cap)
    return [(p.a.key, p.b.key, p.object) for p in kept]


def test_a_pair_differs_by_one_object_present_in_a_and_absent_in_b() -> None:
    images = _labels(
        _known("a", ["person", "dog"]),
        _known("b", ["person"]),
        _known("c", ["cat"]),  # nothing in common with a but no dog: no look-alike
    )
    assert _triples(images) == [("a", "b", "dog")]


def test_a_pair_records_its_keys_object_overlap_and_present_labels() -> None:
    (pair,), _ = mine(_labels(_known("a", ["person", "dog"]), _known("b", ["person"])), 1.0, 2)
    record = pair.record()
    assert record.model_dump() == {
        "pair_id": pair_id("a", "b", "dog"),
        "key_a": "a",
        "key_b": "b",
        "object": "dog",
        "overlap": 1.0,
        "similarity": None,
        "shard_a": 0,
        "shard_b": 0,
        "present_a": ["dog", "person"],
        "present_b": ["person"],
    }
    assert pair_id("a", "b", "dog") != pair_id("b", "a", "dog") != pair_id("a", "b", "cat")


def test_an_uncertain_object_is_not_absent() -> None:
    uncertain = Evidence(
        key="b",
        boxes=[],
        scores=[LabelScore(label="person", score=1.0), LabelScore(label="dog", score=0.3)],
        sources=["oracle"],
    )
    images = _labels(_known("a", ["person", "dog"]), uncertain)
    kept, dropped = mine(images, 1.0, 2)
    assert kept == []
    assert dropped["object_not_absent"] == 1


def test_an_object_no_source_scores_is_not_absent() -> None:
    unscored = _known("b", ["person"], vocabulary=["person"])  # dog: unverifiable
    assert _triples(_labels(_known("a", ["person", "dog"]), unscored)) == []


def test_only_affirmable_objects_are_present() -> None:
    """A label one source doubts (``lowest`` under ``t_present``) is not present: the image
    is not A for it, nor is it one of A's other objects."""
    doubted = Evidence(
        key="a",
        boxes=[],
        scores=[
            LabelScore(label="person", score=1.0),
            LabelScore(label="dog", score=0.9, lowest=0.2),
        ],
        sources=["oracle", "detector"],
    )
    assert _labels(doubted)[0].present == {"person"}
    assert _triples(_labels(doubted, _known("b", ["person"]))) == []


def test_a_hypernym_label_is_absent_only_with_every_label_below_it() -> None:
    """In Open Images "animal" is a label over dog, cat, bird...: B is without animals only if
    each of them is scored and below t_absent."""
    members = sorted(lexicon_for("openimages").members("animal"))
    assert "dog" in members and "animal" in members
    a = _known("a", ["person", "animal"], ["person", *members])
    no_animal = _known("b", ["person"], ["person", *members])
    uncertain_dog = Evidence(
        key="c",
        boxes=[],
        scores=[
            LabelScore(label="person", score=1.0),
            *(LabelScore(label=m, score=0.3 if m == "dog" else 0.0) for m in members),
        ],
        sources=["oracle"],
    )
    dog_unscored = _known("d", ["person"], ["person", *(m for m in members if m != "dog")])
    images = _labels(a, no_animal, uncertain_dog, dog_unscored, vocabulary="openimages")
    assert _triples(images) == [("a", "b", "animal")]


def test_an_image_with_no_other_object_is_no_look_alike() -> None:
    images = _labels(_known("a", ["dog"]), _known("b", []))
    assert _triples(images, min_overlap=0.1) == []


def test_below_min_overlap_is_dropped_and_counted() -> None:
    images = _labels(
        _known("a", ["person", "bench", "dog"]),
        _known("b", ["person"]),
        _known("c", ["person", "bench"]),
    )
    exact = [("a", "c", "dog"), ("c", "b", "bench")]  # B shows exactly A's other objects
    assert _triples(images, min_overlap=1.0, cap=9) == exact
    # a's others {person, bench} (or {person, dog}) against b's {person}: 0.5
    half = [("a", "b", "bench"), ("a", "b", "dog")]
    assert _triples(images, min_overlap=0.5, cap=9) == exact + half
    kept, dropped = mine(images, 0.6, 9)
    assert [(p.a.key, p.b.key, p.object) for p in kept] == exact
    assert dropped["below_overlap"] == 2


def test_each_image_is_in_at_most_max_per_image_pairs() -> None:
    images = _labels(
        _known("a", ["person", "dog"]),
        _known("b1", ["person"]),
        _known("b2", ["person"]),
        _known("b3", ["person"]),
    )
    assert _triples(images, cap=2) == [("a", "b1", "dog"), ("a", "b2", "dog")]
    kept, dropped = mine(images, 1.0, 1)
    assert [(p.a.key, p.b.key) for p in kept] == [("a", "b1")]
    assert dropped["over_image_cap"] == 2


def test_the_cap_keeps_the_highest_overlap_first() -> None:
    images = _labels(
        _known("a", ["person", "bench", "dog"]),
        _known("b", ["person"]),  # 0.5
        _known("c", ["bench", "person"]),  # 1.0
    )
    kept, _ = mine(images, 0.5, 1)
    assert [(p.b.key, p.overlap) for p in kept] == [("c", 1.0)]


def test_the_same_evidence_in_any_order_gives_the_same_pairs() -> None:
    evidence = [
        _known("k1", ["person", "dog"]),
        _known("k2", ["person"]),
        _known("k3", ["person", "cat"]),
        _known("k4", ["person", "cup"]),
        _known("k5", ["person", "dog", "cup"]),
    ]
    forward = mine(_labels(*evidence), 0.5, 2)
    backward = mine(_labels(*reversed(evidence)), 0.5, 2)
    assert [p.record() for p in forward[0]] == [p.record() for p in backward[0]]
    assert forward[1] == backward[1]
    assert forward[0]


def test_a_large_group_of_look_alikes_is_shared_out_and_bounded() -> None:
    """Thirty images of a person with a dog beside sixty of a person alone: each looks at a few
    near images of its own, not the same first ones, so every one of them finds a pair."""
    images = _labels(
        *(_known(f"a{i:02d}", ["person", "dog"]) for i in range(30)),
        *(_known(f"b{i:02d}", ["person"]) for i in range(60)),
    )
    kept, _ = mine(images, 1.0, 2)
    assert {p.a.key for p in kept} == {f"a{i:02d}" for i in range(30)}
    assert len(candidates(images, 1.0, Counter(), per_object=8)) == 30 * 8
