"""`make bench-cluster`: the same shards through the cluster on 1 worker, then on 2 workers.

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

Usage: ``python -m bench.cluster [--shards 8] [--images 12] [--chunk 2]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import yaml
from PIL import Image

from negdata.config import Config, load_config
from negdata.llm import LocalServer, ensure_model
from negdata.sample import build_sample

CC12M_SHARD = 10_000  # images per shard of a CC12M crawl (REFERENCE.md section 3)
LONGEST = (400, 1280)  # longest side of the bench images, px
TARGET_SHARE = 0.02  # per-chunk overhead must stay under this share of one such shard
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Pass:
    workers: int
    wall_s: float
    chunks: list[ChunkRun]

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
    raw["detect"]["sources"] = [
        {"kind": "labels", "path": str(labels)},
        {**raw["detect"]["sources"][1], "weights": weights},
    ]
    raw["compose"] = {**raw["compose"], "prompts_dir": str(ROOT / "prompts")}
    if endpoint:
        raw["llm"] = {**raw["llm"], "local": False, "endpoint": endpoint}
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


def chunk_runs(api: str, since: datetime) -> list[ChunkRun]:
    """Every chunk flow run (``negdata-shards``) started after ``since``, from the server."""
    with httpx.Client(base_url=api, timeout=30.0) as http:
        runs = http.post("/flow_runs/filter", json={
            "flows": {"name": {"any_": ["negdata-shards"]}},
            "flow_runs": {"start_time": {"after_": since.isoformat()}},
            "sort": "START_TIME_ASC",
        }).json()  # fmt: skip
        free_at: dict[str, datetime] = {}  # worker -> end of its last run
        timelines = []
        for run in runs:
            tasks = http.post("/task_runs/filter", json={
                "flow_runs": {"id": {"any_": [run["id"]]}},
            }).json()  # fmt: skip
            stages = [_time(t["start_time"]) for t in tasks
                      if t["start_time"] and not t["name"].startswith("shard-")]  # fmt: skip
            worker = run["labels"].get("prefect.worker.name", "")
            ready = max(filter(None, (_time(run["created"]), free_at.get(worker))))
            started, ended = _time(run["start_time"]), _time(run["end_time"])
            free_at[worker] = ended
            if stages:  # none when a child found its shards taken
                first = min(stages)
                timelines.append(ChunkRun(
                    (started - ready).total_seconds(), (first - started).total_seconds(),
                    (ended - first).total_seconds(),
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
                 endpoint: str, cache: Path) -> Pass:  # fmt: skip
    name = f"out-{count}-workers"
    shutil.rmtree(work / name, ignore_errors=True)
    config = write_config(work, name, args, endpoint)
    (work / name).mkdir()
    shutil.copytree(cache, work / name / "llm_cache")
    env = {**os.environ, "PREFECT_API_URL": api, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    shards = f"0-{args.shards - 1}"
    _run([sys.executable, "flows/deploy.py", "--config", str(config), "--shards", shards], env)
    since = datetime.now().astimezone()
    with workers(count, env, work / f"{name}.log"):
        wall = _run([sys.executable, "flows/generate.py", "--shards", shards, "--config",
                     str(config), "--cluster"], env)  # fmt: skip
    chunks = chunk_runs(api, since)
    print(f"{count} worker(s): {wall:.1f} s wall, {len(chunks)} chunk runs", flush=True)
    return Pass(count, wall, chunks)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--images", type=int, default=12, help="images per shard")
    parser.add_argument("--chunk", type=int, default=2, help="shards per chunk run")
    parser.add_argument("--work", type=Path, default=ROOT / "runs/bench-cluster")
    args = parser.parse_args()
    work: Path = args.work.resolve()
    # A Prefect database of the bench's own, set before Prefect is imported.
    os.environ["PREFECT_HOME"] = str(work / "prefect")
    os.environ.pop("PREFECT_API_URL", None)
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
    result = report(passes, args, same)
    (work / "result.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
