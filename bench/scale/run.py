"""The bench's run: the corpus served, the stand-in LLM started, then every stage of every shard
through negdata's own CLI (``negdata stage NAME --shards S``), each in a child process of its
own and measured (``bench/scale/measure.py``); then the run's end (``summarize``) and
``negdata verify`` with one worker and with one per core. Each measurement goes to the run's
journal as it ends (``bench/scale/journal.py``), so that a run can be resumed.

The config is ``configs/cc12m.yaml`` (the cluster run) with two stand-ins for what needs a GPU:
detection is a label oracle (a ``table`` source over the objects the corpus put in each image)
and the LLM is ``bench/scale/llm_standin.py``. Ingest, the client, its batching and response
cache, the plan, compose and publish code, the gates and the writers are the real ones.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import yaml

from bench.ingest import served_images
from bench.scale.corpus import FETCHABLE, CorpusFiles, rows, write_corpus
from bench.scale.journal import Journal, Plan, StageRun
from bench.scale.measure import Measured, measure
from negdata.shards import read_stats
from negdata.stages import STAGES

log = logging.getLogger("bench.scale")

ROOT = Path(__file__).resolve().parents[2]
MODEL = "llm-standin"  # the model name the stand-in serves and every record names
CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
SUMMARIZE = (
    "import sys; from negdata.config import load_config; from negdata.pipeline import summarize;"
    " summarize(load_config(sys.argv[1]))"
)


@dataclass
class BenchRun:
    plan: Plan
    stages: list[StageRun] = field(default_factory=list)
    run_end: dict[str, Measured] = field(default_factory=dict)  # summarize, verify-1, verify-N
    original_bytes: float = 0.0  # of a fetchable URL's image, on average
    server_cpu_s: dict[str, float] = field(default_factory=dict)


class Server:
    """A server in a child process of its own: the first line it prints is its JSON address."""

    def __init__(self, name: str, command: list[str], log_path: Path) -> None:
        self.name = name
        self._log = log_path.open("wb")
        self._proc = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self._log, text=True
        )
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {name} did not start; see {log_path}")
        self.address: dict[str, int] = json.loads(line)
        self.process = psutil.Process(self._proc.pid)

    def cpu_s(self) -> float:
        times = self.process.cpu_times()
        return float(times.user + times.system)

    def stop(self) -> None:
        self._proc.terminate()
        self._proc.wait()
        self._log.close()


@contextlib.contextmanager
def servers(work: Path, plan: Plan, bank: list[Path]) -> Iterator[tuple[Server, Server]]:
    started: list[Server] = []
    try:
        corpus = Server(
            "corpus server",
            [sys.executable, "-m", "bench.scale.corpus_server", str(plan.seed), *map(str, bank)],
            work / "logs" / "corpus-server.log",
        )
        started.append(corpus)
        llm = Server(
            "LLM stand-in",
            [sys.executable, "-m", "bench.scale.llm_standin", str(plan.llm_tokens_per_s), MODEL],
            work / "logs" / "llm-standin.log",
        )
        started.append(llm)
        yield corpus, llm
    finally:
        for server in started:
            server.stop()


def write_config(work: Path, corpus: CorpusFiles, plan: Plan, llm_port: int) -> Path:
    """configs/cc12m.yaml on the corpus, with the two stand-ins."""
    raw = yaml.safe_load((ROOT / "configs/cc12m.yaml").read_text())
    raw["run"] = {**raw["run"], "output_dir": str(work / "out"), "seed": plan.seed}
    raw["input"] = {**raw["input"], "path": str(corpus.table), "samples_per_shard": plan.per_shard}
    # Every URL is on 127.0.0.1, which the address guard refuses unless allowed: one host, so
    # the per-host limit is the overall one (CC12M's URLs are on about a million hosts).
    raw["ingest"] = {
        **raw["ingest"],
        "allowed_hosts": ["127.0.0.1"],
        "per_host_concurrency": raw["ingest"]["concurrency"],
    }
    raw["detect"]["sources"] = [{"kind": "table", "path": str(corpus.labels)}]  # stand-in
    raw["llm"] = {**raw["llm"], "endpoint": f"http://127.0.0.1:{llm_port}/v1", "model": MODEL}
    raw["compose"] = {**raw["compose"], "prompts_dir": str(ROOT / "prompts")}
    path = work / "config.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return path


def _cpu(servers: tuple[Server, ...]) -> float:
    return sum(server.cpu_s() for server in servers)


def _server_cpu(corpus: Server, llm: Server) -> dict[str, float]:
    """Each server's CPU seconds so far (in this session: a resumed run starts them again)."""
    return {"corpus": corpus.cpu_s(), "llm": llm.cpu_s()}


def run_bench(work: Path, plan: Plan, resume: bool = False) -> BenchRun:
    """Run ``plan`` in ``work``: from the start (its earlier output removed: a done stage would
    be skipped), or with ``resume`` from where the run in ``work`` stopped, by its journal."""
    journal = Journal.begin(work, plan, resume)
    if journal.session == 1:
        shutil.rmtree(work / "out", ignore_errors=True)
        shutil.rmtree(work / "logs", ignore_errors=True)
    (work / "logs").mkdir(parents=True, exist_ok=True)
    result = BenchRun(plan)
    bank = served_images(work, plan.bank)
    sizes = [path.stat().st_size for path in bank]
    fetched = [sizes[row.index % len(bank)] for row in rows(plan.seed, plan.urls)
               if row.kind in FETCHABLE]  # fmt: skip
    result.original_bytes = sum(fetched) / max(1, len(fetched))
    with servers(work, plan, bank) as (corpus, llm):
        # The corpus's URLs name the server's port: written again each session.
        files = write_corpus(
            work / "corpus", plan.seed, plan.urls, corpus.address["port"],
            corpus.address["dead_port"],
        )  # fmt: skip
        config = write_config(work, files, plan, llm.address["port"])
        (work / "out").mkdir(exist_ok=True)
        for shard in range(plan.shards + 1):
            urls = plan.per_shard if shard < plan.shards else plan.small
            for stage in STAGES:
                done = journal.stages.get((stage.name, shard))
                if done is None:
                    cut_off = journal.started(stage.name, shard)
                    done = _stage_run(work, config, stage.name, shard, urls, (corpus, llm), cut_off)
                    journal.stage_ended(done, _server_cpu(corpus, llm))
                result.stages.append(done)
        journal.server_cpu_s.update(_server_cpu(corpus, llm))
        result.server_cpu_s = dict(journal.server_cpu_s)
    result.run_end = _run_end(work, config, plan, journal)
    return result


def _stage_run(
    work: Path,
    config: Path,
    stage: str,
    shard: int,
    urls: int,
    servers: tuple[Server, ...],
    cut_off: bool,
) -> StageRun:
    """One stage of one shard through the CLI, measured (``cut_off``: an earlier session's run
    of it was, so this one measures the rest)."""
    out = work / "out"
    before = _cpu(servers)
    measured = measure(
        [*CLI, "stage", stage, "--shards", str(shard), "--config", str(config)],
        work / "logs" / f"{stage}-{shard:05d}.log",
        out,
        ROOT,
    )
    directory = next(s.directory for s in STAGES if s.name == stage)
    log.info(
        "%s %05d: %.1f s, %.1f CPU s, %.0f MiB", stage, shard, measured.wall_s, measured.cpu_s,
        measured.tree_rss_mib,
    )  # fmt: skip
    return StageRun(
        stage=stage,
        shard=shard,
        urls=urls,
        images=(read_stats(out / "shards", shard) or {}).get("successes", 0),
        measured=measured,
        server_cpu_s=_cpu(servers) - before,
        stats=read_stats(out / directory, shard) or {},
        cut_off=cut_off,
    )


def _run_end(work: Path, config: Path, plan: Plan, journal: Journal) -> dict[str, Measured]:
    """The run's summary files, then ``negdata verify`` on one worker and on ``verify_workers``
    (each step that an earlier session measured read back from ``journal``)."""
    out = work / "out"
    commands = {"summarize": [sys.executable, "-c", SUMMARIZE, str(config)]}
    for workers in sorted({1, plan.verify_workers}):
        commands[f"verify-{workers}"] = [
            *CLI, "verify", str(out), "--config", str(config), "--workers", str(workers),
        ]  # fmt: skip
    for name, command in commands.items():
        if name not in journal.run_end:
            journal.started(name)
            measured = measure(command, work / "logs" / f"{name}.log", out, ROOT)
            journal.run_end_ended(name, measured)
            log.info("%s: %.1f s", name, measured.wall_s)
    return {name: journal.run_end[name] for name in commands}
