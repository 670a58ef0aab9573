"""The negation checker on radiology report phrasing, over the CheXpert findings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from negdata.detect.lexicon import lexicon_for
from negdata.validate.evaluate import evaluate, scores
from negdata.validate.negation import analyze

DATA = Path(__file__).parents[1] / "data"
CLINICAL_CASES = DATA / "negation_clinical.jsonl"
LEXICON = lexicon_for("chexpert")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Negative for pneumothorax.", {"pneumothorax": "negated"}),
        ("Pneumothorax is ruled out.", {"pneumothorax": "negated"}),
        ("A pneumothorax was not seen.", {"pneumothorax": "negated"}),
        ("No evidence of pleural effusion.", {"pleural effusion": "negated"}),
        (
            "Cardiomegaly without pleural effusion.",
            {"cardiomegaly": "affirmed", "pleural effusion": "negated"},
        ),
        ("Absence of any pleural effusion.", {"pleural effusion": "negated"}),
        ("The lungs are free of consolidation.", {"consolidation": "negated"}),
        ("Resolved left pleural effusion.", {"pleural effusion": "negated"}),
        ("The right pneumothorax has resolved.", {"pneumothorax": "negated"}),
        ("Resolving pneumonia.", {"pneumonia": "affirmed"}),
        ("No left pleural effusion.", {"pleural effusion": "negated"}),
        ("Heart size is normal.", {"cardiomegaly": "negated"}),
        ("The cardiac silhouette is enlarged.", {"cardiomegaly": "affirmed"}),
        ("Cannot exclude a small pneumothorax.", {}),
        ("Atelectasis versus pneumonia.", {}),
        ("Unremarkable chest radiograph.", {}),
    ],
)
def test_report_phrasing(text: str, expected: dict[str, str]) -> None:
    assert analyze(text, LEXICON) == expected


def test_report_phrasing_leaves_everyday_captions_alone() -> None:
    coco = lexicon_for("coco")
    assert analyze("The bus left the station; no car is in sight.", coco) == {
        "bus": "affirmed",
        "car": "negated",
    }


def test_checker_meets_the_target_on_the_clinical_cases() -> None:
    result = scores(evaluate(CLINICAL_CASES, "chexpert"))
    for cls in ("negated", "affirmed", "unmentioned"):
        assert result[cls]["precision"] >= 0.97, (cls, result[cls])
        assert result[cls]["recall"] >= 0.97, (cls, result[cls])


def test_the_evaluation_command_scores_each_set_it_is_given_under_its_name() -> None:
    sets = [DATA / "negation_dev2.jsonl", DATA / "negation_dev3.jsonl"]
    done = subprocess.run(
        [sys.executable, "-m", "negdata.validate.evaluate", *map(str, sets)],
        capture_output=True,
        text=True,
        check=True,
    )
    for path in sets:
        one = subprocess.run(
            [sys.executable, "-m", "negdata.validate.evaluate", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert f"== {path}\n{one.stdout}" in done.stdout


def test_the_evaluation_command_takes_a_vocabulary() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "negdata.validate.evaluate",
            str(CLINICAL_CASES),
            "--vocabulary",
            "chexpert",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("rules: 102 captions")
    assert "\nparse: 102 captions" in done.stdout  # the second reader beside the rules
    assert done.stdout.count("negated      precision") == 2
