"""Template text for clinical vocabularies: captions that read like a radiology impression
("Cardiomegaly. No pleural effusion.", "Cardiomegaly without pleural effusion.") and NegMCQ
sentences about the radiograph. Findings take no article and no severity: the labels say only
that a finding is there or not."""

from __future__ import annotations

from negdata.clip_text import shorten
from negdata.english import be, natural
from negdata.records import McqTemplate, Style

# {neg}: the negated finding, {be} / {was}: its verb; {objects}: the affirmed findings,
# {be_objects} their verb. The first of each list is the plainest report phrasing. Every frame
# reads right to NegEx too (bench/clinical_negation.py): a negation ends its sentence, and
# "not seen" comes as "was not seen", one of NegEx's following cues.
AFFIRMING_FIRST = (
    "{Objects}. No {neg}.",
    "{Objects} without {neg}.",
    "{Objects}. No evidence of {neg}.",
    "{Objects}. {Neg} {was} not seen.",
    "{Objects}. Negative for {neg}.",
)
NEGATING_FIRST = (
    "No {neg}. {Objects}.",
    "No evidence of {neg}. {Objects} {be_objects} present.",
    "Negative for {neg}. {Objects} noted.",
    "{Neg} {was} not seen. {Objects}.",
    "There {be} no {neg}. {Objects} {be_objects} seen.",
)
# Without an affirmed finding: the original caption (a view, a modality) or nothing.
CAPTION_FIRST = ("{caption}. No {neg}.", "{caption}. No evidence of {neg}.")
CAPTION_LAST = ("No {neg}. {caption}.", "Negative for {neg}. {caption}.")
NOTHING = ("No {neg}.", "No evidence of {neg}.", "Negative for {neg}.", "{Neg} {was} not seen.")


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _pick(parts: tuple[str, ...], variant: int) -> str:
    return parts[variant % len(parts)]


def findings(nouns: list[str]) -> str:
    """ "cardiomegaly, edema and support devices": no articles, as a report lists them."""
    words = [natural(n) for n in nouns]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def clinical_caption(
    style: Style, negated: str, positives: list[str], caption: str, variant: int = 0
) -> str:
    """A report-style negated caption; ``positives`` must be verified present (at most three
    are named). Without any, the cleaned original caption is kept beside the negation if it
    fits CLIP's context, else the negation stands alone."""
    neg = natural(negated)
    slots = {"neg": neg, "Neg": _upper(neg), "be": be(neg)}
    slots["was"] = "were" if slots["be"] == "are" else "was"
    if positives:
        shown = findings(positives[:3])
        plural = len(positives[:3]) > 1 or be(positives[0]) == "are"
        slots |= {
            "objects": shown,
            "Objects": _upper(shown),
            "be_objects": "are" if plural else "is",
        }
        frames = AFFIRMING_FIRST if style == "affirmation_first" else NEGATING_FIRST
        return _pick(frames, variant).format(**slots)
    frame = _pick(CAPTION_FIRST if style == "affirmation_first" else CAPTION_LAST, variant)
    fitted = shorten(
        caption.strip().rstrip(" .,;:"),
        lambda kept: frame.format(**slots, caption=_upper(kept.rstrip(" .,;:"))),
    )
    return fitted or _pick(NOTHING, variant).format(**slots)


def clinical_mcq_options(
    template: McqTemplate, positives: list[str], negative: str
) -> tuple[str, list[str]]:
    """The correct sentence and the three wrong ones, in the slots ``templates.mcq_options``
    uses (1, 2, 3: a hybrid, a positive, a negative), about "the radiograph"."""
    if not positives or not negative.strip():
        raise ValueError("an MCQ needs at least one present finding and one absent finding")
    a = natural(positives[0])
    n = natural(negative)
    if template == "affirmation":
        shown = findings(positives[:2])
        correct = f"The radiograph shows {shown}."
    elif template == "negation":
        correct = f"The radiograph shows no {n}."
    else:
        correct = f"The radiograph shows {a} but no {n}."
    wrong = [
        f"The radiograph shows {n} but no {a}.",
        f"The radiograph shows {n}.",
        f"The radiograph shows no {a}.",
    ]
    return correct, wrong


# A NegPair's two impressions from one frame, so that they differ in the finding alone:
# {shown}: the findings both studies show; {x} / {X}: the finding, in the first study only.
PAIR_FRAMES = (
    ("{Shown}. {X}.", "{Shown}. No {x}."),
    ("{Shown} with {x}.", "{Shown} without {x}."),
)
PAIR_FRAMES_ALONE = (("{X}.", "No {x}."), ("{X} is present.", "No evidence of {x}."))


def clinical_pair_captions(label: str, shared: list[str], variant: int = 0) -> tuple[str, str]:
    """Stand-in impressions of a medical NegPair (``generator: template``): the findings both
    studies show (at most three), and ``label``, there in the first and not in the second."""
    x = natural(label)
    frames = PAIR_FRAMES if shared else PAIR_FRAMES_ALONE
    with_x, without_x = frames[variant % len(frames)]
    slots = {"x": x, "X": _upper(x), "Shown": _upper(findings(shared[:3])) if shared else ""}
    return with_x.format(**slots), without_x.format(**slots)
