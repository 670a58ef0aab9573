"""`python -m bench.verify`: how long ``negdata verify`` takes on a large shard.

Builds a finished run of ``--images`` images in one shard (``bench/synthetic_run.py``: the sample's
photos cycled, three captions and a question each, NegCap tars written by the publish stage's
writer), writes its sizes.json as a run's end does, then times ``verify_run`` on it: every tar
read, every JPEG decoded, the Parquet compared, every caption and question re-checked. Prints
the seconds and the seconds per 10,000 samples.

Usage: ``python -m bench.verify [--images 10000] [--work DIR]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.synthetic_run import build_run
from negdata.integrity import verify_run
from negdata.pipeline import summarize


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--work", type=Path, help="folder for the run (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="negdata-bench-verify-") as tmp:
        work = args.work or Path(tmp)
        started = time.monotonic()
        cfg = build_run(work, args.images, samples_per_shard=args.images)
        summarize(cfg)
        print(f"built a run of {args.images} images in {time.monotonic() - started:.1f} s")
        started = time.monotonic()
        found = verify_run(cfg)
        took = time.monotonic() - started
        print(found.summary())
        print(f"verify: {took:.1f} s, {took * 10_000 / found.samples:.1f} s per 10,000 samples")


if __name__ == "__main__":
    main()
