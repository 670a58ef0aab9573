"""The bundled medical sample: a toy of grayscale medical images found inside installed
packages, with hand-written CheXpert-style labels (``medical.yaml``; not diagnoses).

``build_medical_sample`` writes ``images/`` (DICOM converted to 8-bit PNG; anything smaller than
``MIN_SIDE`` scaled up so that ingest keeps it), ``sample.tsv`` (``url<TAB>caption``, no header)
and ``labels.csv``: a CheXpert CSV whose ``Path`` column is the image path relative to the
sample folder, as CheXpert's own ``train.csv`` lists its images.
"""

from __future__ import annotations

import csv
import io
import logging
from importlib.resources import files
from pathlib import Path
from typing import Literal

import numpy as np
import yaml
from PIL import Image
from pydantic import BaseModel, ConfigDict, field_validator

from negdata.detect.chexpert import COLUMNS
from negdata.sample import SampleFiles, _write_if_changed, package_file

log = logging.getLogger(__name__)

MIN_SIDE = 256


class MedicalImage(BaseModel):
    """One entry of ``medical.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    package: str
    path: str
    caption: str
    findings: dict[str, Literal[1, 0, -1]]

    @field_validator("findings")
    @classmethod
    def _chexpert_columns(cls, findings: dict[str, int]) -> dict[str, int]:
        unknown = sorted(set(findings) - set(COLUMNS))
        if unknown:
            raise ValueError(f"not CheXpert columns: {unknown}")
        return findings


def load_medical_manifest() -> list[MedicalImage]:
    raw = yaml.safe_load(files("negdata.sample").joinpath("medical.yaml").read_text())
    images = [MedicalImage.model_validate(entry) for entry in raw["images"]]
    ids = [image.id for image in images]
    if len(set(ids)) != len(ids):
        raise ValueError(f"medical sample manifest has duplicate ids: {sorted(ids)}")
    return images


def _grayscale(source: Path) -> Image.Image:
    """The image as 8-bit grayscale: a DICOM's pixels windowed to their 0.5-99.5 percentiles."""
    if source.suffix.lower() != ".dcm":
        return Image.open(source).convert("L")
    import pydicom

    pixels = pydicom.dcmread(source).pixel_array.astype(np.float64)
    low, high = np.percentile(pixels, [0.5, 99.5])
    scaled = np.clip((pixels - low) / max(high - low, 1e-9), 0, 1) * 255
    return Image.fromarray(scaled.round().astype(np.uint8))


def _png(source: Path) -> bytes:
    image = _grayscale(source)
    if min(image.size) < MIN_SIDE:
        factor = MIN_SIDE / min(image.size)
        image = image.resize(
            (round(image.width * factor), round(image.height * factor)), Image.Resampling.BICUBIC
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def build_medical_sample(out_dir: Path) -> SampleFiles:
    """Write ``images/``, ``sample.tsv`` and ``labels.csv`` under ``out_dir``; files already
    right are left untouched, so a rebuild changes nothing."""
    out_dir = out_dir.resolve()
    rows: list[str] = []
    table = io.StringIO()
    writer = csv.writer(table, lineterminator="\n")
    writer.writerow(["Path", *COLUMNS])
    written = 0
    for image in load_medical_manifest():
        relative = f"images/{image.id}.png"
        target = out_dir / relative
        written += _write_if_changed(target, _png(package_file(image.package, image.path)))
        rows.append(f"{target.as_uri()}\t{image.caption}\n")
        values = [image.findings.get(column) for column in COLUMNS]
        writer.writerow([relative, *("" if v is None else f"{v:.1f}" for v in values)])
    tsv = out_dir / "sample.tsv"
    labels = out_dir / "labels.csv"
    written += _write_if_changed(tsv, "".join(rows).encode())
    written += _write_if_changed(labels, table.getvalue().encode())
    log.info("medical sample: %d images in %s (%d files written)", len(rows), out_dir, written)
    return SampleFiles(tsv=tsv, labels=labels)
