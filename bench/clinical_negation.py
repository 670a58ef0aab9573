"""negdata's negation checker against NegEx (negspacy, its clinical termset) on radiology text.

NegEx runs on a blank spaCy pipeline (``spacy.blank("en")`` and a sentencizer, no model) whose
entity ruler is built from the ``chexpert`` lexicon: every surface term of every finding and
hypernym, singular and plural. A finding NegEx marks negated is negated, any other it finds
affirmed (NegEx has no notion of a hedge), one it does not find unmentioned. Both are scored on
the labelled clinical cases (``tests/data/negation_clinical.jsonl``) and on every report-style
template caption negdata writes (``negdata.compose.clinical``), whose truth is known by
construction.

``python -m bench.clinical_negation [--errors]`` (``make eval-clinical``; negspacy comes with the
``test`` extra).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from negdata.compose.clinical import (
    AFFIRMING_FIRST,
    NEGATING_FIRST,
    NOTHING,
    clinical_caption,
    clinical_pair_captions,
)
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.english import plural
from negdata.validate.evaluate import CLASSES, Outcome, label_polarity
from negdata.validate.negation import Polarity, analyze

CASES = Path("tests/data/negation_clinical.jsonl")
Checker = Callable[[str], dict[str, Polarity]]
Case = tuple[str, str, dict[str, str]]  # id, text, {label: expected polarity}


def negex_checker(lexicon: Lexicon, termset_name: str = "en_clinical") -> Checker:
    """NegEx over an entity ruler of the lexicon's terms, on a blank English pipeline, with
    negspacy's cue set ``termset_name`` (``en_clinical`` or the general ``en``)."""
    import spacy
    from negspacy.negation import Negex  # noqa: F401  (registers the "negex" factory)
    from negspacy.termsets import termset

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")  # NegEx's scope ends at a sentence
    ruler = nlp.add_pipe("entity_ruler", config={"phrase_matcher_attr": "LOWER"})
    patterns = []
    for name in lexicon.names():
        for term in lexicon.terms(name):
            for form in {term, plural(term)}:
                patterns.append({"label": "FINDING", "pattern": form, "id": name})
    ruler.add_patterns(patterns)  # type: ignore[attr-defined]
    cues = termset(termset_name).get_patterns()  # type: ignore[no-untyped-call]
    nlp.add_pipe("negex", config={"neg_termset": cues, "ent_types": ["FINDING"]})

    def check(text: str) -> dict[str, Polarity]:
        found: dict[str, Polarity] = {}
        for ent in nlp(text).ents:
            polarity: Polarity = "negated" if ent._.negex else "affirmed"
            if found.get(ent.ent_id_) != "affirmed":
                found[ent.ent_id_] = polarity
        return found

    return check


def labelled_cases(path: Path) -> list[Case]:
    cases = []
    for line in path.read_text().splitlines():
        if line.strip():
            case = json.loads(line)
            cases.append((case["id"], case["text"], case["objects"]))
    return cases


def template_cases(lexicon: Lexicon) -> list[Case]:
    """Every frame of the clinical templates, over pairs of findings: the negated one negated,
    the affirmed ones affirmed; and the NegPair impressions, the finding affirmed in the first
    and negated in the second."""
    labels = sorted(lexicon.vocabulary)
    cases: list[Case] = []
    for i, (neg, pos) in enumerate(itertools.permutations(labels, 2)):
        for style, frames in (
            ("affirmation_first", AFFIRMING_FIRST),
            ("negation_first", NEGATING_FIRST),
        ):
            variant = i % len(frames)
            text = clinical_caption(style, neg, [pos], "", variant)  # type: ignore[arg-type]
            cases.append((f"t{i}-{style}", text, {neg: "negated", pos: "affirmed"}))
        alone = clinical_caption("affirmation_first", neg, [], "", i % len(NOTHING))
        cases.append((f"t{i}-alone", alone, {neg: "negated"}))
        for shared in ([pos], []):  # a NegPair's two impressions: neg there, then not
            with_x, without_x = clinical_pair_captions(neg, shared, i)
            kept: dict[str, Polarity] = {label: "affirmed" for label in shared}
            cases.append((f"t{i}-pair-a{len(shared)}", with_x, {**kept, neg: "affirmed"}))
            cases.append((f"t{i}-pair-b{len(shared)}", without_x, {**kept, neg: "negated"}))
    return cases


def score(cases: Iterable[Case], check: Checker, lexicon: Lexicon) -> dict[str, Any]:
    outcomes = []
    started = time.perf_counter()
    for case_id, text, objects in cases:
        said = check(text)
        for label, expected in objects.items():
            got = label_polarity(said, label, lexicon)
            outcomes.append(Outcome(case_id, "", text, label, expected, got))
    seconds = time.perf_counter() - started
    result: dict[str, Any] = {"objects": len(outcomes), "seconds": round(seconds, 3)}
    for cls in CLASSES:
        tp = sum(1 for o in outcomes if o.predicted == cls == o.expected)
        predicted = sum(1 for o in outcomes if o.predicted == cls)
        actual = sum(1 for o in outcomes if o.expected == cls)
        result[cls] = (tp / predicted if predicted else 1.0, tp / actual if actual else 1.0, actual)
    result["errors"] = [o for o in outcomes if o.predicted != o.expected]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--errors", action="store_true", help="list NegEx's wrong predictions")
    args = parser.parse_args()
    lexicon = lexicon_for("chexpert")
    checkers: dict[str, Checker] = {
        "negdata": lambda text: analyze(text, lexicon),
        "negex": negex_checker(lexicon),
    }
    for title, cases in (
        (f"labelled cases ({args.cases})", labelled_cases(args.cases)),
        ("clinical template captions", template_cases(lexicon)),
    ):
        print(f"{title}: {len(cases)} texts")
        for name, check in checkers.items():
            r = score(cases, check, lexicon)
            parts = [
                f"{cls} P {r[cls][0]:.3f} R {r[cls][1]:.3f} (n={r[cls][2]})"
                for cls in CLASSES
                if r[cls][2]
            ]
            print(f"  {name:<8} {'  '.join(parts)}  [{r['seconds']:.2f} s]")
            if args.errors and name == "negex":
                for o in r["errors"]:
                    wrong = f"expected {o.expected}, got {o.predicted}"
                    print(f"    {o.case_id} {o.label}: {wrong} | {o.text}")


if __name__ == "__main__":
    main()
