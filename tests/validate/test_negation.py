import pytest

from negdata.validate.negation import polarity

CASES = [
    ("A bus on the street, but there is no dog.", ["dog"], "negated"),
    ("A bus on the street, but there is no dog.", ["bus"], "affirmed"),
    ("There is no dog in the park; a cat sleeps on the bench.", ["cat"], "affirmed"),
    ("No cats, dogs or birds in the yard", ["dog"], "negated"),
    ("A bench with no people and a dog", ["dog"], "affirmed"),
    ("A bench with no people and a dog", ["person"], "negated"),
    ("The dog is nowhere to be seen.", ["dog"], "negated"),
    ("Not only a cat but also a dog", ["cat"], "affirmed"),
    ("The room doesn't have a TV", ["tv"], "negated"),
    ("A man without a hat and scarf", ["scarf"], "negated"),
    ("A man without a hat and scarf", ["man"], "affirmed"),
    ("A kitchen free of clutter with a sink", ["sink"], "affirmed"),
    ("The cat is missing from the sofa", ["cat"], "negated"),
    ("No doubt the bus is late", ["bus"], "affirmed"),
    ("A quiet street with no cars, but a bicycle leans on the wall", ["bicycle"], "affirmed"),
    ("A quiet street with no cars, but a bicycle leans on the wall", ["car"], "negated"),
    ("Two zebras graze in the savanna", ["giraffe"], "unmentioned"),
]


@pytest.mark.parametrize(("text", "terms", "expected"), CASES)
def test_polarity(text: str, terms: list[str], expected: str) -> None:
    assert polarity(text, terms) == expected


def test_checker_meets_the_target_on_the_labelled_set() -> None:
    from negdata.validate.evaluate import DEFAULT_CASES, evaluate, scores

    result = scores(evaluate(DEFAULT_CASES))
    for cls in ("negated", "affirmed"):
        assert result[cls]["precision"] >= 0.97, (cls, result[cls])
        assert result[cls]["recall"] >= 0.97, (cls, result[cls])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A hot dog on a bun, no ketchup.", {"hot dog": "affirmed"}),
        ("A teddy bear on the bed.", {"teddy bear": "affirmed", "bed": "affirmed"}),
        ("Nobody waits at the bus stop.", {"person": "negated"}),
        ("A dog-free beach with an umbrella.", {"dog": "negated", "umbrella": "affirmed"}),
        ("No animals in the field, just a tractor.", {"animal": "negated"}),
        ("The remote is missing, but the TV is on.", {"remote": "negated", "tv": "affirmed"}),
        ("None of the chairs are occupied.", {"chair": "affirmed"}),
    ],
)
def test_analyze_resolves_every_name(text: str, expected: dict[str, str]) -> None:
    from negdata.detect.lexicon import lexicon_for
    from negdata.validate.negation import analyze

    assert analyze(text, lexicon_for("coco")) == expected
