"""One NegCap tar read through to its end: each sample whole, its ``.json`` a NegCap sample of
the tar's split, its ``.txt`` one of that sample's captions, its ``.jpg`` the bytes whose sha256
the ``.json`` gives (a flipped byte may still decode) and a JPEG that decodes."""

from __future__ import annotations

import hashlib
import io
import tarfile
from dataclasses import dataclass, field

from PIL import Image
from pydantic import ValidationError

from negdata.records import NegCapSample
from negdata.shards import Location
from negdata.wds import tar_samples

MEMBERS = ("jpg", "txt", "json")


def problem(path: Location, what: str) -> str:
    """A problem's line: ``path: what``."""
    return f"{path}: {what}"


@dataclass(frozen=True)
class TarSample:
    """What the NegCap Parquet is checked against: the caption texts of a sample's ``.json``
    and the sha256 it gives for the ``.jpg`` (checked against the bytes here)."""

    captions: list[str]
    jpg_sha256: str


@dataclass
class TarContents:
    """A tar's samples in order, as (key, sample), and its problems. ``readable`` is false when
    the tar could not be read to its end (its samples are partial)."""

    samples: list[tuple[str, TarSample]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    readable: bool = True


def read_negcap_tar(path: Location, split: str) -> TarContents:
    contents = TarContents()
    try:
        with path.open("rb") as fh:
            for key, files in tar_samples(fh, "r|*", read=True):
                sample, problems = _check_sample(key, files, split)
                contents.samples.append((key, sample))
                contents.problems += [problem(path, f"{key}: {what}") for what in problems]
    except (tarfile.TarError, EOFError, OSError) as exc:
        contents.problems.append(problem(path, f"unreadable tar: {exc or type(exc).__name__}"))
        contents.readable = False
    return contents


def _check_sample(key: str, files: dict[str, bytes], split: str) -> tuple[TarSample, list[str]]:
    """The sample as the Parquet is checked against it, and what is wrong with the sample."""
    missing = [f".{m}" for m in MEMBERS if m not in files]
    if missing:
        return TarSample([], ""), [f"missing {', '.join(missing)}"]
    problems = []
    try:
        record = NegCapSample.model_validate_json(files["json"])
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        what = f".json is not a NegCap sample: {where + ': ' if where else ''}{error['msg']}"
        return TarSample([], ""), [what]
    captions = [c.text for c in record.captions]
    if record.split != split:
        problems.append(f".json says split {record.split}")
    if files["txt"].decode("utf-8", "replace") not in captions:
        problems.append(".txt is not one of the .json's captions")
    try:
        with Image.open(io.BytesIO(files["jpg"])) as image:
            image.load()
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        problems.append(f".jpg does not decode: {exc}")
    else:
        stored = hashlib.sha256(files["jpg"]).hexdigest()
        if stored != record.jpg_sha256:
            problems.append(f".jpg has sha256 {stored}, the .json says {record.jpg_sha256}")
    return TarSample(captions, record.jpg_sha256), problems
