"""Template text: object phrases, stand-in negated captions, and NegBench's MCQ sentences."""

from __future__ import annotations

from negdata.detect.vocab import normalize
from negdata.records import McqTemplate, Style


def with_article(noun: str) -> str:
    """``"bus"`` -> ``"a bus"``, ``"apple"`` -> ``"an apple"``; plurals stay bare."""
    noun = noun.strip()
    if not noun:
        raise ValueError("empty object name")
    if _is_plural(noun):
        return noun
    return f"{'an' if noun[0].lower() in 'aeiou' else 'a'} {noun}"


def join_objects(nouns: list[str]) -> str:
    phrases = [with_article(n) for n in nouns]
    if len(phrases) <= 1:
        return "".join(phrases)
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def _is_plural(noun: str) -> bool:
    return normalize(noun) != noun.strip().lower() or noun.strip().lower() == "people"


def template_caption(style: Style, negated: str, positives: list[str], caption: str) -> str:
    """A plain negated caption for when the LLM's fails validation (``generator: template``).

    ``positives`` must be verified present; without any, the (cleaned) original caption is
    affirmed, and without that either, nothing is."""
    be = "are" if _is_plural(negated) else "is"
    if not positives and not caption.strip(" ."):
        return f"There {be} no {negated} in this picture."
    if style == "affirmation_first":
        if positives:
            return f"A picture of {join_objects(positives[:3])}, but there {be} no {negated}."
        return f"{caption.rstrip(' .')}, but there {be} no {negated}."
    if positives:
        return (
            f"There {be} no {negated} in this picture, but there is {join_objects(positives[:3])}."
        )
    return f"There {be} no {negated} in this picture; {caption.rstrip(' .')}."


def mcq_options(
    template: McqTemplate, positives: list[str], negative: str
) -> tuple[str, list[str]]:
    """NegBench's correct sentence for ``template`` and its three wrong ones."""
    if not positives or not negative.strip():
        raise ValueError("an MCQ needs at least one present object and one absent object")
    a = with_article(positives[0])
    n = with_article(negative)
    if template == "affirmation":
        both = f"{a} and {with_article(positives[1])}" if len(positives) > 1 else a
        correct = f"This image features {both}."
    elif template == "negation":
        correct = f"This image does not feature {n}."
    else:
        correct = f"This image features {a}, but not {n}."
    wrong = [
        f"This image features {n}, but not {a}.",
        f"This image features {n}.",
        f"This image does not feature {a}.",
    ]
    return correct, wrong
