"""Plan verification: nouns -> labels -> verdicts against the evidence; what may be negated."""

from __future__ import annotations

from pathlib import Path

from negdata.compose.captions import counted_plan, image_plan
from negdata.compose.cooccurrence import Cooccurrence
from negdata.compose.plan import plan_record
from negdata.compose.schemas import PlanOutput
from negdata.compose.templates import template_caption
from negdata.config import Config
from negdata.detect.base import Detection, combine
from negdata.detect.lexicon import lexicon_for
from negdata.detect.vocab import COCO80
from negdata.records import Box, Evidence, LabelScore

CFG = Config.model_validate(
    {
        "input": {"path": "unused.tsv"},
        "detect": {"sources": [{"kind": "labels", "path": "unused.json"}]},
        "compose": {"captions_per_image": 3},
    }
)


def _evidence(**scores: float) -> Evidence:
    return Evidence(
        key="000000000",
        boxes=[],
        scores=[LabelScore(label=k.replace("_", " "), score=v) for k, v in scores.items()],
        sources=["test"],
    )


EV = _evidence(bus=0.9, person=0.8, dog=0.02, cat=0.3, bicycle=0.0, dining_table=0.0)


def test_verdicts_follow_thresholds_and_coverage() -> None:
    output = PlanOutput(
        mentioned=["bus", "pedestrians", "street"],
        absent_candidates=["dogs", "cat", "giraffe", "lamp post", "bike", "table"],
    )
    record = plan_record(EV, "A red bus and pedestrians on a street", output, CFG, "plan@1")
    assert [(m.noun, m.label, m.verdict) for m in record.mentioned] == [
        ("bus", "bus", "present"),
        ("pedestrians", "person", "present"),
        ("street", None, "unverifiable"),
    ]
    verdicts = {c.noun: c.verdict for c in record.candidates}
    assert verdicts == {
        "dogs": "absent",
        "cat": "uncertain",
        "giraffe": "unverifiable",  # COCO, but no source covers it here
        "lamp post": "unverifiable",
        "bike": "absent",
        "table": "absent",
    }
    assert record.detected == ["bus", "person"]


def test_invented_mentions_and_candidates_named_by_the_caption_are_dropped() -> None:
    output = PlanOutput(
        mentioned=["bus", "dog", "person", "styled by driver"],
        absent_candidates=["bicycle", "bike"],
    )
    record = plan_record(EV, "a driver takes a bus past a bicycle shop", output, CFG, "plan@1")
    # no dog in the caption; "person" is a lexicon term whose synonym "driver" is; the invented
    # phrase "styled by driver" is not in the caption although its head word maps to person
    assert [m.noun for m in record.mentioned] == ["bus", "person"]
    assert record.candidates == []  # the caption names a bicycle: never negate it


def test_only_verified_absent_objects_are_negated_one_per_label() -> None:
    output = PlanOutput(
        mentioned=["bus"], absent_candidates=["dog", "puppy", "cat", "giraffe", "bike", "table"]
    )
    plan = image_plan(plan_record(EV, "a bus", output, CFG, "plan@1"), CFG)
    assert [n.noun for n in plan.negatives] == ["dog", "bike", "table"]
    assert plan.affirm == ["bus"] and plan.present == ["bus"]
    assert set(plan.styles) <= {"affirmation_first", "negation_first"}


def test_vocabulary_fill_tops_up_with_unmentioned_absent_labels() -> None:
    cfg = CFG.model_copy(update={"plan": CFG.plan.model_copy(update={"vocabulary_fill": True})})
    seen_with_a_bus = _evidence(bus=0.9, dog=0.9, dining_table=0.9, bicycle=0.9, cat=0.9)
    company = Cooccurrence.of([EV, seen_with_a_bus], CFG.detect)
    record = plan_record(EV, "a bicycle", None, cfg, "plan@1", company)
    filled = {c.label for c in record.candidates}
    assert filled == {"dog", "dining table"}  # bicycle is named by the caption, cat is uncertain
    assert all(c.verdict == "absent" for c in record.candidates)


def test_prompts_render_with_shared_prefix() -> None:
    from negdata.llm.prompts import load_prompt

    prompt = load_prompt(Path("prompts"), "plan")
    a = prompt.messages(caption="a bus", detected="bus")
    b = prompt.messages(caption="a cat", detected="cat")
    assert a[:-1] == b[:-1] and a[-1] != b[-1]
    assert prompt.ref.startswith("plan@1#")


def test_rotated_few_shot_keeps_the_system_prompt_and_every_example() -> None:
    from negdata.llm.prompts import load_prompt

    prompt = load_prompt(Path("prompts"), "compose")
    fields = {"caption": "a bus", "affirm": "bus", "requests": "[]"}
    fixed = prompt.messages(**fields)
    rotated = prompt.messages(1, **fields)

    assert rotated[0] == fixed[0] and rotated[-1] == fixed[-1]
    pairs = [
        tuple(m["content"] for m in turns[i : i + 2])
        for turns in (fixed, rotated)
        for i in range(1, len(turns) - 1, 2)
    ]
    half = len(pairs) // 2
    assert pairs[half:] == pairs[1:half] + pairs[:1]  # same examples, first one moved last
    assert prompt.messages(len(prompt.few_shot), **fields) == fixed


def _scored(*scores: tuple[str, float, float]) -> Evidence:
    return Evidence(
        key="000000007",
        boxes=[],
        scores=[LabelScore(label=k, score=hi, lowest=lo) for k, hi, lo in scores],
        sources=["yolo", "labels"],
    )


RETINA = "Fundus photograph of a healthy retina"


def test_a_weak_detection_alone_is_affirmed_nowhere() -> None:
    """The retina photo: one source at 0.52 on a person nobody named (the labels, where they
    cover the image, say 0). Nothing may affirm a person: no caption, no MCQ positive."""
    output = PlanOutput(mentioned=["retina"], absent_candidates=["dog"])
    for person in ((0.52, 0.52), (0.52, 0.0)):  # no labels for it / labels that say no
        record = plan_record(_scored(("person", *person), ("dog", 0.0, 0.0)), RETINA, output,
                             CFG, "plan@1")  # fmt: skip
        plan = image_plan(record, CFG)

        assert record.detected == [] and plan.present == []
        assert plan.affirm == ["retina"]  # what the caption itself says, nothing more
        assert [n.noun for n in plan.negatives] == ["dog"]
        for style in ("affirmation_first", "negation_first"):
            assert "person" not in template_caption(style, "dog", plan.present, RETINA)


def test_only_strong_evidence_that_no_source_doubts_affirms_an_unnamed_object() -> None:
    output = PlanOutput(mentioned=[], absent_candidates=[])

    def detected(hi: float, lo: float) -> list[str]:
        return plan_record(_scored(("person", hi, lo)), RETINA, output, CFG, "p@1").detected

    assert detected(0.9, 0.9) == ["person"]
    assert detected(0.9, 0.3) == []  # a second source doubts it
    assert detected(0.79, 0.79) == []  # under detect.t_affirm (0.8)


def test_combined_evidence_keeps_the_highest_and_the_lowest_score_of_the_sources() -> None:
    seen = combine("k", ["yolo", "labels"], [
        Detection(scores={"person": 0.52, "dog": 0.9}), Detection(scores={"person": 0.0}),
    ])  # fmt: skip
    assert [(s.label, s.score, s.lowest) for s in seen.scores] == [
        ("dog", 0.9, 0.9),
        ("person", 0.52, 0.0),
    ]


def _photo(key: str, present: set[str]) -> Evidence:
    kitchen = ("pizza", "fork", "knife", "cup", "elephant", "giraffe", "boat")
    scores = [LabelScore(label=k, score=1.0 if k in present else 0.0) for k in kitchen]
    return Evidence(key=key, boxes=[], scores=scores, sources=["labels"])


def test_the_fill_negates_only_what_keeps_company_with_what_is_there() -> None:
    """Beside a pizza, "no fork" and "no knife" (seen with pizzas elsewhere in the shard), then
    "no cup"; never an elephant, a giraffe or a boat, which keep no company with a pizza."""
    shard = [
        _photo("000000000", {"pizza"}),
        _photo("000000001", {"pizza", "fork", "knife"}),
        _photo("000000002", {"pizza", "fork", "cup"}),
        _photo("000000003", {"elephant", "giraffe"}),
    ]
    company = Cooccurrence.of(shard, CFG.detect)
    cfg = CFG.model_copy(update={"plan": CFG.plan.model_copy(update={"vocabulary_fill": True})})

    record = plan_record(shard[0], "a pizza", None, cfg, "plan@1", company)

    labels = [c.label for c in record.candidates]
    assert labels[0] == "fork"  # seen with a pizza twice
    assert set(labels[1:]) == {"knife", "cup"}  # once each, and nothing else could be there


def test_without_company_in_the_shard_the_fill_negates_cocos_kin_of_what_is_there() -> None:
    """A cup alone in its shard: "no fork", "no bowl" (COCO's kitchen), not "no giraffe"; a
    photo showing nothing known gets no negative at all, and so no negated caption."""
    cfg = CFG.model_copy(update={"plan": CFG.plan.model_copy(update={"vocabulary_fill": True})})

    def photo(key: str, present: set[str]) -> Evidence:
        scores = [LabelScore(label=k, score=float(k in present)) for k in COCO80]
        return Evidence(key=key, boxes=[], scores=scores, sources=["labels"])

    kitchen = {"bottle", "wine glass", "fork", "knife", "spoon", "bowl"}
    cup, galaxy = photo("000000000", {"cup"}), photo("000000001", set())
    company = Cooccurrence.of([cup, galaxy], CFG.detect)

    record = plan_record(cup, "a mug of tea", None, cfg, "plan@1", company)
    labels = [c.label for c in record.candidates]
    assert len(labels) == cfg.plan.min_candidates and set(labels) <= kitchen

    record = plan_record(galaxy, "deep field galaxies", None, cfg, "plan@1", company)
    assert record.candidates == []
    assert image_plan(record, cfg).negatives == []


def test_the_plan_counts_what_the_boxes_count_and_negates_vocabulary_terms() -> None:
    """Two person boxes: "men", never "a man" (nor a number, which a detector may undercount);
    the LLM's "big cat, bear", verified as bear, is negated as "bear"; a template may say
    "only" when its objects are all there is."""
    boxes = [
        Box(label="person", score=s, x0=0, y0=0, x1=9, y1=9, source="yolo:t") for s in (0.9, 0.7)
    ]
    ev = _evidence(bus=0.9, person=0.8, bear=0.0, dog=0.0).model_copy(update={"boxes": boxes})
    output = PlanOutput(mentioned=["bus", "man"], absent_candidates=["big cat, bear", "dog"])
    record = plan_record(ev, "a man and a bus", output, CFG, "plan@1")

    plan = counted_plan(image_plan(record, CFG), ev, CFG, lexicon_for("coco"))

    assert plan.present == ["bus", "men"]
    assert [n.noun for n in plan.negatives] == ["bear", "dog"]
    assert plan.alone  # the bus and the men are everything present
    with_a_cat = ev.model_copy(update={"scores": [*ev.scores, LabelScore(label="cat", score=0.9)]})
    assert not counted_plan(image_plan(record, CFG), with_a_cat, CFG, lexicon_for("coco")).alone
