"""Radiology report phrasing, rewritten into the checker's plain cues and hedges.

- Hedges of a report ("cannot exclude", "may represent", "could be", "suspicious for",
  "questionable", "likely", "probable", "versus", "concern for", "evaluate for", "correlate for",
  "unlikely"): the finding is neither affirmed nor negated, as CheXpert's labeller marks it
  uncertain. "not suspected" negates.
- A search and its result: "Screening for X: none detected", "Evaluation for X is negative".
- Resolution: "resolved X" and "X has resolved / has cleared / resolved." negate X (it is no
  longer there); "resolving X" and "X has improved" do not (it still is).
- "no longer seen / identified / evident / demonstrated" negates like "not seen".
- "no radiographic / definite evidence of X" is "no evidence of X".
- Anatomy read as a finding: "heart size is normal", "the heart is not enlarged", "normal cardiac
  silhouette" -> no cardiomegaly; "the cardiac silhouette is enlarged" -> cardiomegaly; "the
  cardiomediastinal silhouette is within normal limits" -> no enlarged cardiomediastinum.
- Laterality: "left" before a body part or a finding is a side, not the verb of "the bus left"
  ("no left pleural effusion").
"""

from __future__ import annotations

import re

from negdata.validate.negation.words import HEDGE

_I = re.IGNORECASE
_HEDGES = re.compile(
    r"\b(?:(?:can ?not|could not|unable to) (?:exclude|rule out)|(?:may|might|could) represent|"
    r"(?:suspicious|worrisome|concern|evaluat(?:e|ion)|assess(?:ment)?) for|questionable|"
    r"(?:un)?likely|probabl[ey]|versus|vs\.?|differential (?:diagnosis )?(?:includes?|of)|"
    r"(?:may|might|could) (?:be|reflect|indicate|suggest)|"
    r"(?:please )?(?:clinical(?:ly)? )?correlat(?:e|ion)(?: clinically)? for)\b",
    _I,
)
_HEART = r"(?:the )?(?:heart(?: size)?|cardiac (?:size|silhouette|contour)s?)"
_MEDIASTINUM = r"(?:the )?(?:cardiomediastinal (?:silhouette|contours?)|mediastinal contours?)"
_NORMAL = (
    r"(?:normal(?: in size)?|within normal limits|unremarkable|not enlarged|stable and normal)"
)
_BE = r"(?:is|are|remains?|appears?|was)"
_DEGREE = r"(?:(?:mildly|moderately|markedly|severely|slightly|massively) )?"
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    # "Screening for sports balls on the pitch: none detected", "Evaluation for X is negative":
    # the search is the hedge only until its result is given.
    (re.compile(r"\b(?:evaluation|screening|assessment|search|check|examination|testing|test) "
                r"for ([^.;|]*?)(?: (?:is|was|proved|came back)|\s*:) (?:negative|none "
                r"(?:detected|found|seen|identified))\b", _I), r"negative for \1"),
    (re.compile(rf"\b{_HEART} (?:{_BE} )?{_NORMAL}", _I), "no cardiomegaly"),
    (re.compile(rf"\b(?:normal|unremarkable) {_HEART.removeprefix('(?:the )?')}", _I),
     "no cardiomegaly"),
    (re.compile(rf"\b{_HEART} {_BE} {_DEGREE}(?:enlarged|increased in size)", _I), "cardiomegaly"),
    (re.compile(rf"\b{_MEDIASTINUM} (?:{_BE} )?{_NORMAL}", _I), "no enlarged cardiomediastinum"),
    (re.compile(r"\b(?:not|never) (?:suspected|considered)\b", _I), "not seen"),
    (re.compile(rf"\b(?:normal|unremarkable) {_MEDIASTINUM.removeprefix('(?:the )?')}", _I),
     "no enlarged cardiomediastinum"),
    # "the effusion has cleared", not "a table that no one has cleared" (a subject's deed)
    (re.compile(r"(?<!\bone )(?<!\bbody )(?<!\bthey )(?<!\bwe )(?<!\bhe )(?<!\bshe )(?<!\bwho )"
                r"\b(?:has|have|had)(?: (?:since|now|completely|nearly|largely))? "
                r"(?:resolved|cleared)\b", _I), "is gone"),
    (re.compile(r"(?<!\bis )(?<!\bare )\bresolved\b(?= [a-z])", _I), "no"),
    # "the effusion cleared.", not "the table has been cleared," (emptied, still there)
    (re.compile(r"(?<!\bbeen )(?<!\bwas )(?<!\bwere )\b(?:resolved|cleared)(?=\s*(?:[.;,]|$))", _I),
     "gone"),
    (re.compile(r"\bno longer (?=(?:seen|identified|evident|demonstrated|appreciated|"
                r"visualized|present)\b)", _I), "not "),
    (re.compile(r"\b(no|without) (?:radiographic|definite|convincing|acute|new|other|"
                r"definitive|radiologic|imaging) (evidence|signs?) of\b", _I), r"\1 \2 of"),
    (re.compile(r"\bleft(?= (?:and right |[a-z]+ )?(?:lower|upper|mid|middle|lung|lobe|base|"
                r"basilar|basal|apical|apex|hemithorax|hemidiaphragm|pleural|chest|costophrenic|"
                r"perihilar|retrocardiac|lateral|anterior|posterior|sided|rib|ribs|clavicle|"
                r"subclavian|internal|ij|effusion|pneumothorax|atelectasis|consolidation|"
                r"opacity|opacities)\b)", _I), "leftside"),
)  # fmt: skip


def rewrite_report(text: str) -> str:
    """``text`` with report phrasing turned into cues the checker knows (see the module)."""
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return _HEDGES.sub(f" {HEDGE} ", text)
