"""`make bench-cluster`: the same shards through the cluster on 1 worker, then on 2 workers;
with ``--many``, Prefect at hundreds of chunk runs.

In one run, on loopback: a Prefect server of its own (database in ``{work}/prefect``), the vLLM CPU
server, and a bench input of ``--shards`` x ``--images`` distinct JPEGs (the sample photos,
cycled, each rescaled to a size of its own, read as local files) with the sample's captions and
labels. Detection is as in the sample: its labels and the real YOLO person model.

1. A one-process run (``flows/generate.py``, not timed against the others) fills the LLM
   response cache. On a cluster the LLM is served by machines of its own; here it would share
   the same 2 cores with the workers, so both cluster passes read its replies from that cache
   and time ingest, detect, plan, compose and publish, the work a worker does.
2. For 1 and then 2 workers (fake GPUs 0 and 1: ``CUDA_VISIBLE_DEVICES`` on a machine without
   one; ``OMP_NUM_THREADS=1``, so torch uses one CPU thread per worker, and one decode process
   each): ``make deploy``'s deployments for a fresh output folder holding a copy of the cache,
   ``flows/workers.py``, and ``flows/generate.py --cluster`` timed on the wall clock.

It prints the wall time of each pass and the speedup, checks that both passes wrote the same
bytes, and reads Prefect's overhead per chunk from the server: from the child flow run's
creation (scheduled) to the start of its first stage task (the worker's poll, the flow run's
process start and imports, the wait for the LLM server). That overhead is set against a
10,000-image shard at the per-image time measured here.

``--many`` is a pass of another kind, for what Prefect costs at hundreds of chunk runs: 200
one-image shards in chunks of 1 through the parent deployment on 4 workers, all in ``{work}/many``
with a Prefect database of its own, made afresh. The LLM is the OpenAI-compatible stand-in of
``make bench-scale`` (``bench/scale/llm_standin.py``, unpaced) and detection the sample's labels
alone: the subject is Prefect, not vLLM on 2 cores or a detector loaded 200 times. It prints,
and fails unless each is exactly 1, the stage task runs per (stage, shard) on the server; the
parent's cost per poll cycle (from its log); the overhead per chunk run as above (median and
p90); the server's database before and after; and the artifacts, counted and read back.

Usage: ``python -m bench.cluster [--shards 8] [--images 12] [--chunk 2]``, or
``python -m bench.cluster --many [--shards 200] [--images 1] [--chunk 1] [--workers 4]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import yaml
from PIL import Image

from bench.scale.run import MODEL, Server
from negdata.config import Config, load_config
from negdata.llm import LocalServer, ensure_model
from negdata.sample import build_sample
from negdata.stages import STAGES

CC12M_SHARD = 10_000  # images per shard of a CC12M crawl (REFERENCE.md section 3)
LONGEST = (400, 1280)  # longest side of the bench images, px
TARGET_SHARE = 0.02  # per-chunk overhead must stay under this share of one such shard
ROOT = Path(__file__).resolve().parents[1]
MANY = {"shards": 200, "images": 1, "chunk": 1}  # --many's defaults
PAGE = 200  # the most a Prefect server returns for one filter request (its default limit)
POLL_S = 10.0  # the parent's poll interval at the default run.lease_ttl_s (flows/cluster.py)
CHILDREN_STARTED = re.compile(r"child runs started in ([\d.]+) s")
POLL_CYCLE = re.compile(r"chunks open; (\d+) checked in ([\d.]+) s")


@dataclass(frozen=True)
class Pass:
    workers: int
    wall_s: float
    chunks: list[ChunkRun]
    log: Path  # the workers' output, the parent run's log lines among it

    def median(self, part: str) -> float:
        return float(statistics.median(getattr(c, part) for c in self.chunks))


def bench_input(work: Path, shards: int, images: int) -> tuple[Path, Path]:
    """A TSV of ``shards * images`` distinct JPEGs in ``{work}/images``: the sample photos,
    cycled, each whole (so the sample's labels stay true of it) and rescaled to its own size,
    with the photo's caption; and the labels of each. Returns the TSV and the labels file."""
    sample = build_sample(work / "sample")
    rows = [line.split("\t") for line in sample.tsv.read_text().splitlines()]
    truth = json.loads(sample.labels.read_text())
    folder = work / "images"
    folder.mkdir(exist_ok=True)
    lines, labels = [], {}
    for i in range(shards * images):
        url, caption = rows[i % len(rows)]
        target = folder / f"{i:05d}.jpg"
        if not target.exists():
            with Image.open(Path(urlparse(url).path)) as photo:
                image = photo.convert("RGB")
            scale = (LONGEST[0] + 37 * i % (LONGEST[1] - LONGEST[0])) / max(image.size)
            image = image.resize((round(image.width * scale), round(image.height * scale)))
            image.save(target, format="JPEG", quality=90)
        lines.append(f"{target.as_uri()}\t{caption}")
        labels[target.as_uri()] = truth[url]
    tsv, labels_path = work / "bench.tsv", work / "labels.json"
    tsv.write_text("\n".join(lines) + "\n")
    labels_path.write_text(json.dumps(labels, indent=2) + "\n")
    return tsv, labels_path


def write_config(work: Path, name: str, args: argparse.Namespace, endpoint: str | None) -> Path:
    raw = yaml.safe_load((ROOT / "configs/sample.yaml").read_text())
    tsv, labels = bench_input(work, args.shards, args.images)
    raw["run"] = {**raw["run"], "output_dir": str(work / name), "shards_per_chunk": args.chunk}
    raw["input"] = {**raw["input"], "path": str(tsv), "files_root": str(work / "images"),
                    "samples_per_shard": args.images}  # fmt: skip
    raw["ingest"] = {**raw["ingest"], "workers": 1}
    weights = str(ROOT / "data/models/fall_detection_best.pt")  # `make sample` copies them
    sources = [{"kind": "labels", "path": str(labels)}]
    if not args.many:  # with --many the labels alone: no detector loaded by every chunk run
        sources.append({**raw["detect"]["sources"][1], "weights": weights})
    raw["detect"]["sources"] = sources
    raw["compose"] = {**raw["compose"], "prompts_dir": str(ROOT / "prompts")}
    if endpoint:
        raw["llm"] = {**raw["llm"], "local": False, "endpoint": endpoint}
    if args.many:
        raw["llm"]["model"] = MODEL  # the stand-in's
    path = work / f"{name}.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def _run(command: list[str], env: dict[str, str]) -> float:
    started = time.monotonic()
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[1:3])} failed:\n{done.stderr[-3000:]}")
    return time.monotonic() - started


def _outputs(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.suffix in (".tar", ".parquet") and not p.name.startswith(".")
    }


def _time(value: str | None) -> datetime:
    assert value is not None
    return datetime.fromisoformat(value)


@dataclass(frozen=True)
class ChunkRun:
    """One child flow run's timeline, in seconds after its worker could have taken it: the
    later of its creation and the end of that worker's previous run."""

    wait_s: float  # until Running: the worker's poll, the flow run's process, Prefect's engine
    setup_s: float  # Running until the first stage task starts: config, LLM server check
    work_s: float  # first stage task until the run ended
    stages: list[str]  # its stage task runs' names: "ingest-00003", ...


def _every(http: httpx.Client, path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object a filter endpoint matches, ``PAGE`` at a time."""
    found: list[dict[str, Any]] = []
    while True:
        reply = http.post(path, json={**body, "limit": PAGE, "offset": len(found)})
        reply.raise_for_status()
        page = reply.json()
        found += page
        if len(page) < PAGE:
            return found


def chunk_runs(api: str, since: datetime) -> list[ChunkRun]:
    """Every chunk flow run (``negdata-shards``) started after ``since``, from the server."""
    with httpx.Client(base_url=api, timeout=30.0) as http:
        runs = _every(http, "/flow_runs/filter", {
            "flows": {"name": {"any_": ["negdata-shards"]}},
            "flow_runs": {"start_time": {"after_": since.isoformat()}},
            "sort": "START_TIME_ASC",
        })  # fmt: skip
        free_at: dict[str, datetime] = {}  # worker -> end of its last run
        timelines = []
        for run in runs:
            tasks = _every(http, "/task_runs/filter", {"flow_runs": {"id": {"any_": [run["id"]]}}})
            stages = [t for t in tasks if t["start_time"] and not t["name"].startswith("shard-")]
            worker = run["labels"].get("prefect.worker.name", "")
            ready = max(filter(None, (_time(run["created"]), free_at.get(worker))))
            started, ended = _time(run["start_time"]), _time(run["end_time"])
            free_at[worker] = ended
            if stages:  # none when a child found its shards taken
                first = min(_time(t["start_time"]) for t in stages)
                timelines.append(ChunkRun(
                    (started - ready).total_seconds(), (first - started).total_seconds(),
                    (ended - first).total_seconds(), [t["name"] for t in stages],
                ))  # fmt: skip
    return timelines


@contextlib.contextmanager
def workers(count: int, env: dict[str, str], log: Path) -> Iterator[None]:
    gpus = ",".join(str(k) for k in range(count))
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "flows/workers.py", "--gpus", gpus], env=env, cwd=ROOT,
            stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            yield
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def cluster_pass(work: Path, count: int, args: argparse.Namespace, api: str,
                 endpoint: str, cache: Path | None) -> Pass:  # fmt: skip
    """One run through the parent deployment on ``count`` workers, into a fresh output folder
    (holding a copy of the response ``cache``, if one is given)."""
    name = f"out-{count}-workers"
    shutil.rmtree(work / name, ignore_errors=True)
    config = write_config(work, name, args, endpoint)
    (work / name).mkdir()
    if cache:
        shutil.copytree(cache, work / name / "llm_cache")
    env = {**os.environ, "PREFECT_API_URL": api, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    shards = f"0-{args.shards - 1}"
    _run([sys.executable, "flows/deploy.py", "--config", str(config), "--shards", shards], env)
    since = datetime.now().astimezone()
    log = work / f"{name}.log"
    with workers(count, env, log):
        wall = _run([sys.executable, "flows/generate.py", "--shards", shards, "--config",
                     str(config), "--cluster"], env)  # fmt: skip
    chunks = chunk_runs(api, since)
    print(f"{count} worker(s): {wall:.1f} s wall, {len(chunks)} chunk runs", flush=True)
    return Pass(count, wall, chunks, log)


def report(passes: list[Pass], args: argparse.Namespace, same: bool) -> dict[str, Any]:
    one, two = passes
    images = args.shards * args.images
    chunks = one.chunks + two.chunks
    overhead = statistics.median(c.wait_s + c.setup_s for c in chunks)
    # One worker, one torch thread, every stage of an image; the bench's small shards put
    # their fixed costs (the model load of each chunk run, say) on few images, so this is high.
    per_image = sum(c.work_s for c in one.chunks) / images
    shard_s = per_image * CC12M_SHARD
    result = {
        "images": images,
        "shards": args.shards,
        "chunk": args.chunk,
        "wall_s": {p.workers: round(p.wall_s, 1) for p in passes},
        "speedup": round(one.wall_s / two.wall_s, 2),
        "overhead_s": {
            "median": round(overhead, 2),
            "wait_median": round(statistics.median(c.wait_s for c in chunks), 2),
            "setup_median": round(statistics.median(c.setup_s for c in chunks), 2),
            "max": round(max(c.wait_s + c.setup_s for c in chunks), 2),
        },
        "work_s_per_image_one_worker": round(per_image, 3),
        "overhead_share_of_10k_shard": round(overhead / shard_s, 5),
        "break_even_images_s": round(TARGET_SHARE * CC12M_SHARD / overhead, 1),
        "same_outputs": same,
    }
    print()
    print("| workers | wall s | speedup | chunk runs | chunk work s | overhead s: wait + setup |")
    print("| --- | --- | --- | --- | --- | --- |")
    for p in passes:
        print(f"| {p.workers} | {p.wall_s:.1f} | {one.wall_s / p.wall_s:.2f} | "
              f"{len(p.chunks)} | {p.median('work_s'):.1f} | "
              f"{p.median('wait_s'):.1f} + {p.median('setup_s'):.1f} |")  # fmt: skip
    print("(chunk columns: medians; wait: from when a worker was free to the run's start,"
          " setup: from there to its first stage)")  # fmt: skip
    print()
    print(f"outputs of 1 and 2 workers byte-identical: {same}")
    print(f"one worker, one torch thread: {per_image:.3f} s of work per image; a 10,000-image "
          f"shard {shard_s:.0f} s, of which a chunk's overhead ({overhead:.1f} s) is "
          f"{100 * overhead / shard_s:.2f}% (target < {100 * TARGET_SHARE:.0f}%)")  # fmt: skip
    print(f"the overhead stays under {100 * TARGET_SHARE:.0f}% of a 10,000-image shard while "
          f"a worker does fewer than {result['break_even_images_s']} images/s")  # fmt: skip
    return result


def two_passes(work: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The default: fill the response cache, then 1 worker, then 2 (see the module's doc)."""
    from flows.temporary_server import temporary_server

    fill = write_config(work, "out-fill", args, endpoint=None)
    cfg: Config = load_config(fill)
    ensure_model(cfg.llm.serve)
    with LocalServer(cfg.llm) as server, temporary_server() as api:
        fill = write_config(work, "out-fill", args, endpoint=server.base_url)
        cache = work / "out-fill" / "llm_cache"
        if not cache.exists():
            print(f"filling the LLM cache: {args.shards * args.images} images ...", flush=True)
            filled = _run([sys.executable, "flows/generate.py", "--shards",
                           f"0-{args.shards - 1}", "--config", str(fill)],
                          {**os.environ, "PREFECT_API_URL": api})  # fmt: skip
            print(f"filled in {filled:.0f} s", flush=True)
        passes = [cluster_pass(work, n, args, api, server.base_url, cache) for n in (1, 2)]
    same = _outputs(work / "out-1-workers") == _outputs(work / "out-2-workers")
    return report(passes, args, same)


def database_bytes(path: Path) -> tuple[int, dict[str, int]]:
    """The bytes of the Prefect server's SQLite database as a reader sees it (its write-ahead
    log included), and of its largest tables (with their indexes)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        pages, size = (db.execute(f"PRAGMA {name}").fetchone()[0]
                       for name in ("page_count", "page_size"))  # fmt: skip
        largest = db.execute(
            "SELECT m.tbl_name, SUM(d.pgsize) FROM dbstat d JOIN sqlite_master m "
            "ON d.name = m.name GROUP BY m.tbl_name ORDER BY 2 DESC LIMIT 5"
        ).fetchall()
    return pages * size, dict(largest)


def _not_once(counted: Counter[str], shards: int) -> dict[str, int]:
    """Of every ``{stage}-{shard:05d}``, those counted other than once (and any stray name)."""
    wanted = {f"{stage.name}-{s:05d}" for stage in STAGES for s in range(shards)}
    return {n: counted[n] for n in sorted(wanted | set(counted)) if counted[n] != 1}


def read_artifacts() -> tuple[list[Any], float]:
    """Every artifact on the server, as a Prefect client reads them, ``PAGE`` at a time (one
    call returns at most that many); and the seconds it took."""
    from prefect.client.orchestration import get_client

    started = time.monotonic()
    found: list[Any] = []
    with get_client(sync_client=True) as client:
        while page := client.read_artifacts(limit=PAGE, offset=len(found)):
            found += page
    return found, time.monotonic() - started


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def poll_figures(log: Path) -> dict[str, Any]:
    """The parent run's start of its child runs and its poll cycles, from its log lines."""
    text = log.read_text(errors="replace")
    started = CHILDREN_STARTED.search(text)
    cycles = [(int(n), float(s)) for n, s in POLL_CYCLE.findall(text)]
    if started is None or not cycles:
        raise RuntimeError(f"no log line of the parent run's polls in {log}")
    seconds = [s for _, s in cycles]
    return {
        "child_runs_started_s": float(started[1]),
        "cycles": len(cycles),
        "first_cycle_s": seconds[0],
        "first_cycle_chunks": cycles[0][0],
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
        "ms_per_open_chunk": round(1000 * sum(seconds) / sum(n for n, _ in cycles), 2),
    }


def ran_in_tables(artifacts: list[Any]) -> Counter[str]:
    """``{stage}-{shard}`` of every row of the table artifacts that says its stage ran."""
    rows = (row for a in artifacts if a.type == "table" for row in json.loads(a.data))
    return Counter(f"{row['stage']}-{row['shard']}" for row in rows if row["status"] == "ran")


def many_chunks(work: Path, args: argparse.Namespace) -> dict[str, Any]:
    """``--many``: one pass on ``args.workers`` workers with the LLM stand-in (the module's
    doc), measured."""
    from flows.temporary_server import temporary_server

    work.mkdir(parents=True, exist_ok=True)
    print(f"--many: {args.shards} shards of {args.images} image(s), chunks of {args.chunk}, "
          f"{args.workers} workers; LLM: the OpenAI-compatible stand-in (bench/scale/"
          "llm_standin.py, unpaced); detection: the sample's labels alone", flush=True)  # fmt: skip
    standin = Server("LLM stand-in", [sys.executable, "-m", "bench.scale.llm_standin", "0", MODEL],
                     work / "llm-standin.log")  # fmt: skip
    database = work / "prefect" / "prefect.db"
    try:
        with temporary_server() as api:
            before, _ = database_bytes(database)
            endpoint = f"http://127.0.0.1:{standin.address['port']}/v1"
            run = cluster_pass(work, args.workers, args, api, endpoint, cache=None)
            artifacts, read_s = read_artifacts()
    finally:
        standin.stop()
    after, largest = database_bytes(database)  # the server stopped: its log checkpointed
    overhead = [c.wait_s + c.setup_s for c in run.chunks]
    stage_runs = Counter(name for c in run.chunks for name in c.stages)
    return {
        "shards": args.shards,
        "images_per_shard": args.images,
        "chunk": args.chunk,
        "workers": args.workers,
        "llm": "stand-in (bench/scale/llm_standin.py)",
        "wall_s": round(run.wall_s, 1),
        "chunk_runs": len(run.chunks),
        "stage_task_runs": stage_runs.total(),
        "stage_runs_not_once": _not_once(stage_runs, args.shards),
        "parent": poll_figures(run.log),
        "overhead_s": {
            "median": round(statistics.median(overhead), 2),
            "p90": round(_p90(overhead), 2),
            "wait_median": round(statistics.median(c.wait_s for c in run.chunks), 2),
            "setup_median": round(statistics.median(c.setup_s for c in run.chunks), 2),
        },
        "chunk_work_s_median": round(statistics.median(c.work_s for c in run.chunks), 2),
        "database_bytes": {"before": before, "after": after, "largest_tables": largest},
        "artifacts": {
            "count": len(artifacts),
            "tables": sum(a.type == "table" for a in artifacts),
            "read_s": round(read_s, 3),
            "stage_rows_not_once": _not_once(ran_in_tables(artifacts), args.shards),
        },
    }


def _once(wrong: dict[str, int]) -> str:
    return "yes" if not wrong else f"NO: {list(wrong.items())[:10]}"


def many_report(r: dict[str, Any]) -> None:
    """``many_chunks``'s figures, a line each."""
    chunks, p, o, a = r["chunk_runs"], r["parent"], r["overhead_s"], r["artifacts"]
    db = r["database_bytes"]
    grew = db["after"] - db["before"]
    print()
    print(f"wall: {r['wall_s']:.0f} s for {chunks} chunk runs "
          f"({60 * chunks / r['wall_s']:.1f} per minute on {r['workers']} workers)")  # fmt: skip
    print(f"every (stage, shard) ran exactly once, by the server's stage task runs "
          f"({r['stage_task_runs']}): {_once(r['stage_runs_not_once'])}")  # fmt: skip
    print(f"parent: {chunks} child runs started in {p['child_runs_started_s']:.1f} s; a poll "
          f"cycle took {p['first_cycle_s']:.2f} s with {p['first_cycle_chunks']} chunks open, "
          f"median {p['median_s']:.2f} s and max {p['max_s']:.2f} s over {p['cycles']} "
          f"cycles: {p['ms_per_open_chunk']} ms per open chunk (a cycle every "
          f"{POLL_S:.0f} s)")  # fmt: skip
    print(f"overhead per chunk run (worker free -> first stage task): median {o['median']} s, "
          f"p90 {o['p90']} s (medians: wait {o['wait_median']} + setup {o['setup_median']}); "
          f"chunk work median {r['chunk_work_s_median']} s")  # fmt: skip
    tables = ", ".join(f"{name} {size / 2**20:.1f}" for name, size in db["largest_tables"].items())
    print(f"Prefect database: {db['before'] / 2**20:.1f} MiB before, {db['after'] / 2**20:.1f} "
          f"MiB after ({grew / 1024 / chunks:.0f} KiB per chunk run); largest tables, MiB: "
          f"{tables}")  # fmt: skip
    print(f"artifacts: {a['count']} ({a['tables']} tables), read back in {a['read_s']:.2f} s, "
          f"{PAGE} per request; every (stage, shard) in one table row that says it ran: "
          f"{_once(a['stage_rows_not_once'])}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--many", action="store_true",
                        help="Prefect at hundreds of chunks (defaults: 200 shards of 1 image, "
                             "chunks of 1)")  # fmt: skip
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--images", type=int, default=12, help="images per shard")
    parser.add_argument("--chunk", type=int, default=2, help="shards per chunk run")
    parser.add_argument("--workers", type=int, default=4, help="with --many")
    parser.add_argument("--work", type=Path, default=ROOT / "runs/bench-cluster")
    if parser.parse_known_args()[0].many:
        parser.set_defaults(**MANY)
    args = parser.parse_args()
    work: Path = args.work.resolve()
    home = work / "many" / "prefect" if args.many else work / "prefect"
    if args.many:  # made afresh: the size of its database is this pass's alone
        shutil.rmtree(home, ignore_errors=True)
    # A Prefect database of the bench's own, set before Prefect is imported.
    os.environ["PREFECT_HOME"] = str(home)
    os.environ.pop("PREFECT_API_URL", None)
    if not args.many:
        (work / "result.json").write_text(json.dumps(two_passes(work, args), indent=2) + "\n")
        return
    result = many_chunks(work / "many", args)
    many_report(result)
    (work / "result-many.json").write_text(json.dumps(result, indent=2) + "\n")
    if result["stage_runs_not_once"] or result["artifacts"]["stage_rows_not_once"]:
        raise SystemExit("bench-cluster --many: a (stage, shard) did not run exactly once")


if __name__ == "__main__":
    main()
