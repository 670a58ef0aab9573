"""Precision and recall of the negation checker on the labelled caption set, with the
parse-based reader (``validate.parsed``) beside it.

``python -m negdata.validate.evaluate [cases.jsonl ...] [--vocabulary NAME] [--errors]``
(``make eval-negation``); the labels of the cases are of that vocabulary (default: coco). Each
file is scored on its own, under its name where there are several. ``--errors`` lists the rules'
wrong readings.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.detect.vocab import VocabularyName
from negdata.validate.negation import Polarity, analyze
from negdata.validate.parsed import analyze as analyze_parse

DEFAULT_CASES = Path("tests/data/negation_cases.jsonl")
CLASSES = ("negated", "affirmed", "unmentioned")


@dataclass(frozen=True)
class Outcome:
    case_id: str
    construction: str
    text: str
    label: str
    expected: str
    predicted: str


def label_polarity(predicted: Mapping[str, Polarity], label: str, lexicon: Lexicon) -> Polarity:
    """What the caption says of one label: its own polarity, else negated when a name that covers
    it is ("no animals": no dog either). An affirmed hypernym ("an animal") affirms no one label."""
    if label in predicted:
        return predicted[label]
    covered = (n for n, p in predicted.items() if p == "negated" and label in lexicon.members(n))
    return "negated" if any(covered) else "unmentioned"


Reader = Callable[[str, Lexicon], Mapping[str, Polarity]]
READERS: dict[str, Reader] = {"rules": analyze, "parse": analyze_parse}


def evaluate(
    path: Path, vocabulary: VocabularyName = "coco", reader: Reader = analyze
) -> list[Outcome]:
    lexicon = lexicon_for(vocabulary)
    outcomes = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        predicted = reader(case["text"], lexicon)
        for label, expected in case["objects"].items():
            outcomes.append(
                Outcome(
                    case["id"],
                    case["construction"],
                    case["text"],
                    label,
                    expected,
                    label_polarity(predicted, label, lexicon),
                )
            )
    return outcomes


def scores(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Per class: precision, recall and support."""
    result = {}
    for cls in CLASSES:
        tp = sum(1 for o in outcomes if o.predicted == cls and o.expected == cls)
        predicted = sum(1 for o in outcomes if o.predicted == cls)
        actual = sum(1 for o in outcomes if o.expected == cls)
        result[cls] = {
            "precision": tp / predicted if predicted else 1.0,
            "recall": tp / actual if actual else 1.0,
            "support": actual,
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cases", nargs="*", type=Path, default=[DEFAULT_CASES])
    parser.add_argument(
        "--vocabulary", choices=get_args(VocabularyName), default="coco", help="the cases' labels"
    )
    parser.add_argument("--errors", action="store_true", help="list every wrong prediction")
    args = parser.parse_args()
    for cases in args.cases:
        if len(args.cases) > 1:
            print(f"== {cases}")
        report(cases, args.vocabulary, args.errors)


def report(cases: Path, vocabulary: VocabularyName, errors: bool) -> None:
    """Each reader's precision and recall on ``cases``, and its errors by construction."""
    for name, reader in READERS.items():
        outcomes = evaluate(cases, vocabulary, reader)
        wrong = [o for o in outcomes if o.predicted != o.expected]
        print(f"{name}: {len({o.case_id for o in outcomes})} captions, {len(outcomes)} objects")
        for cls, s in scores(outcomes).items():
            print(f"  {cls:<12} precision {s['precision']:.3f}  recall {s['recall']:.3f}  "
                  f"(n={s['support']:.0f})")  # fmt: skip
        print(
            "  errors by construction:", dict(Counter(o.construction for o in wrong).most_common())
        )
        if errors and name == "rules":
            for o in wrong:
                print(
                    f"  {o.case_id} {o.label}: expected {o.expected}, got {o.predicted} | {o.text}"
                )


if __name__ == "__main__":
    main()
