"""Template text: stand-in negated captions, and NegBench's MCQ sentences."""

from __future__ import annotations

from negdata.clip_text import shorten
from negdata.english import be, join_objects, natural, with_article
from negdata.records import McqTemplate, Style

# Template captions are built from parts so that they are not one frame: an opening and a
# negating tail. {neg}: the negated noun, {be}: its verb, {objects}: the affirmed objects with
# articles, {be_objects}: their verb ("are" for a list). The first of each list is the classic
# NegBench-like frame. None may read like a chat reply ("Here is ..."): the gates reject those
# (``validate.gates.prompt_residue``).
NOTHING = (
    "There {be} no {neg} in this picture.",
    "This picture shows no {neg}.",
    "No {neg} can be seen in this image.",
    "The image contains no {neg}.",
)
OPENINGS = (
    "A picture of {objects}",
    "{objects} can be seen",
    "This image shows {objects}",
    "A photo with {objects}",
    "{objects} {be_objects} in view",
)
NEGATING_TAILS = (
    ", but there {be} no {neg}.",
    ", with no {neg} in sight.",
    "; there {be} no {neg} here.",
    ", but no {neg}.",
)
NEGATING_OPENINGS = (
    "There {be} no {neg} in this picture",
    "No {neg} can be seen here",
    "This picture shows no {neg}",
    "No {neg} in sight",
    "The image has no {neg}",
)
AFFIRMING_TAILS = (
    ", but there {be_objects} {objects}.",
    ", only {objects}.",
    ", though {objects} {be_objects} visible.",
    ", just {objects}.",
)
# Tails that say the objects are all there is: written only when they are (``alone``).
EXCLUSIVE_TAILS = (", only {objects}.", ", just {objects}.")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _pick(parts: tuple[str, ...], variant: int) -> str:
    return parts[variant % len(parts)]


def template_caption(
    style: Style,
    negated: str,
    positives: list[str],
    caption: str,
    variant: int = 0,
    alone: bool = False,
) -> str:
    """A plain negated caption for when the LLM's fails validation (``generator: template``).

    ``positives`` must be verified present, and with ``alone`` be every object the evidence
    finds present (only then may the caption say "only" or "just"); without any, the
    (cleaned) original caption is affirmed, its trailing clauses dropped until the whole fits
    CLIP's context, and without that either, nothing is. ``variant`` picks the phrasing (the
    same variant, the same text)."""
    neg = natural(negated)
    slots = {"neg": neg, "be": be(neg)}
    if positives:
        shown = positives[:3]
        plural = len(shown) > 1 or be(shown[0]) == "are"
        slots |= {"objects": join_objects(shown), "be_objects": "are" if plural else "is"}
        if style == "affirmation_first":
            frame = _pick(OPENINGS, variant) + _pick(NEGATING_TAILS, variant // len(OPENINGS))
        else:
            tails = tuple(t for t in AFFIRMING_TAILS if alone or t not in EXCLUSIVE_TAILS)
            frame = _pick(NEGATING_OPENINGS, variant) + _pick(
                tails, variant // len(NEGATING_OPENINGS)
            )
        return _sentence(frame.format(**slots))
    if style == "affirmation_first":
        frame = "{caption}" + _pick(NEGATING_TAILS, variant)
    else:
        frame = _pick(NEGATING_OPENINGS, variant) + ". {caption}."
    fitted = shorten(
        caption.strip().rstrip(" .,;:"),
        lambda kept: _sentence(frame.format(**slots, caption=_sentence(kept.rstrip(" .,;:")))),
    )
    return fitted or _pick(NOTHING, variant).format(**slots)


# A NegPair's two captions from one frame, so that they differ in the object alone (and in a
# count where the two images' boxes differ): {all}, what the first image shows, the object
# included; {objects}, what the second shows; {x}: the object; {be}: its verb.
PAIR_FRAMES = (
    ("A photo with {all}.", "A photo with {objects}, but no {x}."),
    ("This image shows {all}.", "This image shows {objects}, with no {x}."),
    ("{all} can be seen.", "{objects} can be seen, but there {be} no {x}."),
)


def pair_captions(
    label: str, shared_a: list[str], shared_b: list[str], variant: int = 0
) -> tuple[str, str]:
    """Stand-in captions of a NegPair (``generator: template``): what both images show, as each
    image's own boxes count it (``shared_a``, ``shared_b``: "people" beside two, "a person"
    beside one), and ``label``, there in the first and missing from the second. ``variant``
    picks the frame."""
    x = natural(label)
    with_x, without_x = PAIR_FRAMES[variant % len(PAIR_FRAMES)]
    a = with_x.format(all=join_objects([*shared_a[:3], x]))
    b = without_x.format(objects=join_objects(shared_b[:3]), x=x, be=be(x))
    return _sentence(a), _sentence(b)


def mcq_options(
    template: McqTemplate, positives: list[str], negative: str
) -> tuple[str, list[str]]:
    """NegBench's correct sentence for ``template`` and its three wrong ones, in the slots of
    NegBench's evaluation layout (1, 2, 3: a hybrid, a positive, a negative), which
    ``negdata.export`` relies on."""
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
