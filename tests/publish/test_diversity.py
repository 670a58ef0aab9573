"""distinct-n and frame reuse over published captions."""

from __future__ import annotations

from negdata.publish.diversity import distinct_n, diversity, frame, words
from negdata.records import CaptionRecord


def _caption(text: str, negated: str, affirmed: list[str], generator: str = "llm") -> CaptionRecord:
    return CaptionRecord.model_validate(
        {
            "key": "0_0",
            "image_key": "0",
            "caption": text,
            "negated": negated,
            "negated_label": negated,
            "style": "negation_first",
            "generator": generator,
            "original_caption": "",
            "affirmed": affirmed,
            "prompt": None,
            "model": None,
            "config_hash": "h",
        }
    )


def test_distinct_n_is_unique_over_all_ngrams() -> None:
    texts = [words("a dog and a cat"), words("a dog")]

    assert distinct_n(texts, 1) == 4 / 7  # a, dog, and, cat over 7 words
    assert distinct_n(texts, 2) == 4 / 5  # "a dog" appears twice among 5 bigrams
    assert distinct_n([["one"]], 2) is None


def test_frame_hides_negated_and_affirmed_objects_singular_or_plural() -> None:
    record = _caption("No Dogs here, just two cats on a sofa.", "dog", ["cat", "sofa"])

    assert frame(record) == "no <obj> here just two <obj> on a <obj>"


def test_frame_reuse_counts_captions_sharing_a_frame_within_a_group() -> None:
    records = [
        _caption("There is no dog in this photo of a cat.", "dog", ["cat"]),
        _caption("There is no bus in this photo of a car.", "bus", ["car"]),
        _caption("A lone car waits at the light; no bus has come.", "bus", ["car"]),
        _caption("There is no dog in this photo of a cat.", "dog", ["cat"], "template"),
    ]

    report = diversity(records)

    assert report["llm/negation_first"]["captions"] == 3
    assert report["llm/negation_first"]["frame_reuse"] == round(2 / 3, 4)
    assert report["template/negation_first"] == {
        "captions": 1,
        "distinct_1": 1.0,
        "distinct_2": 1.0,
        "distinct_3": 1.0,
        "frame_reuse": 0.0,
    }
