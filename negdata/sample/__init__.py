"""The bundled sample: real photos that ship inside installed packages, captioned by hand.

``manifest.yaml`` names each photo (package and path inside it), one CC12M-style caption and the
COCO labels of what is visible in it. ``build_sample`` copies the photos out and writes the
pipeline's input in CC12M format (``url<TAB>caption``, no header) plus the ground-truth labels.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, field_validator

from negdata.shards import atomic_path

log = logging.getLogger(__name__)


class SampleImage(BaseModel):
    """One manifest entry."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    package: str
    path: str
    caption: str
    labels: tuple[str, ...]

    @field_validator("caption")
    @classmethod
    def _one_line(cls, caption: str) -> str:
        if "\t" in caption or "\n" in caption:
            raise ValueError("a caption must be one line without tabs")
        return caption


@dataclass(frozen=True)
class SampleFiles:
    tsv: Path
    labels: Path


def load_manifest() -> list[SampleImage]:
    raw = yaml.safe_load(files(__name__).joinpath("manifest.yaml").read_text())
    images = [SampleImage.model_validate(entry) for entry in raw["images"]]
    ids = [image.id for image in images]
    if len(set(ids)) != len(ids):
        raise ValueError(f"sample manifest has duplicate ids: {sorted(ids)}")
    return images


def package_file(
    package: str, relative: str, needed_by: str = "the sample", install: str = "'negdata[sample]'"
) -> Path:
    """A file shipped inside an installed package, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"package {package!r} is not installed; {needed_by} needs it (pip install {install})"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    if not path.is_file():
        raise FileNotFoundError(
            f"{relative} is missing from the installed package {package!r} (looked at {path}); "
            "reinstall the package"
        )
    return path


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return True


def build_sample(out_dir: Path) -> SampleFiles:
    """Write ``images/``, ``sample.tsv`` and ``labels.json`` under ``out_dir``.

    Files whose content is already right are left untouched, so a rebuild changes nothing.
    """
    out_dir = out_dir.resolve()
    rows: list[str] = []
    labels: dict[str, list[str]] = {}
    written = 0
    for image in load_manifest():
        source = package_file(image.package, image.path)
        target = out_dir / "images" / f"{image.id}{source.suffix}"
        written += _write_if_changed(target, source.read_bytes())
        url = target.as_uri()
        rows.append(f"{url}\t{image.caption}\n")
        labels[url] = sorted(image.labels)
    tsv = out_dir / "sample.tsv"
    labels_path = out_dir / "labels.json"
    written += _write_if_changed(tsv, "".join(rows).encode())
    written += _write_if_changed(labels_path, (json.dumps(labels, indent=2) + "\n").encode())
    log.info("sample: %d images in %s (%d files written)", len(rows), out_dir, written)
    return SampleFiles(tsv=tsv, labels=labels_path)
