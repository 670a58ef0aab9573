import re

import pytest

from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.compose.templates import (
    NEGATING_TAILS,
    NOTHING,
    OPENINGS,
    mcq_options,
    template_caption,
)
from negdata.detect.lexicon import lexicon_for
from negdata.records import Style
from negdata.validate.claims import meta_text
from negdata.validate.exclusivity import exclusive
from negdata.validate.gates import prompt_residue
from negdata.validate.negation import analyze, polarity

STYLES: tuple[Style, ...] = ("affirmation_first", "negation_first")
VARIANTS = range(len(OPENINGS) * len(NEGATING_TAILS))  # every pair of parts, in both styles
# (negated noun as the plan gives it, its label): singular, plural, mass, pluralia tantum,
# irregular, multi-word, a raw model class name.
NEGATED = [
    ("dog", "dog"), ("buses", "bus"), ("broccoli", "broccoli"), ("scissors", "scissors"),
    ("sheep", "sheep"), ("knives", "knife"), ("wine glass", "wine glass"),
    ("hair_drier", "hair drier"), ("umbrella", "umbrella"), ("skis", "skis"),
]  # fmt: skip
POSITIVES = [["bus"], ["boats"], ["person", "umbrella"], ["people", "bench", "bicycle"], []]
CAPTIONS = ["", "orange pompon dahlia in the garden, shallow depth of field", "Two boats."]
_AGREEMENT_ERROR = re.compile(
    r"\bthere is (?:a |an )?(?:no )?(buses|boats|scissors|sheep|knives|skis|people)\b"
    r"|\b(?:there|here) is (?:an? \w+ and|\w+s\b)"
    r"|\bthere are no (dog|bus|broccoli|umbrella|wine glass)\b"
    r"|\ba (?:umbrella|elephant|oven)\b|\ban? (?:people|boats|scissors|skis|broccoli)\b",
    re.IGNORECASE,
)


def test_template_captions_are_true_grammatical_and_varied() -> None:
    """Every phrasing, with every kind of noun: the negated label is negated, the positives are
    affirmed, no underscore, no article or number-agreement error, and nothing the gates
    reject whatever the evidence (a chat reply's "Here is", text about the picture itself)."""
    lex = lexicon_for("coco")
    frames = set()
    for style in STYLES:
        for negated, label in NEGATED:
            for positives in POSITIVES:
                if label in {lex.name(p) for p in positives}:
                    continue
                for caption in CAPTIONS:
                    for variant in VARIANTS:
                        text = template_caption(style, negated, positives, caption, variant)
                        polarities = analyze(text, lex)
                        assert polarities.get(label) == "negated", text
                        for p in positives:
                            assert polarities.get(lex.name(p) or p) == "affirmed", text
                        assert "_" not in text and not _AGREEMENT_ERROR.search(text), text
                        assert text[0].isupper() and text.endswith("."), text
                        assert not prompt_residue(text) and not meta_text(text), text
                        frames.add(text.replace(negated.replace("_", " "), "<neg>"))
    assert len({t for t in frames if "bus" in t and "dog" not in t}) >= 3
    assert len(frames) >= len(NOTHING) + len(OPENINGS) * len(NEGATING_TAILS)


def test_number_agreement_examples() -> None:
    assert template_caption("negation_first", "scissors", [], "") == (
        "There are no scissors in this picture."
    )
    assert template_caption("negation_first", "dog", ["boats"], "") == (
        "There is no dog in this picture, but there are boats."
    )
    assert template_caption("negation_first", "dog", ["person", "umbrella"], "") == (
        "There is no dog in this picture, but there are a person and an umbrella."
    )
    assert template_caption("affirmation_first", "broccoli", ["umbrella"], "") == (
        "A picture of an umbrella, but there is no broccoli."
    )
    assert template_caption("affirmation_first", "safety_vehicle", ["person"], "") == (
        "A picture of a person, but there is no safety vehicle."
    )


@pytest.mark.parametrize("style", STYLES)
def test_template_captions_negate_the_object_and_affirm_the_rest(style: Style) -> None:
    text = template_caption(style, "dog", ["bus", "person"], "A red bus.")
    lex = lexicon_for("coco")
    assert polarity(text, lex.terms("dog")) == "negated"
    assert polarity(text, lex.terms("bus")) == "affirmed"
    assert polarity(text, lex.terms("person")) == "affirmed"


def test_mcq_needs_real_objects() -> None:
    with pytest.raises(ValueError):
        mcq_options("hybrid", [], "dog")
    with pytest.raises(ValueError):
        mcq_options("hybrid", ["bus"], " ")


def test_mcq_positions_and_templates_are_balanced() -> None:
    balancer = McqBalancer("seed")
    mcqs = [build_mcq(f"k{i}", ["bus", "person"], "dog", balancer, "h") for i in range(12)]
    positions = [m.correct_answer for m in mcqs]
    assert sorted(positions) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    templates = [m.correct_answer_template for m in mcqs]
    assert {t: templates.count(t) for t in set(templates)} == {
        "affirmation": 4,
        "negation": 4,
        "hybrid": 4,
    }
    for m in mcqs:
        options = [m.caption_0, m.caption_1, m.caption_2, m.caption_3]
        assert len(set(options)) == 4
        correct = options[m.correct_answer]
        assert "not a bus" not in correct and "features a dog" not in correct


def test_paraphrases_that_keep_every_polarity_replace_the_template_text() -> None:
    from negdata.compose.paraphrase import apply_paraphrase, options_of

    mcq = build_mcq("k", ["bus", "person"], "dog", McqBalancer("p"), "h")
    templates = options_of(mcq)
    lexicon = lexicon_for("coco")
    flipped = {
        "This image features a bus and a person.": "There is no bus here, only a person.",
        "This image does not feature a dog.": "A dog is nowhere to be seen in this picture.",
        "This image features a bus, but not a dog.": "A bus drives by and there is no dog.",
        "This image features a dog, but not a bus.": "A dog is here, but no bus.",
        "This image features a dog.": "You can spot a dog in this photo.",
        "This image does not feature a bus.": "A bus is absent from this photo.",
    }
    paraphrases = [flipped[t] for t in templates]
    out = apply_paraphrase(mcq, paraphrases, lexicon, "paraphrase@1")
    for i, template in enumerate(templates):
        kept = getattr(out, f"caption_{i}")
        if template == "This image features a bus and a person.":
            assert kept == template and not out.paraphrased[i]  # "no bus" would flip the bus
        else:
            assert kept == flipped[template] and out.paraphrased[i]
    assert out.template_options == templates and out.correct_answer == mcq.correct_answer
    assert apply_paraphrase(mcq, None, lexicon, "p").paraphrased == [False] * 4


def test_a_paraphrase_that_adds_a_claim_the_gates_refuse_keeps_the_template_text() -> None:
    """A new noun nothing checks, text about the text or one object called another would get
    the whole question refused: the option keeps its template text instead."""
    from negdata.compose.paraphrase import apply_paraphrase, options_of

    mcq = build_mcq("k", ["bus", "person"], "dog", McqBalancer("p"), "h")
    lexicon = lexicon_for("coco")
    bad = [
        "A bus waits beside a wooden shelf, with no dog.",
        "As in the two images above, there is no dog.",
        "The bus is a dog.",
        "A lamp glows by the bus, and there is no dog.",
    ]
    out = apply_paraphrase(mcq, bad, lexicon, "paraphrase@1")
    assert options_of(out) == options_of(mcq) and out.paraphrased == [False] * 4


def test_a_template_says_only_or_just_only_when_its_objects_are_all_there_is() -> None:
    def texts(alone: bool) -> set[str]:
        return {
            template_caption("negation_first", "dog", ["bench"], "", variant, alone=alone)
            for variant in range(40)
        }

    assert not any(exclusive(text, lexicon_for("coco")) for text in texts(alone=False))
    assert {"No dog can be seen here, only a bench.", "No dog in sight, just a bench."} <= texts(
        alone=True
    )
