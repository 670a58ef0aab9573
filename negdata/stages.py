"""The stage table: each stage's name, output folder, function, the config sections and prompts
its output depends on, and the hash its done marker records.

Below both ``negdata.pipeline`` (which runs the stages) and ``negdata.publish`` (whose
provenance names their hashes), so neither imports the other for it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from negdata import __version__
from negdata.config import Config
from negdata.llm.prompts import load_prompt
from negdata.publish import layout
from negdata.shards import is_done
from negdata.validate.parser import parser_info

StageFn = Callable[[Config, int, str], dict[str, Any]]


def _ingest(cfg: Config, shard: int, h: str) -> dict[str, Any]:
    from negdata.ingest.stage import run_ingest

    return run_ingest(cfg, shard, h)


def _detect(cfg: Config, shard: int, h: str) -> dict[str, Any]:
    from negdata.detect.stage import run_detect

    return run_detect(cfg.detect, cfg.run.output_dir, shard, h)


def _plan(cfg: Config, shard: int, h: str) -> dict[str, Any]:
    from negdata.compose.plan import run_plan

    return run_plan(cfg, shard, h)


def _compose(cfg: Config, shard: int, h: str) -> dict[str, Any]:
    from negdata.compose.captions import run_compose

    return run_compose(cfg, shard, h)


def _publish(cfg: Config, shard: int, h: str) -> dict[str, Any]:
    from negdata.publish.stage import run_publish

    return run_publish(cfg, shard, h)


def _no_prompts(cfg: Config) -> tuple[str, ...]:
    return ()


def _judge_prompt(cfg: Config) -> tuple[str, ...]:
    return ("judge",) if cfg.validation.judge else ()


@dataclass(frozen=True)
class Stage:
    name: str
    directory: str
    run: StageFn
    sections: tuple[str, ...]
    prompts: Callable[[Config], tuple[str, ...]] = _no_prompts

    def uses_llm(self, cfg: Config) -> bool:
        return bool(self.prompts(cfg))


_UP_TO_DETECT = ("input", "ingest", "detect")
STAGES: tuple[Stage, ...] = (
    Stage("ingest", "shards", _ingest, ("input", "ingest")),
    Stage("detect", "evidence", _detect, _UP_TO_DETECT),
    Stage("plan", "objects", _plan, (*_UP_TO_DETECT, "plan"), lambda cfg: ("plan",)),
    Stage(
        "compose",
        "captions",
        _compose,
        (*_UP_TO_DETECT, "plan", "compose"),
        lambda cfg: ("compose", "paraphrase") if cfg.compose.paraphrase_mcq else ("compose",),
    ),
    Stage(
        "publish",
        layout.MARKERS,  # its outputs are in the dataset folders (negdata.publish.layout)
        _publish,
        (*_UP_TO_DETECT, "plan", "compose", "validation", "publish"),
        _judge_prompt,
    ),
)


# Stages whose output depends on the English parser: compose keeps a paraphrase only where the
# parse finds no new noun, publish gates with it.
PARSED = frozenset({"compose", "publish"})


def stage_hash(cfg: Config, stage: Stage) -> str:
    """Hash of everything the stage's output depends on (upstream settings included)."""
    index = STAGES.index(stage)
    upstream = STAGES[: index + 1]
    prompts = [
        load_prompt(cfg.compose.prompts_dir, p).ref for s in upstream for p in s.prompts(cfg)
    ]
    uses_llm = any(s.uses_llm(cfg) for s in upstream)
    payload = {
        "sections": cfg.section_hash(*stage.sections),
        "prompts": prompts,
        "llm": llm_outputs(cfg) if uses_llm else None,
        "seed": cfg.run.seed,
        "negdata": __version__,
    }
    if stage.name in PARSED:  # they read captions through the parser's model
        payload["parser"] = parser_info().digest
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def llm_outputs(cfg: Config) -> dict[str, Any]:
    """The LLM settings that change what it answers (not where it is or how hard it is pushed)."""
    return cfg.llm.model_dump(
        mode="json", include={"model", "server_kind", "temperature", "max_tokens", "seed"}
    )


def stage_done(cfg: Config, stage: Stage, shard: int) -> bool:
    return is_done(cfg.run.output_dir / stage.directory, shard, stage_hash(cfg, stage))
