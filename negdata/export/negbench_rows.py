"""NegBench's CSV formats, as its loaders read them (m1k2zoo/negbench, ``benchmarks/src``).

Every file is comma-separated with a header row (``pd.read_csv(path, sep=",")``); an image is
opened with ``Image.open(path)`` as written, so a relative path would be taken relative to the
directory NegBench runs in, not to the CSV: negdata writes absolute paths. A list column holds
a Python literal (``['a dog', 'a cat']``), which NegBench parses with ``eval`` /
``ast.literal_eval``.

``negcap.csv`` (CC12M-NegCap's own CSV): ``filepath, caption, positive_objects,
negative_objects, negative_captions``; one row per image; ``caption`` is the source caption
cleaned of what describes no picture (``negdata.compose.alt_text``: file names, camera settings,
URLs, stock-photo words; as given when nothing is left), the three others are lists: the
vocabulary's names (its labels, or a hypernym such as "glass") of what the captions affirm, each
noun through the lexicon ("people" -> person; a noun that resolves to nothing, which the evidence
cannot verify, is left out), the names they negate, the negated captions.

``mcq_train.csv`` (``--mcq-train-data``, ``CsvMCQDataset``): ``correct_answer, caption_0,
caption_1, caption_2, caption_3, correct_answer_template, image_path``; one row per question,
options in negdata's seeded shuffle (correct positions dealt evenly), ``correct_answer`` the
index of the right option.

``mcq_eval.csv`` (``--coco-mcq`` / ``--voc2007-mcq``: ``evaluation/mcq.py``): the same columns
in NegBench's fixed evaluation layout. The right answer is always option 0 and each wrong one
has its slot, because the evaluation names a wrong pick by its index: 1 "features N, but not A"
(a hybrid), 2 "features N" (a positive), 3 "does not feature A" (a negative).

``correct_answer_template`` is NegBench's name for the right answer's template: ``positive``,
``negative`` or ``hybrid`` (negdata's affirmation, negation, hybrid).

``negated_retrieval.csv`` (``--coco-negated-retrieval``, ``CsvImageCaptionDataset``):
``filepath, captions``; one row per image, ``captions`` the list of its negated captions,
each of which should retrieve that image.
"""

from __future__ import annotations

from collections.abc import Sequence

from negdata.compose.alt_text import clean_alt_text
from negdata.compose.templates import mcq_options
from negdata.detect.lexicon import Lexicon
from negdata.records import CaptionRecord, McqRecord, McqTemplate

NEGCAP_COLUMNS = (
    "filepath",
    "caption",
    "positive_objects",
    "negative_objects",
    "negative_captions",
)
MCQ_COLUMNS = (
    "correct_answer",
    "caption_0",
    "caption_1",
    "caption_2",
    "caption_3",
    "correct_answer_template",
    "image_path",
)
RETRIEVAL_COLUMNS = ("filepath", "captions")

NEGBENCH_TEMPLATES: dict[McqTemplate, str] = {
    "affirmation": "positive",
    "negation": "negative",
    "hybrid": "hybrid",
}

Row = tuple[str | int, ...]


def python_list(items: Sequence[str]) -> str:
    """A list as the Python literal NegBench's loaders evaluate."""
    return repr(list(items))


def _distinct(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def negcap_row(path: str, captions: Sequence[CaptionRecord], lexicon: Lexicon) -> Row:
    """One image's row of ``negcap.csv`` from its published captions and the run's lexicon."""
    affirmed = [name for c in captions for noun in c.affirmed if (name := lexicon.name(noun))]
    source = captions[0].original_caption
    return (
        path,
        clean_alt_text(source, lexicon) or source,
        python_list(_distinct(affirmed)),
        python_list(_distinct([c.negated_label for c in captions])),
        python_list([c.caption for c in captions]),
    )


def retrieval_row(path: str, captions: Sequence[CaptionRecord]) -> Row:
    """One image's row of ``negated_retrieval.csv``."""
    return (path, python_list([c.caption for c in captions]))


def _options(mcq: McqRecord) -> list[str]:
    return [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]


def mcq_train_row(path: str, mcq: McqRecord) -> Row:
    """A question as ``mcq_train.csv`` holds it: negdata's option order."""
    template = NEGBENCH_TEMPLATES[mcq.correct_answer_template]
    return (mcq.correct_answer, *_options(mcq), template, path)


def mcq_eval_row(path: str, mcq: McqRecord) -> Row | None:
    """A question in NegBench's evaluation layout, or None when its options are not the
    templates it was built from (each option's kind is known only by its template text; a
    paraphrased option keeps that text in ``template_options``)."""
    shown = _options(mcq)
    texts = mcq.template_options or shown
    correct, wrong = mcq_options(mcq.correct_answer_template, mcq.positives, mcq.negative)
    if texts[mcq.correct_answer] != correct or sorted(texts) != sorted([correct, *wrong]):
        return None
    ordered = [shown[mcq.correct_answer], *(shown[texts.index(w)] for w in wrong)]
    return (0, *ordered, NEGBENCH_TEMPLATES[mcq.correct_answer_template], path)
