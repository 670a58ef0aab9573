"""Labels per image from a CSV or JSONL table (``.csv``, ``.jsonl``) as an evidence source.

A row per (image, label): ``url``, ``label`` and optionally ``score``, a number in [0, 1]
(missing or empty: 1.0, present). A CSV file starts with a header naming its columns (other
columns are ignored); a JSONL line is an object with those keys. A row with an empty label lists
an image without any object. A listed image covers every vocabulary label, a label without a
row scoring 0.0 (``unlisted: absent``), or only the labels it has rows for (``unlisted:
unknown``); an image the file does not list gets an empty detection.

The file is streamed and each image keeps its rows packed (12 bytes a label), so a file of
millions of rows loads in memory that grows with its images and labels, not its text. Every row
is checked; a bad one stops the load with an error that names the line.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import logging
import struct
from collections.abc import Iterator, Sequence
from typing import IO, Any

from negdata.config import TableSource
from negdata.detect.base import Detection, ImageItem
from negdata.detect.oracles.matching import OracleFileError, match_key, vocabulary_label
from negdata.progress import Progress

log = logging.getLogger(__name__)

COLUMNS = ("url", "label")  # required; "score" is optional
_ROW = struct.Struct("<Id")  # file label id, score
_PROGRESS_ROWS = 65_536  # rows between progress updates

Row = tuple[int, str, str, Any]  # line, url, label, score as written (None when not given)


def _score(value: Any, line: int, where: str) -> float:
    if value is None or value == "":
        return 1.0
    score: float | None = None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            score = float(value)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        score = float(value)
    if score is None or not 0.0 <= score <= 1.0:  # NaN fails the comparison too
        raise OracleFileError(f"{where}: line {line}: score {value!r} is not a number in [0, 1]")
    return score


def _csv_rows(fh: IO[bytes], where: str, progress: Progress) -> Iterator[Row]:
    text = io.TextIOWrapper(fh, encoding="utf-8-sig", newline="")
    reader = csv.reader(text, strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise OracleFileError(f"{where}: empty file: expected a header with url,label[,score]")
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise OracleFileError(
                f"{where}: line 1: the header {header} has no {', '.join(missing)} column"
            )
        url, label = header.index("url"), header.index("label")
        score = header.index("score") if "score" in header else None
        for n, row in enumerate(reader, 1):
            if n % _PROGRESS_ROWS == 0:
                progress.update(fh.tell() - progress.done)
            if not row:
                continue
            if len(row) != len(header):
                raise OracleFileError(
                    f"{where}: line {reader.line_num}: {len(row)} fields, the header has "
                    f"{len(header)}"
                )
            yield reader.line_num, row[url], row[label], None if score is None else row[score]
    except csv.Error as exc:
        raise OracleFileError(f"{where}: line {reader.line_num}: not valid CSV: {exc}") from None
    except UnicodeDecodeError:
        raise OracleFileError(f"{where}: after line {reader.line_num}: not UTF-8 text") from None


def _jsonl_rows(fh: IO[bytes], where: str, progress: Progress) -> Iterator[Row]:
    for line, raw in enumerate(fh, 1):
        if line % _PROGRESS_ROWS == 0:
            progress.update(fh.tell() - progress.done)
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise OracleFileError(f"{where}: line {line}: not valid JSON: {exc}") from None
        if not isinstance(row, dict):
            raise OracleFileError(f"{where}: line {line}: expected an object with url and label")
        missing = [c for c in COLUMNS if c not in row]
        if missing:
            raise OracleFileError(f"{where}: line {line}: no {', '.join(missing)}")
        if not isinstance(row["url"], str) or not isinstance(row["label"], str):
            raise OracleFileError(f"{where}: line {line}: url and label must be strings")
        yield line, row["url"], row["label"], row.get("score")


_READERS = {".csv": _csv_rows, ".jsonl": _jsonl_rows}


class TableDetector:
    """Ground truth from a table of (url, label, score) rows, over the given vocabulary."""

    def __init__(self, config: TableSource, vocabulary: frozenset[str], index: int) -> None:
        key = f"detect.sources[{index}].path"
        path = config.path.expanduser()
        where = f"{key} ({path})"
        read = _READERS.get(path.suffix.lower())
        if read is None:
            raise OracleFileError(f"{where}: a labels table is a .csv or .jsonl file")
        self.config = config
        self.name = f"table:{path.name}"
        self._vocabulary = vocabulary
        self._label_of: list[str] = []  # file label id -> vocabulary label
        self._rows: dict[str, bytearray] = {}  # match key -> packed (file label id, score)
        try:
            with path.open("rb") as fh, Progress(path.stat().st_size, f"load {self.name}") as bar:
                count = self._load(read(fh, where, bar), where)
        except FileNotFoundError:
            raise FileNotFoundError(f"{key}: labels table not found: {path}") from None
        except OSError as exc:
            raise OracleFileError(f"{where}: cannot read it: {exc.strerror or exc}") from None
        covered = frozenset(self._label_of)
        self._labels = vocabulary if config.unlisted == "absent" else covered
        log.info("%s: %d rows, %d images", self.name, count, len(self._rows))

    def _load(self, rows: Iterator[Row], where: str) -> int:
        file_label: dict[str, int] = {}
        url_of: dict[str, str] = {}  # match: file_name only, to catch two URLs of one name
        count = 0
        for line, url, label, score in rows:
            count += 1
            if not url:
                raise OracleFileError(f"{where}: line {line}: empty url")
            key = match_key(url, self.config.match)
            if self.config.match == "file_name" and url_of.setdefault(key, url) != url:
                raise OracleFileError(
                    f"{where}: line {line}: {url} has the file name of {url_of[key]}"
                )
            packed = self._rows.setdefault(key, bytearray())
            if not label:
                if score not in (None, ""):
                    raise OracleFileError(f"{where}: line {line}: a score without a label")
                continue
            label_id = file_label.get(label)
            if label_id is None:
                mapped = vocabulary_label(label, self.config.class_map, self._vocabulary)
                if mapped is None:
                    raise OracleFileError(
                        f"{where}: line {line}: label {label!r} is not in the vocabulary "
                        "(map it with class_map)"
                    )
                label_id = file_label[label] = len(self._label_of)
                self._label_of.append(mapped)
            if any(given == label_id for given, _ in _ROW.iter_unpack(packed)):
                raise OracleFileError(f"{where}: line {line}: {url} lists {label!r} again")
            packed += _ROW.pack(label_id, _score(score, line, where))
        return count

    @property
    def labels(self) -> frozenset[str]:
        return self._labels

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        return [self._detection(item.url) for item in items]

    def _detection(self, url: str) -> Detection:
        packed = self._rows.get(match_key(url, self.config.match))
        if packed is None:
            return Detection()
        scores = dict.fromkeys(self._vocabulary, 0.0) if self.config.unlisted == "absent" else {}
        for label_id, score in _ROW.iter_unpack(packed):
            label = self._label_of[label_id]
            scores[label] = max(scores.get(label, 0.0), score)
        return Detection(scores=scores)
