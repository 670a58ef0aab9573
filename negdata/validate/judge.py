"""An optional LLM judge: which objects does a caption say are in the image, and which not?

A second opinion beside the rule checker (``negation.analyze``): ``judge_polarities`` asks the
``judge`` prompt once per caption and maps the answer back to the given object names;
``disagreement`` names the first object whose intended polarity the judge contradicts.

``python -m negdata.validate.judge [cases.jsonl] --endpoint URL --model NAME [--limit N]``
reports the judge's agreement with the labelled set and with the rule checker.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from negdata.config import LLMConfig
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.detect.vocab import normalize
from negdata.llm import run_structured
from negdata.llm.cache import ResponseCache
from negdata.llm.prompts import load_prompt
from negdata.validate.negation import Polarity, analyze

log = logging.getLogger(__name__)

PROMPT_ID = "judge"
DEFAULT_CASES = Path("tests/data/negation_cases.jsonl")
Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class JudgeOutput(BaseModel):
    """The judge's answer: object names the caption puts in the image, and those it rules out."""

    model_config = ConfigDict(extra="forbid")

    present: Annotated[list[Name], Field(max_length=12)]
    absent: Annotated[list[Name], Field(max_length=12)]


def read_answer(
    output: JudgeOutput, objects: Sequence[str], lexicon: Lexicon
) -> dict[str, Polarity]:
    """The judge's polarity of each given object it answered about, in the given order.

    An answer matches an object by its normalised phrase or by the lexicon name both resolve to
    ("tables" -> "dining table"); answers matching no object are ignored, and an object the judge
    puts in both lists is left out.
    """
    keys: dict[str, str] = {}
    for obj in objects:
        keys.setdefault(normalize(obj), obj)
        name = lexicon.name(obj)
        if name is not None:
            keys.setdefault(name, obj)

    def matched(answers: list[str]) -> set[str]:
        found = (keys.get(normalize(a)) or keys.get(lexicon.name(a) or "") for a in answers)
        return {obj for obj in found if obj is not None}

    present, absent = matched(output.present), matched(output.absent)
    if present & absent:
        log.debug("judge put %s in both lists; left out", sorted(present & absent))
    return {
        obj: "affirmed" if obj in present else "negated"
        for obj in objects
        if (obj in present) != (obj in absent)
    }


def judge_polarities(
    llm: LLMConfig,
    prompts_dir: Path,
    items: Sequence[tuple[str, list[str]]],
    lexicon: Lexicon | None = None,
    cache: ResponseCache | None = None,
    keys: Sequence[str] | None = None,
) -> tuple[list[dict[str, Polarity] | None], dict[str, int]]:
    """Per (caption, object names): the judged polarities (None when the call failed), and the
    LLM counters. An unreachable server raises ``LLMUnavailableError``. ``keys``, one per item
    (the captions' keys), keep one cached answer per caption even where two read the same."""
    prompt = load_prompt(prompts_dir, PROMPT_ID)
    lexicon = lexicon or lexicon_for("coco")

    def messages(item: tuple[str, list[str]]) -> list[dict[str, str]]:
        caption, objects = item
        return prompt.messages(caption=caption, objects=", ".join(objects))

    indexed = list(enumerate(items))
    results, stats = run_structured(
        llm,
        indexed,
        lambda pair: messages(pair[1]),
        JudgeOutput,
        desc="judge",
        cache=cache,
        key=(lambda pair: keys[pair[0]]) if keys is not None else None,
    )
    judged: list[dict[str, Polarity] | None] = []
    for (caption, objects), result in zip(items, results, strict=True):
        if result.value is None:
            log.debug("judge failed (%s) on %r: %s", result.reason, caption, result.detail)
            judged.append(None)
        else:
            judged.append(read_answer(result.value, objects, lexicon))
    return judged, stats


def disagreement(judged: dict[str, Polarity], intended: dict[str, Polarity]) -> str | None:
    """The first intended object the judge gives the opposite polarity, else None; objects the
    judge does not answer about are no disagreement."""
    opposite = {"affirmed": "negated", "negated": "affirmed"}
    for name, polarity in intended.items():
        if polarity in opposite and judged.get(name) == opposite[polarity]:
            return name
    return None


@dataclass(frozen=True)
class Case:
    """A labelled caption and its objects labelled affirmed or negated."""

    case_id: str
    text: str
    gold: dict[str, Polarity]


@dataclass(frozen=True)
class Judged:
    """One labelled object: gold label, rule checker, judge (None: no answer about it)."""

    case_id: str
    label: str
    gold: Polarity
    rules: Polarity
    judge: Polarity | None


_COMPARED: dict[str, Polarity] = {"affirmed": "affirmed", "negated": "negated"}


def load_cases(path: Path, limit: int | None = None) -> list[Case]:
    """The first ``limit`` cases of a labelled JSONL file (all when None)."""
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        gold = {k: _COMPARED[v] for k, v in raw["objects"].items() if v in _COMPARED}
        cases.append(Case(raw["id"], raw["text"], gold))
    return cases if limit is None else cases[:limit]


def judge_cases(llm: LLMConfig, prompts_dir: Path, cases: list[Case]) -> tuple[list[Judged], int]:
    """Every labelled object with its three polarities, and the number of failed judge calls."""
    lexicon = lexicon_for("coco")
    items = [(case.text, list(case.gold)) for case in cases]
    judged, stats = judge_polarities(llm, prompts_dir, items, lexicon=lexicon)
    log.info("LLM counters: %s", stats)
    rows = []
    for case, answer in zip(cases, judged, strict=True):
        rules = analyze(case.text, lexicon)
        for label, gold in case.gold.items():
            said = None if answer is None else answer.get(label)
            rows.append(Judged(case.case_id, label, gold, rules.get(label, "unmentioned"), said))
    return rows, sum(1 for answer in judged if answer is None)


def _line(title: str, rows: list[Judged], reference: Callable[[Judged], Polarity]) -> str:
    answered = [r for r in rows if r.judge is not None]
    agree = sum(1 for r in answered if r.judge == reference(r))
    rate = agree / len(answered) if answered else float("nan")
    coverage = len(answered) / len(rows) if rows else float("nan")
    return (
        f"  {title:<12} agreement {rate:.3f} ({agree}/{len(answered)})  "
        f"coverage {coverage:.3f} ({len(answered)}/{len(rows)})"
    )


def report(rows: list[Judged], failed: int) -> list[str]:
    """Agreement (of the objects answered about) and coverage, per class, as report lines."""
    lines = [
        f"{len({r.case_id for r in rows})} captions, {len(rows)} labelled objects, "
        f"{failed} failed judge calls",
        "judge vs gold labels (by gold class)",
    ]
    for cls in ("affirmed", "negated"):
        lines.append(_line(cls, [r for r in rows if r.gold == cls], lambda r: r.gold))
    lines.append(_line("all", rows, lambda r: r.gold))
    lines.append("judge vs rule checker (by rule class)")
    compared = [r for r in rows if r.rules != "unmentioned"]
    for cls in ("affirmed", "negated"):
        lines.append(_line(cls, [r for r in compared if r.rules == cls], lambda r: r.rules))
    lines.append(_line("all", compared, lambda r: r.rules))
    lines.append(f"  ({len(rows) - len(compared)} objects the rule checker finds unmentioned)")
    wrong = [r for r in rows if r.rules != r.gold]
    lines.append(f"where the rule checker is wrong ({len(wrong)} objects):")
    lines.append(_line("judge", wrong, lambda r: r.gold))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cases", nargs="?", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--endpoint", required=True, help="base URL, e.g. http://127.0.0.1:8765/v1")
    parser.add_argument("--model", required=True, help="the model name the server serves")
    parser.add_argument("--limit", type=int, help="judge only the first N cases")
    parser.add_argument("--prompts-dir", type=Path, default=Path("prompts"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    cases = load_cases(args.cases, args.limit)
    llm = LLMConfig(local=False, endpoint=args.endpoint, model=args.model, temperature=0.0)
    log.info("judging %d captions with %s at %s", len(cases), args.model, args.endpoint)
    rows, failed = judge_cases(llm, args.prompts_dir, cases)
    print("\n".join(report(rows, failed)))


if __name__ == "__main__":
    main()
