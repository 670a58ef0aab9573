"""`python -m bench.verify`: how long ``negdata verify`` and ``negdata export negbench`` take, on
one core and on all of them.

Builds a finished run of ``--images`` images in ``--shards`` shards (``bench/synthetic_run.py``:
the sample's photos cycled, three captions and a question each, NegCap tars written by the
publish stage's writer), writes its sizes.json as a run's end does, then times ``verify_run`` on
it with one worker process (the baseline) and with ``--workers`` (default: one per core): every
tar read, every JPEG decoded, the Parquet compared, every caption and question re-checked.
Then the same for ``export_negbench`` (every shard's Parquet read, its CSV rows built and its
images written). Prints the seconds of each, images/s per core, and the speedup against cores
(target: 0.8).

Usage: ``python -m bench.verify [--images 10000] [--shards 4] [--workers N] [--work DIR]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from bench.synthetic_run import build_run
from negdata.config import Config
from negdata.export import export_negbench
from negdata.integrity import verify_run
from negdata.pipeline import summarize


def _timed(cfg: Config, workers: int) -> float:
    started = time.monotonic()
    found = verify_run(cfg, workers)
    took = time.monotonic() - started
    assert not found.problems, found.problems[:3]
    print(f"{workers} worker(s): {found.summary()} in {took:.1f} s", flush=True)
    return took


def _timed_export(cfg: Config, out: Path, workers: int) -> float:
    shutil.rmtree(out, ignore_errors=True)
    started = time.monotonic()
    counts = export_negbench(cfg.run.output_dir, out, workers=workers)
    took = time.monotonic() - started
    print(f"export, {workers} worker(s): {counts['images']} images in {took:.1f} s", flush=True)
    return took


def _report(what: str, images: int, one: float, many: float, workers: int) -> None:
    speedup = one / many
    print(f"{what}: one worker {images / one:.0f} images/s; {workers} workers "
          f"{images / many / workers:.0f} images/s per worker; speedup {speedup:.2f}, "
          f"{speedup / workers:.2f} x workers (target 0.8); "
          f"{one * 10_000 / images:.1f} s per 10,000 images on one core")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--work", type=Path, help="folder for the run (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="negdata-bench-verify-") as tmp:
        work = args.work or Path(tmp)
        started = time.monotonic()
        per_shard = -(-args.images // args.shards)
        cfg = build_run(work, args.images, samples_per_shard=per_shard)
        summarize(cfg)
        print(f"built a run of {args.images} images in {args.shards} shards "
              f"in {time.monotonic() - started:.1f} s", flush=True)  # fmt: skip
        workers = min(args.workers, args.shards)
        one, many = _timed(cfg, 1), _timed(cfg, args.workers)
        out = work / "negbench"
        export_one, export_many = _timed_export(cfg, out, 1), _timed_export(cfg, out, workers)
        _report("verify", args.images, one, many, workers)
        _report("export negbench", args.images, export_one, export_many, workers)


if __name__ == "__main__":
    main()
