"""`python -m bench.report`: how long the data card and report.html take on a large shard.

Builds a finished run of ``--images`` images in one shard (``bench/synthetic_run.py``: the sample's
photos cycled, three captions and a question each), summarises it as a run's end does, then
times ``write_docs`` (the data card and the report) on its own, twice: the first pays for
importing CLIP's tokenizer (a run has done that already, in its publish stage), the second is
what a run's end costs. Prints the seconds, per 10,000 images, and the two files' sizes.

Usage: ``python -m bench.report [--images 10000] [--work DIR]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.synthetic_run import build_run
from negdata.pipeline import summarize, write_docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--work", type=Path, help="folder for the run (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="negdata-bench-report-") as tmp:
        work = args.work or Path(tmp)
        started = time.monotonic()
        cfg = build_run(work, args.images, samples_per_shard=args.images)
        print(f"built a run of {args.images} images in {time.monotonic() - started:.1f} s")
        started = time.monotonic()
        summary = summarize(cfg, write=False)
        print(f"summary (stats.json): {time.monotonic() - started:.2f} s")
        for attempt in ("first (imports the tokenizer)", "second"):
            started = time.monotonic()
            write_docs(cfg, summary)
            took = time.monotonic() - started
            print(
                f"data card + report, {attempt}: {took:.2f} s, "
                f"{took * 10_000 / args.images:.2f} s per 10,000 images"
            )
        for name in ("README.md", "report.html"):
            size = (cfg.run.output_dir / name).stat().st_size
            print(f"{name}: {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
