import pytest

from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.compose.templates import mcq_options, template_caption, with_article
from negdata.detect.lexicon import lexicon_for
from negdata.validate.negation import polarity


def test_articles() -> None:
    assert with_article("bus") == "a bus"
    assert with_article("umbrella") == "an umbrella"
    assert with_article("people") == "people"
    assert with_article("cars") == "cars"


@pytest.mark.parametrize("style", ["affirmation_first", "negation_first"])
def test_template_captions_negate_the_object_and_affirm_the_rest(style: str) -> None:
    text = template_caption(style, "dog", ["bus", "person"], "A red bus.")  # type: ignore[arg-type]
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
