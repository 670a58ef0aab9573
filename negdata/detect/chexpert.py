"""CheXpert-style finding labels as an evidence source: a report labeller's verdict per finding.

The CSV has an image column (``Path`` in CheXpert) and the 14 CheXpert columns, each 1 (the
report affirms the finding), 0 (it negates it), -1 (it hedges: "possible pneumonia") or blank
(it does not mention it). A finding scores 1.0 when present and 0.0 when absent; an uncertain one
scores the middle of the band between ``t_absent`` and ``t_present``, so its verdict is
*uncertain* and it is neither affirmed nor negated (the thresholds are part of the detect
stage's hash, so the score follows them). A blank is left out: the report never ruled it in or
out, so the finding is not covered. "No Finding" is no finding to caption: a row that says
"No Finding" and also a present or uncertain pathology contradicts itself and is refused.
An image the CSV does not list gets an empty detection (nothing covered).
"""

from __future__ import annotations

import csv
import logging
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from negdata.config import ChexpertSource, DetectConfig
from negdata.detect.base import Detection, ImageItem
from negdata.detect.vocab import CHEXPERT_FINDINGS

log = logging.getLogger(__name__)

NO_FINDING = "No Finding"
COLUMNS = (NO_FINDING, *CHEXPERT_FINDINGS)
# Not a pathology: a support device may be there in a study with "No Finding".
_NOT_PATHOLOGY = frozenset({"Support Devices"})
_VALUES = {"1": 1, "1.0": 1, "0": 0, "0.0": 0, "-1": -1, "-1.0": -1, "": None}


def _value(raw: str | None, column: str, where: str) -> int | None:
    text = (raw or "").strip()
    if text not in _VALUES:
        raise ValueError(f"{where}: {column} is {text!r}; a finding is 1, 0, -1 or blank")
    return _VALUES[text]


def _key(value: str) -> str:
    """A URL as it is; a path without its leading "./" or "/", to match URL path tails."""
    if "://" in value:
        return value
    return value.removeprefix("./").lstrip("/")


def _tails(url: str) -> list[str]:
    """The URL itself, then its path from each folder down to the file name."""
    parts = unquote(urlsplit(url).path).lstrip("/").split("/")
    return [url, *("/".join(parts[i:]) for i in range(len(parts)))]


def read_findings(path: Path, path_column: str, key: str) -> dict[str, dict[str, int]]:
    """Image key -> {label: 1 | 0 | -1} of its mentioned findings; one-line errors name ``key``
    (the config key), the file and the line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FileNotFoundError(f"{key}: CheXpert labels file not found: {path}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{key}: {path} is not UTF-8 text") from None
    reader = csv.DictReader(text.splitlines())
    header = reader.fieldnames or []
    missing = [c for c in (path_column, *COLUMNS) if c not in header]
    if missing:
        raise ValueError(f"{key}: {path} lacks the columns {missing} (header: {header})")
    findings: dict[str, dict[str, int]] = {}
    first_line: dict[str, int] = {}
    for row in reader:
        line = reader.line_num
        where = f"{key}: {path} line {line}"
        if None in row:
            raise ValueError(f"{where}: more fields than the header has")
        image = _key((row[path_column] or "").strip())
        if not image:
            raise ValueError(f"{where}: {path_column} is empty")
        if image in first_line:
            raise ValueError(
                f"{where}: {image} is labelled again (first on line {first_line[image]})"
            )
        values = {column: _value(row[column], column, where) for column in COLUMNS}
        if values[NO_FINDING] == 1:
            found = [
                c for c in CHEXPERT_FINDINGS if c not in _NOT_PATHOLOGY and values[c] in (1, -1)
            ]
            if found:
                raise ValueError(f"{where}: {NO_FINDING} is 1 but {found} are 1 or -1")
        first_line[image] = line
        findings[image] = {
            label: value
            for column, label in CHEXPERT_FINDINGS.items()
            if (value := values[column]) is not None
        }
    return findings


class ChexpertDetector:
    """Ground truth from a CheXpert-style CSV, over the ``chexpert`` vocabulary."""

    def __init__(self, config: ChexpertSource, detect: DetectConfig, index: int) -> None:
        key = f"detect.sources[{index}].path"
        if detect.vocabulary != "chexpert":
            raise ValueError(
                f"detect.sources[{index}]: a chexpert source needs detect.vocabulary: chexpert, "
                f"not {detect.vocabulary}"
            )
        path = config.path.expanduser()
        self._findings = read_findings(path, config.path_column, key)
        self._uncertain = (detect.t_absent + detect.t_present) / 2
        self.name = f"chexpert:{path.name}"

    @property
    def labels(self) -> frozenset[str]:
        return frozenset(CHEXPERT_FINDINGS.values())

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        detections = [self._detection(item.url) for item in items]
        unlisted = [item.url for item, det in zip(items, detections, strict=True) if not det.scores]
        if unlisted:
            log.warning(
                "%s: %d image(s) not in the CSV, their findings are not covered (first: %s)",
                self.name,
                len(unlisted),
                unlisted[0],
            )
        return detections

    def _detection(self, url: str) -> Detection:
        found = next((self._findings[t] for t in _tails(url) if t in self._findings), None)
        if found is None:
            return Detection()
        score = {1: 1.0, 0: 0.0, -1: self._uncertain}
        return Detection(scores={label: score[value] for label, value in found.items()})
