"""Mistakes found before any work starts: an output folder that cannot be written, detector
weights or label files that are not there, a local LLM's Python or model folder missing, no
English parser for the publication gates.

Each is one line naming the config key, raised before Prefect, the LLM server or ingest start,
instead of a raw errno minutes into the run.
"""

from __future__ import annotations

import os
from pathlib import Path

from negdata.config import (
    ChexpertSource,
    CocoSource,
    Config,
    LabelsSource,
    OpenVocabSource,
    TableSource,
    YoloSource,
)
from negdata.shards import is_remote

# A model built from an Ultralytics model definition (random weights) needs no file of its own.
MODEL_DEFINITIONS = (".yaml", ".yml")


class PreflightError(ValueError):
    """A setting that would make the run fail later, found before it starts."""


def check_output_dir(cfg: Config) -> None:
    """``run.output_dir`` exists or can be made, and a file can be written in it (local only:
    an object store's permissions show at its first upload)."""
    out = cfg.run.output_dir
    if is_remote(out):
        return
    folder = Path(str(out)).expanduser()
    probe = folder / f".negdata-write-check-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise PreflightError(
            f"run.output_dir: cannot write to {folder}: {exc.strerror or exc}"
        ) from None


def source_files(cfg: Config) -> list[tuple[str, Path]]:
    """Every file the detect sources read, by config key (``detect.sources[1].weights``)."""
    files: list[tuple[str, Path]] = []
    for index, source in enumerate(cfg.detect.sources):
        key = f"detect.sources[{index}]"
        if isinstance(source, YoloSource | OpenVocabSource):
            if source.weights.suffix not in MODEL_DEFINITIONS:
                files.append((f"{key}.weights", source.weights))
        elif isinstance(source, LabelsSource | CocoSource | TableSource | ChexpertSource):
            files.append((f"{key}.path", source.path))
    return files


def check_detect_inputs(cfg: Config) -> None:
    """Every weights file and label file of ``detect.sources`` is there."""
    for key, path in source_files(cfg):
        if not path.expanduser().is_file():
            what = "weights file" if key.endswith(".weights") else "file"
            raise PreflightError(f"{key}: {what} not found: {path} (nothing is downloaded)")


def check_local_llm(cfg: Config) -> None:
    """With ``llm.local``: vLLM's Python is there, and the model folder is there or is one
    negdata builds (inside its own cache)."""
    from negdata.llm.server import check_model_dir, serve_python

    serve_python(cfg.llm.serve)
    check_model_dir(cfg.llm.serve)


def check_parser() -> None:
    """The publication gates' English parser (``validate.parser``) is installed, at the pinned
    version."""
    from negdata.validate.parser import ParserMissing, require_parser

    try:
        require_parser()
    except ParserMissing as exc:
        raise PreflightError(str(exc)) from None
