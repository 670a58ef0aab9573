"""What a run's data was made with: models, detector weights and their sha256, prompts, the
English parser and its sha256, config.

The data card lists it, so that a reader can tell two runs apart and rebuild one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from negdata.config import Config, OpenVocabSource, YoloSource
from negdata.llm.prompts import load_prompt
from negdata.stages import STAGES, stage_hash
from negdata.validate.parser import ParserInfo, parser_info

# Where the servers are, and credentials: not what the data depends on, and not for a card.
_NOT_PROVENANCE: dict[str, Any] = {
    "run": {"storage_options"},
    "input": {"storage_options"},
    "llm": {"api_key", "endpoint", "endpoints", "serve"},
}


@dataclass(frozen=True)
class DetectorSource:
    """One evidence source: a detector's weights or a label file, by name and content hash."""

    kind: str
    file: str
    sha256: str | None  # None when the file is no longer where the config says
    settings: dict[str, Any]


@dataclass(frozen=True)
class Provenance:
    negdata_version: str
    llm_models: list[str]
    sources: list[DetectorSource]
    vocabulary: str
    prompts: list[str]  # id@version#hash of every prompt the stages use
    parser: ParserInfo  # the English pipeline the publication gates parse captions with
    records_hash: str  # the config_hash every published record carries
    config_hash: str  # of the whole config (Config.section_hash)
    config: dict[str, Any]


def file_sha256(path: Path) -> str | None:
    """The file's sha256, read in 1 MiB blocks; None when it does not exist."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
    except FileNotFoundError:
        return None
    return digest.hexdigest()


def detector_sources(cfg: Config) -> list[DetectorSource]:
    sources = []
    for source in cfg.detect.sources:
        path = source.weights if isinstance(source, YoloSource | OpenVocabSource) else source.path
        settings = source.model_dump(mode="json", exclude={"kind", "weights", "path", "device"})
        if source.kind == "open_vocab":  # the encoder decides what the classes mean
            settings["text_encoder_sha256"] = file_sha256(source.text_encoder)
        sources.append(DetectorSource(source.kind, path.name, file_sha256(path), settings))
    return sources


def provenance(cfg: Config, summary: dict[str, Any], record_models: set[str]) -> Provenance:
    """``record_models``: the model names the published records carry (beside stats' own)."""
    publish = next(stage for stage in STAGES if stage.name == "publish")
    prompts = [
        load_prompt(cfg.compose.prompts_dir, name).ref
        for stage in STAGES
        for name in stage.prompts(cfg)
    ]
    models = {summary.get("llm_model") or cfg.llm.model} | record_models
    return Provenance(
        negdata_version=summary["negdata_version"],
        llm_models=sorted(models),
        sources=detector_sources(cfg),
        vocabulary=cfg.detect.vocabulary,
        prompts=list(dict.fromkeys(prompts)),
        parser=parser_info(),
        records_hash=stage_hash(cfg, publish),
        config_hash=cfg.section_hash(),
        config=cfg.model_dump(mode="json", exclude=_NOT_PROVENANCE),
    )
