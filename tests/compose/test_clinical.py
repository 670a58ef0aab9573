"""Report-style template captions and MCQs for the CheXpert vocabulary, checked by the same
negation checker and gates that publish them."""

from __future__ import annotations

import pytest

from negdata.compose.captions import image_plan
from negdata.compose.clinical import AFFIRMING_FIRST, NEGATING_FIRST, clinical_caption
from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.config import Config
from negdata.detect.lexicon import lexicon_for
from negdata.records import CaptionRecord, Evidence, LabelScore, ObjectVerdict, PlanRecord, Style
from negdata.validate.gates import CaptionGate, mcq_gate
from negdata.validate.negation import analyze

LEXICON = lexicon_for("chexpert")
CFG = Config.model_validate(
    {
        "input": {"path": "unused.tsv"},
        "detect": {"vocabulary": "chexpert", "sources": [{"kind": "chexpert", "path": "x.csv"}]},
        "compose": {"template_fallback": True},
    }
)
# cardiomegaly and support devices 1, pleural effusion and pneumothorax 0, pneumonia -1.
EV = Evidence(
    key="k",
    boxes=[],
    scores=[
        LabelScore(label="cardiomegaly", score=1.0, lowest=1.0),
        LabelScore(label="support devices", score=1.0, lowest=1.0),
        LabelScore(label="pleural effusion", score=0.0, lowest=0.0),
        LabelScore(label="pneumothorax", score=0.0, lowest=0.0),
        LabelScore(label="pneumonia", score=0.3, lowest=0.3),
    ],
    sources=["chexpert:labels.csv"],
)


@pytest.mark.parametrize(
    ("noun", "label"),
    [
        ("enlarged heart", "cardiomegaly"),
        ("collapsed lung", "pneumothorax"),
        ("fluid around the lungs", "pleural effusion"),
        ("effusions", "pleural effusion"),
        ("broken ribs", "fracture"),
        ("lines and tubes", "support devices"),
        ("a pacemaker", "support devices"),
        ("bibasilar atelectasis", "atelectasis"),
        ("pulmonary nodules", "lung lesion"),
        ("pneumothoraces", "pneumothorax"),
        ("heart", None),
    ],
)
def test_radiology_words_map_to_findings(noun: str, label: str | None) -> None:
    assert LEXICON.name(noun) == label


def test_radiology_words_mean_nothing_in_coco() -> None:
    coco = lexicon_for("coco")
    assert coco.name("pleural effusion") is None and coco.name("line") is None
    assert coco.name("device") == "device"  # COCO's own hypernym of electronics, unchanged


def test_the_hierarchy_makes_a_parent_cover_its_children() -> None:
    assert LEXICON.members("lung opacity") >= {"lung opacity", "edema", "pneumonia"}
    assert LEXICON.members("enlarged cardiomediastinum") == {
        "enlarged cardiomediastinum",
        "cardiomegaly",
    }
    assert "support devices" not in LEXICON.members("abnormality")


@pytest.mark.parametrize("style", ["affirmation_first", "negation_first"])
def test_every_clinical_frame_negates_the_finding_and_affirms_the_rest(style: Style) -> None:
    frames = AFFIRMING_FIRST if style == "affirmation_first" else NEGATING_FIRST
    for variant in range(len(frames)):
        text = clinical_caption(
            style, "pleural effusion", ["cardiomegaly", "support devices"], "", variant
        )
        assert analyze(text, LEXICON) == {
            "pleural effusion": "negated",
            "cardiomegaly": "affirmed",
            "support devices": "affirmed",
        }, text
        assert " a " not in f" {text.lower()} "  # findings take no article


def test_clinical_captions_read_like_an_impression() -> None:
    assert clinical_caption("affirmation_first", "pleural effusion", ["cardiomegaly"], "") == (
        "Cardiomegaly. No pleural effusion."
    )
    assert clinical_caption("affirmation_first", "pleural effusion", ["cardiomegaly"], "", 1) == (
        "Cardiomegaly without pleural effusion."
    )
    assert (
        clinical_caption("negation_first", "pneumothorax", ["edema"], "")
        == "No pneumothorax. Edema."
    )
    assert clinical_caption("affirmation_first", "fracture", [], "Frontal chest radiograph.") == (
        "Frontal chest radiograph. No fracture."
    )
    assert clinical_caption("negation_first", "fracture", [], "") == "No fracture."


def _row(text: str, negated: str = "pleural effusion") -> CaptionRecord:
    return CaptionRecord(
        key="k_0", image_key="k", caption=text, negated=negated, negated_label=negated,
        style="affirmation_first", generator="template", affirmed=["cardiomegaly"],
        original_caption="Chest radiograph, possible pneumonia.",
        prompt=None, model=None, config_hash="h",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Cardiomegaly. No pleural effusion.", None),
        ("Cardiomegaly and pacemaker, without pleural effusion or pneumothorax.", None),
        # the original caption names pneumonia, but its label is -1: neither way is allowed
        ("Cardiomegaly and pneumonia. No pleural effusion.", "affirms_undecided"),
        ("Cardiomegaly. No pleural effusion or pneumonia.", "negates_undecided"),
        # edema is blank: the report never mentioned it
        ("Cardiomegaly. No pleural effusion and no edema.", "negates_undecided"),
        ("Edema. No pleural effusion.", "affirms_undecided"),
        ("No cardiomegaly. No pleural effusion.", "negates_present"),
    ],
)
def test_a_clinical_caption_states_only_what_the_labels_decide(
    text: str, reason: str | None
) -> None:
    assert CaptionGate(CFG, LEXICON).check(_row(text), EV) == reason


def test_an_uncertain_mention_is_never_affirmed_by_the_plan() -> None:
    record = PlanRecord(
        key="k",
        caption="Chest radiograph, possible pneumonia.",
        mentioned=[
            ObjectVerdict(noun="pneumonia", label="pneumonia", verdict="uncertain", score=0.3),
        ],
        candidates=[
            ObjectVerdict(
                noun="pleural effusion", label="pleural effusion", verdict="absent", score=0.0
            ),
            ObjectVerdict(noun="pneumonia", label="pneumonia", verdict="uncertain", score=0.3),
        ],
        detected=["cardiomegaly", "support devices"],
        prompt="plan@1",
    )
    plan = image_plan(record, CFG)
    assert plan.affirm == plan.present == ["cardiomegaly", "support devices"]
    assert [n.label for n in plan.negatives] == ["pleural effusion"]


def test_clinical_mcqs_pass_the_gate_with_the_right_answer_true() -> None:
    balancer = McqBalancer("seed")
    for _ in range(6):  # every template, in turn
        mcq = build_mcq(
            "k",
            ["cardiomegaly", "support devices"],
            "pleural effusion",
            balancer,
            "h",
            clinical=True,
        )
        options = [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
        assert all(o.startswith("The radiograph shows ") for o in options)
        assert mcq_gate(mcq, EV, LEXICON, CFG) is None, options
    uncertain = build_mcq("k", ["cardiomegaly"], "pneumonia", balancer, "h", clinical=True)
    assert mcq_gate(uncertain, EV, LEXICON, CFG) == "mcq_unverifiable"


def test_negex_reads_every_clinical_template_caption_as_the_checker_does() -> None:
    from bench.clinical_negation import negex_checker, score, template_cases

    cases = template_cases(LEXICON)
    negex = score(cases, negex_checker(LEXICON), LEXICON)
    ours = score(cases, lambda text: analyze(text, LEXICON), LEXICON)
    assert ours["errors"] == [] and negex["errors"] == [], negex["errors"][:3]
    assert negex["objects"] == ours["objects"] > 700


def test_the_vocabulary_fill_negates_no_parent_of_an_uncertain_finding() -> None:
    from negdata.compose.plan import plan_record

    cfg = CFG.model_copy(update={"plan": CFG.plan.model_copy(update={"vocabulary_fill": True})})
    evidence = EV.model_copy(
        update={"scores": [*EV.scores, LabelScore(label="consolidation", score=0.0, lowest=0.0)]}
    )
    record = plan_record(evidence, "Chest radiograph.", None, cfg, "plan@1")
    negatives = {c.label for c in record.candidates if c.verdict == "absent"}
    # consolidation is labelled 0, but it covers pneumonia, which is uncertain
    assert negatives == {"pleural effusion", "pneumothorax"}
    assert record.detected == ["cardiomegaly", "support devices"]
