"""The parse-based reader: negation from the tree (determiner "no", "without", a negated verb
that says whether something is there, predicates of absence), conjuncts, contrasts, hedges."""

from __future__ import annotations

import pytest

from negdata.detect.lexicon import lexicon_for
from negdata.validate.parsed import analyze

COCO = lexicon_for("coco")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("There is no dog on the bench.", {"dog": "negated", "bench": "affirmed"}),
        ("A man rides a bicycle without a helmet or a bag.", {"person": "affirmed",
         "bicycle": "affirmed", "bag": "negated"}),
        ("No cats, dogs, or birds are visible.", {"cat": "negated", "dog": "negated",
         "bird": "negated"}),
        ("There is no car, only a motorcycle and a bench.", {"car": "negated",
         "motorcycle": "affirmed", "bench": "affirmed"}),
        ("The dog is not sleeping on the couch.", {"dog": "affirmed", "couch": "affirmed"}),
        ("The dog is not visible in this picture.", {"dog": "negated"}),
        ("The bus is nowhere to be seen.", {"bus": "negated"}),
        ("A kitchen free of knives, with two cups on the table.", {"knife": "negated",
         "cup": "affirmed", "dining table": "affirmed"}),
        ("The room lacks a bed.", {"bed": "negated"}),
        ("The photo has no one in it, just a bench.", {"person": "negated", "bench": "affirmed"}),
        ("There might be a bear in these woods, but no person.", {"person": "negated"}),
        ("Men in suits wait for a bus.", {"person": "affirmed"}),
        ("A bus stop with no cars.", {"car": "negated"}),  # "bus stop": no bus
        ("The fire hydrant was removed from the corner.", {"fire hydrant": "negated"}),
        ("There's no trace of the cake, just a fork.", {"cake": "negated", "fork": "affirmed"}),
        ("The teddy-bear is on the bed.", {"teddy bear": "affirmed", "bed": "affirmed"}),
        # phrases that name no object: no people, no ball; "stop" tagged a verb is still a stop
        ("A couple of suitcases wait by the door, with no backpack.", {"suitcase": "affirmed",
         "backpack": "negated"}),
        ("No cat, although its bowl and a ball of yarn sit by the door.", {"cat": "negated",
         "bowl": "affirmed"}),
        ("No one at the bus stop this morning.", {"person": "negated"}),
        ("No fat orange tabby cats on the sill.", {"cat": "negated"}),  # a colour, no fruit
        # a glass-topped desk is a desk
        ("A laptop on a glass-topped desk, no mouse.", {"laptop": "affirmed", "mouse": "negated"}),
        # an owner is there where it wears what it owns, is a thing, or is talked of again
        ("Grandma's cake on the table, no forks.", {"cake": "affirmed",
         "dining table": "affirmed", "fork": "negated"}),
        ("The man's tie is loosened, no cup.", {"tie": "affirmed", "person": "affirmed",
         "cup": "negated"}),
        ("A girl's bicycle by the fence while she eats, no dog.", {"bicycle": "affirmed",
         "person": "affirmed", "dog": "negated"}),
        ("The man's dog sits at his feet, no cat.", {"dog": "affirmed", "person": "affirmed",
         "cat": "negated"}),
        ("The teddy bear's owner is not in the picture.", {"teddy bear": "affirmed",
         "person": "negated"}),
        # an animal's kin, a sign's text and a checklist's open answer are not there
        ("A foal and its mother, no sheep.", {"horse": "affirmed", "sheep": "negated"}),
        ("No cats in the café, despite the sign welcoming pets.", {"cat": "negated"}),
        ("Laptop: present. Keyboard: equivocal.", {"laptop": "affirmed"}),
        ("Two men shake hands; neither is wearing a tie.", {"person": "affirmed",
         "tie": "negated"}),
        ("Neither the motorcycle nor the truck is in the driveway.", {"motorcycle": "negated",
         "truck": "negated"}),
        ("An elephant with its calf; no humans present.", {"elephant": "affirmed",
         "person": "negated"}),
        # absence in a verb's form: "missing" tagged as "miss", a passive "seen"
        ("The apple is missing from this image.", {"apple": "negated"}),
        ("Fridge is not seen here.", {"refrigerator": "negated"}),
        ("The cat is not pictured, but a fridge is seen.", {"cat": "negated",
         "refrigerator": "affirmed"}),
        ("With nary a chair to sit on, guests stand.", {"chair": "negated", "person": "affirmed"}),
        # a verb the small model tags as a noun, an animal's kin, the camera, a hashtag
        ("A passenger jet taxis toward the runway, with no trucks nearby.", {"airplane":
         "affirmed", "truck": "negated"}),
        ("A flock of sheep crowds the lane, and there is no car.", {"sheep": "affirmed",
         "car": "negated"}),
        ("Elephant family crossing a dirt road. No vehicles in sight.", {"elephant": "affirmed",
         "vehicle": "negated"}),
        ("Ducklings follow their mother across the lawn; no cats.", {"bird": "affirmed",
         "cat": "negated"}),
        ("A calf nurses beside her mother, with no foals.", {"cow": "affirmed",
         "horse": "negated"}),
        ("Two giraffes, a mother and her calf, and no zebras.", {"giraffe": "affirmed",
         "zebra": "negated"}),
        ("Skyline from the park, lone bench, no people, shot on iPhone 11", {"bench": "affirmed",
         "person": "negated"}),
        ("Shot on my phone, a cat sleeps on the chair with no dog.", {"cat": "affirmed",
         "chair": "affirmed", "dog": "negated"}),
        ("A tourist photographs the tower with her phone, no dog.", {"person": "affirmed",
         "cell phone": "affirmed", "dog": "negated"}),
        ("Table set for twelve, no dogs yet #family", {"dining table": "affirmed",
         "dog": "negated"}),
        ("The man has left his pickup running, but no dog.", {"person": "affirmed",
         "truck": "affirmed", "dog": "negated"}),
        ("The cake, which the baker finished at dawn, stands where there are no knives.",
         {"cake": "affirmed", "knife": "negated"}),
        ("A parked pickup truck with nobody around and no dog in the bed.", {"truck":
         "affirmed", "person": "negated", "dog": "negated"}),
        ("Someone has left a rucksack by the front door, but no handbag.",
         {"backpack": "affirmed", "handbag": "negated"}),
        ("Someone is holding an umbrella, no dog.", {"person": "affirmed", "umbrella":
         "affirmed", "dog": "negated"}),
        ("A lone horse is the sole resident of the paddock, with no dogs around.",
         {"horse": "affirmed", "dog": "negated"}),
        ("A resident walks by; no dog.", {"person": "affirmed", "dog": "negated"}),
        ("Pic: Yellow taxi at night, Times Sq. No pedestrians. Shot on iPhone", {"car":
         "affirmed", "person": "negated"}),
    ],
)  # fmt: skip
def test_the_parse_reads_negation(text: str, expected: dict[str, str]) -> None:
    assert analyze(text, COCO) == expected
