"""`make bench-workers`: what negdata's decode workers cost to start.

1. Ingest of the bundled sample's shards through the process's shared pool of decode workers
   (``negdata.workers``) against a fresh pool per shard, as ingest had. The shards are ingested
   one after another, ``--rounds`` times each way, taking turns; each round ingests into a
   folder of its own.
2. A pool of 2 workers started, each running a task, with negdata's spawn context
   (``negdata.spawning``: the parent's main module is not run again) against multiprocessing's
   own, whose workers first run the parent's main module again. This module imports the flows
   (as ``flows/generate.py`` does), so such a worker pays for Prefect, as a flow run's did.

Printed: the median seconds of each, and the ratios against the baselines (a pool per shard,
multiprocessing's spawn); the pool's start also in CPU seconds, its workers' own.

Usage: ``python -m bench.workers [--rounds 3] [--copies 4]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import yaml

import flows.generate  # noqa: F401  (what a flow run's workers re-import)
from negdata import workers
from negdata.config import load_config
from negdata.ingest.sources import shard_count
from negdata.ingest.stage import decode_workers, run_ingest
from negdata.sample import build_sample
from negdata.spawning import worker_spawn

MODES = ("shared pool", "a pool per shard (baseline)")
STARTS = ("negdata's workers", "multiprocessing's spawn (baseline)")


def _config(root: Path, copies: int) -> Path:
    """The sample's rows ``copies`` times over, 4 per shard, ingested under ``root``."""
    files = build_sample(root / "sample")
    (root / "input.tsv").write_text(files.tsv.read_text() * copies)
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["input"].update(path=str(root / "input.tsv"), files_root=str(root))
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    return config


def ingest_all(config: Path, out: Path, per_shard: bool) -> float:
    """Seconds to ingest every shard into ``out``; with ``per_shard``, a fresh pool each."""
    cfg = load_config(config)
    cfg = cfg.model_copy(update={"run": cfg.run.model_copy(update={"output_dir": out})})
    workers.forget_all()
    started = time.monotonic()
    for shard in range(shard_count(cfg.input)):
        run_ingest(cfg, shard, "bench")
        if per_shard:
            workers.forget(decode_workers(cfg))
    seconds = time.monotonic() - started
    workers.forget_all()
    return seconds


def pool_start(light: bool) -> tuple[float, float]:
    """Wall and CPU seconds (the workers' own) to start a pool of 2 and run a task on each."""
    context = worker_spawn() if light else multiprocessing.get_context("spawn")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        list(pool.map(time.sleep, [0.2, 0.2]))  # both at once: two workers
    seconds = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3, help="runs of each kind")
    parser.add_argument("--copies", type=int, default=4, help="copies of the sample's rows")
    args = parser.parse_args()
    starts: dict[str, list[tuple[float, float]]] = {start: [] for start in STARTS}
    for _ in range(args.rounds):  # first: no worker of an earlier pool is still exiting
        for start in STARTS:
            starts[start].append(pool_start(light=start == STARTS[0]))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        config = _config(root, args.copies)
        shards = shard_count(load_config(config).input)
        times: dict[str, list[float]] = {mode: [] for mode in MODES}
        for n in range(args.rounds):
            for mode in MODES:
                out = root / f"{n}-{MODES.index(mode)}"
                times[mode].append(ingest_all(config, out, per_shard=mode != MODES[0]))
    print(f"ingest of {shards} shards, one after another (median of {args.rounds}):")
    medians = {mode: statistics.median(seconds) for mode, seconds in times.items()}
    for mode, median in medians.items():
        print(f"  {mode:<30} {median:6.2f} s")
    print(f"  shared / per shard: {medians[MODES[0]] / medians[MODES[1]]:.2f}")
    print(f"a pool of 2 started, a task each (median of {args.rounds}):")
    wall = {start: statistics.median(s for s, _ in runs) for start, runs in starts.items()}
    cpu = {start: statistics.median(c for _, c in runs) for start, runs in starts.items()}
    for start in STARTS:
        print(f"  {start:<36} {wall[start]:6.2f} s, {cpu[start]:6.2f} CPU s")
    print(
        f"  negdata / multiprocessing: {wall[STARTS[0]] / wall[STARTS[1]]:.2f} wall, "
        f"{cpu[STARTS[0]] / cpu[STARTS[1]]:.2f} CPU"
    )


if __name__ == "__main__":
    main()
