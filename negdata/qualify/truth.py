"""The judge of a qualification run: what a sentence claims that is false of an image whose
every object is known.

It reads the sentence again, apart from the gates, and holds each claim against the truth
itself (not against thresholds on scores): an object affirmed that is not there, one negated
that is, an exclusive claim ("only a dog") that leaves out something there, a count the
objects do not bear out ("two cats" beside one), one object said to be another. A name the
lexicon does not know ("a lamp") is not judged. ``false_captions`` and ``false_options`` hold
published captions and MCQ options to it.

The reading is the second reader's, ``negdata.validate.parsed`` (which objects are affirmed and
negated, from spaCy's parse), not the rules' the gates decided with, with
``negdata.validate.claims`` (exclusivity, identity) and ``negdata.validate.counts``. A caption
the gates published and this judge finds false is one the two readers read apart: a false
statement, or a misreading of the second reader's (docs/verification.md#two-readers), counted
either way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from negdata.detect.lexicon import Lexicon
from negdata.records import CaptionRecord, McqRecord, Verdict
from negdata.validate.claims import identity_claim, left_out
from negdata.validate.counts import counts
from negdata.validate.parsed import analyze


def _verdicts(truth: Mapping[str, int], lexicon: Lexicon) -> dict[str, Verdict]:
    """Every name's verdict: present when it covers a label that is there, else absent."""
    return {
        name: "present" if lexicon.members(name) & truth.keys() else "absent"
        for name in lexicon.names()
    }


def false_claims(text: str, truth: Mapping[str, int], lexicon: Lexicon) -> list[str]:
    """What ``text`` claims that is false, one phrase per claim (``[]``: nothing it claims is
    false). ``truth``: every object in the image, label -> how many; every other label of
    ``lexicon`` is absent."""
    polarities = analyze(text, lexicon)
    verdicts = _verdicts(truth, lexicon)
    found = []
    for name, polarity in polarities.items():
        there = verdicts.get(name) == "present"
        if polarity == "affirmed" and not there:
            found.append(f"affirms {name}, which is not there")
        elif polarity == "negated" and there:
            found.append(f"negates {name}, which is there")
    for name in left_out(text, polarities, verdicts, lexicon):
        found.append(f"says that is all, but {name} is there too")
    affirmed = {name: lexicon.terms(name) for name, pol in polarities.items() if pol == "affirmed"}
    for count in counts(text, affirmed):
        seen = sum(truth.get(label, 0) for label in lexicon.members(count.name))
        if seen and (seen < count.fewest or (count.most is not None and seen > count.most)):
            found.append(f"counts {count.name} as {count.word}, but {seen} there")
    if identity_claim(text, lexicon):
        found.append("says one object is another")
    return found


def false_captions(
    captions: Sequence[CaptionRecord], truth: Mapping[str, Mapping[str, int]], lexicon: Lexicon
) -> list[str]:
    """A line for each caption of ``captions`` with a false claim (``truth``: each image's
    objects, by image key)."""
    found = []
    for caption in captions:
        claims = false_claims(caption.caption, truth[caption.image_key], lexicon)
        if claims:
            found.append(f"{caption.image_key}: {caption.caption!r}: {'; '.join(claims)}")
    return found


def false_options(
    mcqs: Sequence[McqRecord], truth: Mapping[str, Mapping[str, int]], lexicon: Lexicon
) -> list[str]:
    """A line for each option whose key the judge contradicts: the right answer with a false
    claim, or a wrong one with none."""
    found = []
    for mcq in mcqs:
        options = (mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3)
        for i, option in enumerate(options):
            claims = false_claims(option, truth[mcq.image_key], lexicon)
            if i == mcq.correct_answer and claims:
                found.append(f"{mcq.image_key}: MCQ answer {option!r}: {'; '.join(claims)}")
            elif i != mcq.correct_answer and not claims:
                found.append(f"{mcq.image_key}: MCQ wrong option {option!r} is true")
    return found
