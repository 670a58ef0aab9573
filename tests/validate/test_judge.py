"""The LLM judge: reading its answer, spotting disagreement, and a real call's result shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from negdata.config import LLMConfig
from negdata.detect.lexicon import lexicon_for
from negdata.validate.judge import JudgeOutput, disagreement, judge_polarities, read_answer
from negdata.validate.negation import Polarity

PROMPTS = Path(__file__).resolve().parents[2] / "prompts"
COCO = lexicon_for("coco")


def test_agreeing_judge_is_no_disagreement() -> None:
    judged: dict[str, Polarity] = {"bus": "affirmed", "dog": "negated"}
    assert disagreement(judged, {"bus": "affirmed", "dog": "negated"}) is None


def test_negated_object_judged_present_is_a_disagreement() -> None:
    judged: dict[str, Polarity] = {"bus": "affirmed", "dog": "affirmed"}
    assert disagreement(judged, {"bus": "affirmed", "dog": "negated"}) == "dog"


def test_affirmed_object_judged_absent_is_a_disagreement() -> None:
    judged: dict[str, Polarity] = {"bus": "negated", "dog": "negated"}
    assert disagreement(judged, {"bus": "affirmed", "dog": "negated"}) == "bus"


def test_first_contradicted_object_in_intended_order_is_named() -> None:
    judged: dict[str, Polarity] = {"cat": "affirmed", "dog": "affirmed", "bus": "negated"}
    intended: dict[str, Polarity] = {"bus": "affirmed", "cat": "negated", "dog": "negated"}
    assert disagreement(judged, intended) == "bus"


def test_objects_the_judge_omits_are_no_disagreement() -> None:
    assert disagreement({}, {"bus": "affirmed", "dog": "negated"}) is None
    assert disagreement({"bus": "affirmed"}, {"bus": "affirmed", "dog": "negated"}) is None


def test_unmentioned_intent_is_never_contradicted() -> None:
    assert disagreement({"cat": "affirmed"}, {"cat": "unmentioned"}) is None


def test_answers_map_to_the_given_names_through_the_lexicon() -> None:
    output = JudgeOutput(present=["Tables", "a puppy"], absent=["mobile phones", "giraffe"])
    objects = ["dining table", "dog", "cell phone", "cat"]
    assert read_answer(output, objects, COCO) == {
        "dining table": "affirmed",
        "dog": "affirmed",
        "cell phone": "negated",
    }


def test_object_in_both_lists_is_left_out() -> None:
    output = JudgeOutput(present=["dog", "bus"], absent=["dogs"])
    assert read_answer(output, ["dog", "bus"], COCO) == {"bus": "affirmed"}


CAPTIONS = [
    ("A red bus on a street, but there is no dog.", ["bus", "dog"]),
    ("No people on the beach, only an umbrella.", ["person", "umbrella"]),
    ("A kitchen without a microwave.", ["microwave"]),
    ("Two cats sleep on a couch; neither a dog nor a bird is in sight.", ["cat", "dog", "bird"]),
]


@pytest.mark.slow
def test_real_judge_answers_per_item_with_given_names_only(vllm_server: LLMConfig) -> None:
    judged, stats = judge_polarities(vllm_server, PROMPTS, CAPTIONS)

    assert len(judged) == len(CAPTIONS)
    for answer, (_, objects) in zip(judged, CAPTIONS, strict=True):
        assert answer is None or isinstance(answer, dict)
        if answer is not None:
            assert set(answer) <= set(objects)
            assert set(answer.values()) <= {"affirmed", "negated"}
    assert stats["llm_requests"] - stats["llm_retries"] == len(CAPTIONS)  # one call per item
    assert stats["llm_succeeded"] == sum(answer is not None for answer in judged)
