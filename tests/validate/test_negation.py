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
