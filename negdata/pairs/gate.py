"""The gates a NegPair's two captions pass before the pair is published.

Each caption passes NegCap's text checks (``negdata.validate.gates.text_problem``: prompt
residue, meta text, length, CLIP's token limit, a copy of the original, article errors, garbled
text; then nouns nothing accounts for), then is
held to its own image's verdicts: the caption of A must affirm X, the caption of B must negate
it, and each must be true of its image (``option_truth``: everything it affirms present,
everything it negates absent, exclusive claims and counts right). A pair is published only when
both pass; otherwise it is dropped under the first failure's reason code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from negdata.config import Config
from negdata.detect.lexicon import Lexicon
from negdata.records import Verdict
from negdata.validate import gates
from negdata.validate.evaluate import label_polarity
from negdata.validate.exclusivity import kind_exclusions
from negdata.validate.negation import analyze
from negdata.validate.nouns import unaccounted_nouns

Side = Literal["with", "without"]


@dataclass(frozen=True)
class Image:
    """What a caption of one image is checked against: every name's verdict
    (``verify.evidence_verdicts``), the box counts (``verify.box_counts``) and the image's
    original caption (its words account for nouns the vocabulary lacks)."""

    verdicts: Mapping[str, Verdict]
    boxes: Mapping[str, int]
    original: str = ""


def text_problem(text: str, original: str, cfg: Config, lexicon: Lexicon) -> str | None:
    """The first of NegCap's text gates that ``text`` fails (``gates.text_problem``, then nouns
    nothing accounts for), or None."""
    problem = gates.text_problem(text, original, cfg.compose.max_caption_chars)
    if problem is None and len(unaccounted_nouns(text, original, lexicon)) > (
        cfg.compose.max_unaccounted_nouns
    ):
        return "unaccounted_noun"
    return problem


def caption_problem(
    text: str, side: Side, label: str, image: Image, cfg: Config, lexicon: Lexicon
) -> str | None:
    """None when ``text`` may stand for its image, else the reason code: ``pair_text_<gate>``
    (a text check), ``pair_with_not_affirmed`` / ``pair_without_not_negated`` (X not said to be
    there / not said to be missing), ``pair_<side>_unverifiable`` (it names something the
    evidence cannot decide), ``pair_<side>_not_true`` (it is false of its image)."""
    problem = text_problem(text, image.original, cfg, lexicon)
    if problem is not None:
        return f"pair_text_{problem}"
    polarities = kind_exclusions(text, analyze(text, lexicon), lexicon)
    wanted = "affirmed" if side == "with" else "negated"
    if label_polarity(polarities, label, lexicon) != wanted:
        return f"pair_{side}_not_{wanted}"
    truth = gates.option_truth(dict(image.verdicts), text, lexicon, image.boxes)
    if truth is None:
        return f"pair_{side}_unverifiable"
    return None if truth else f"pair_{side}_not_true"


def pair_problem(
    caption_a: str,
    caption_b: str,
    label: str,
    images: tuple[Image, Image],
    cfg: Config,
    lexicon: Lexicon,
) -> tuple[str, str] | None:
    """None when both captions pass, else the first failure's reason and the caption it is
    about (A's is checked first)."""
    a, b = images
    problem = caption_problem(caption_a, "with", label, a, cfg, lexicon)
    if problem is not None:
        return problem, caption_a
    problem = caption_problem(caption_b, "without", label, b, cfg, lexicon)
    return None if problem is None else (problem, caption_b)
