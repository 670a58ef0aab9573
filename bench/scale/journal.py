"""The bench's journal, ``WORK/journal.jsonl``: its plan, then each stage run and run-end step
as it starts and as it ends, measured, one JSON line each. ``--resume`` goes on from where a run
stopped (a session's end, a crash) instead of starting the default size's hours over: what
ended is read back, not run again.

A stage run that started and never ended was cut off. It runs again whole, and negdata resumes
its shard from what the cut-off run left (its response cache, its written row groups), so its
figures count only the rest; the report names such runs (``cut_off``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.scale.measure import Measured
from negdata.shards import shard_name

NAME = "journal.jsonl"


@dataclass(frozen=True)
class Plan:
    """What to run: ``shards`` shards of ``per_shard`` URLs, then one of ``small`` URLs."""

    shards: int
    per_shard: int
    small: int
    seed: int
    bank: int  # distinct JPEGs served
    llm_tokens_per_s: float
    verify_workers: int

    @property
    def urls(self) -> int:
        return self.shards * self.per_shard + self.small

    @property
    def small_shard(self) -> int:
        return self.shards


@dataclass(frozen=True)
class StageRun:
    stage: str
    shard: int
    urls: int
    images: int  # the shard's ingested images
    measured: Measured
    server_cpu_s: float  # by the corpus server and the LLM stand-in meanwhile
    stats: dict[str, Any]  # the stage's done marker
    cut_off: bool = False  # an earlier session's run of it was cut off: it measured the rest

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> StageRun:
        return cls(**{**raw, "measured": Measured(**raw["measured"])})


@dataclass
class Journal:
    """What earlier sessions of the run measured, and the file this session appends to."""

    path: Path
    stages: dict[tuple[str, int], StageRun] = field(default_factory=dict)
    run_end: dict[str, Measured] = field(default_factory=dict)
    cut_off: set[str] = field(default_factory=set)  # started, never ended: "stage shard" or name
    server_cpu_s: Counter[str] = field(default_factory=Counter)  # by earlier sessions' servers
    session: int = 0

    @classmethod
    def begin(cls, work: Path, plan: Plan, resume: bool) -> Journal:
        """A new journal for ``plan``, or with ``resume`` the one in ``work`` read back (a
        ``ValueError`` where it was written for another plan); either way a session begins."""
        journal = cls(work / NAME)
        if resume and journal.path.exists():
            journal._read(plan)
        else:
            journal.path.unlink(missing_ok=True)
            journal._append({"plan": asdict(plan)})
        journal.session += 1
        journal._append({"session": journal.session})
        return journal

    def _read(self, plan: Plan) -> None:
        lines = [json.loads(line) for line in self.path.read_text().splitlines()]
        if lines[0]["plan"] != asdict(plan):
            raise ValueError(
                f"{self.path} is the journal of another plan ({lines[0]['plan']}); "
                "run without --resume to start over"
            )
        servers: dict[int, dict[str, float]] = {}
        for line in lines[1:]:
            if "session" in line:
                self.session = line["session"]
            elif "started" in line:
                self.cut_off.add(line["started"])
            elif "stage" in line:
                run = StageRun.from_json(line["stage"])
                self.stages[(run.stage, run.shard)] = run
                self.cut_off.discard(stage_key(run.stage, run.shard))
                servers[self.session] = line["servers"]
            else:
                self.run_end[line["run_end"]] = Measured(**line["measured"])
                self.cut_off.discard(line["run_end"])
        for totals in servers.values():
            self.server_cpu_s.update(totals)

    def started(self, stage: str, shard: int | None = None) -> bool:
        """Note that a stage run (or, without ``shard``, a run-end step) starts; whether an
        earlier session's run of it was cut off."""
        key = stage if shard is None else stage_key(stage, shard)
        self._append({"started": key})
        return key in self.cut_off

    def stage_ended(self, run: StageRun, servers: dict[str, float]) -> None:
        """``servers``: the servers' CPU seconds in this session so far."""
        self._append({"stage": asdict(run), "servers": servers})

    def run_end_ended(self, name: str, measured: Measured) -> None:
        self.run_end[name] = measured
        self._append({"run_end": name, "measured": asdict(measured)})

    def _append(self, line: dict[str, Any]) -> None:
        with self.path.open("a") as sink:
            sink.write(json.dumps(line) + "\n")


def stage_key(stage: str, shard: int) -> str:
    """How the journal and the report name a stage run: "plan 00004"."""
    return f"{stage} {shard_name(shard)}"
