"""bench/blind_backtest.py: blind sets scored by the checker that first saw them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from bench.blind_backtest import blind_sets, score, unplaced
from negdata.detect.lexicon import lexicon_for
from negdata.validate.evaluate import label_polarity
from negdata.validate.negation import analyze

LEX = lexicon_for("coco")


def _unplaced(text: str) -> bool:
    rules = analyze(text, LEX)
    return unplaced(text, lambda n: label_polarity(rules, n, LEX) == "negated", LEX.mentioned)


def test_a_negation_word_beside_objects_none_of_them_negated_is_unplaced() -> None:
    assert _unplaced("The boy is never without his dog, and there is no cat in sight.")
    assert _unplaced("Not a single slice of the pizza is missing; no forks on the table.")
    assert not _unplaced("A dog lies on the porch, with no cat in sight.")
    assert not _unplaced("Not a cloud in the sky, and no boats on the lake.")  # no object named


def test_score_counts_what_each_gate_publishes(tmp_path: Path) -> None:
    cases = [
        ("A dog lies on the porch, with no cat in sight.", {"dog": "affirmed"}),
        (
            "The boy is never without his dog, and there is no cat in sight.",
            {"person": "affirmed", "dog": "affirmed"},
        ),
    ]
    path = tmp_path / "set.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"t-{i}",
                    "construction": "scope",
                    "text": text,
                    "objects": {**objects, "cat": "negated", "bird": "unmentioned"},
                    "exclusive": False,
                    "counts": {},
                }
            )
            + "\n"
            for i, (text, objects) in enumerate(cases)
        )
    )
    found = score(path, "coco")
    assert found["true"] == 2
    assert found["published"]["plain"] == 2
    assert found["published"]["unplaced"] == 1  # "never without his dog" is refused
    both = found["published"]["both"]
    assert both <= min(found["published"]["agree"], found["published"]["unplaced"])
    assert found["false"] == 5  # each affirmed object gone, the cat there
    assert found["false_published"] == dict.fromkeys(found["false_published"], 0)


def test_each_blind_set_is_scored_at_the_commit_that_added_it() -> None:
    sets = blind_sets()
    names = [name for members in sets.values() for name, _, _ in members]
    assert {"held-out5", "unseen21"} <= set(names)
    for commit, members in sets.items():
        for _, file, _ in members:
            added = subprocess.run(
                ["git", "diff", "--name-only", "--diff-filter=A", f"{commit}^", commit],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            assert f"tests/data/{file}" in added
