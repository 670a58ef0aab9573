"""`make bench-decode`: how the detect stage's decoded pixels reach the process that runs the
model, through files of a RAM folder (``negdata.detect.decode._Slots``) against the pool's pipe
(the baseline, as the stage had it).

One ingested shard of ``--images`` JPEGs (the sample's photos cycled, longest side 512, as
``bench/detect.py`` writes it) is decoded and letterboxed to ``--imgsz`` in ``--workers``
processes, ``--batch`` images a batch, both ways, ``--repeat`` times taking turns. The consumer
copies each batch's pixels once, as the stage's copy to the GPU reads them. The pool is started
before the first timed pass.

Printed per way: images/s (median), and the consumer process's CPU milliseconds per image, all of
its threads: the pipe's cost lands there, on the process that also feeds the GPU (on an H200 the
stage ran at 0.24 of the model alone with the pipe, whatever the number of workers).

Usage: ``python -m bench.decode [--images 1024] [--batch 64] [--imgsz 640] [--workers 2]
[--repeat 3]``
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.detect import write_shard
from negdata.detect.decode import SHM_DIR, decoded_batches
from negdata.detect.stage import shard_batches

WAYS = {"shared files": SHM_DIR, "the pool's pipe (baseline)": None}


def one_pass(
    tar: Path, batch: int, imgsz: int, workers: int, shared: Path | None
) -> tuple[float, float, int]:
    """Seconds, consumer CPU seconds and images of one pass over the shard."""
    wall, cpu, images = time.perf_counter(), time.process_time(), 0
    for decoded in decoded_batches(shard_batches(tar, batch), (imgsz,), workers, shared=shared):
        np.array(decoded.pixels[imgsz], copy=True)  # as the copy to the device reads it
        images += len(decoded.samples)
    return time.perf_counter() - wall, time.process_time() - cpu, images


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not SHM_DIR.is_dir():
        raise SystemExit(f"bench.decode: no {SHM_DIR} here: only the pipe can be measured")
    with tempfile.TemporaryDirectory(prefix="negdata-bench-decode-") as tmp:
        root = Path(tmp)
        write_shard(root, args.images)
        tar = root / "shards" / "00000.tar"
        one_pass(tar, args.batch, args.imgsz, args.workers, None)  # untimed: the pool's start
        runs: dict[str, list[tuple[float, float, int]]] = {way: [] for way in WAYS}
        for n in range(args.repeat):
            for way in sorted(WAYS, reverse=n % 2 == 1):
                runs[way].append(one_pass(tar, args.batch, args.imgsz, args.workers, WAYS[way]))
    print(
        f"{args.images} images, batch {args.batch}, letterboxed to {args.imgsz}, "
        f"{args.workers} decode workers, {args.repeat} pass(es) each way"
    )
    rate, cpu = {}, {}
    for way, passes in runs.items():
        rate[way] = statistics.median(images / wall for wall, _, images in passes)
        cpu[way] = statistics.median(1000 * used / images for _, used, images in passes)
        print(f"{way}: {rate[way]:.0f} images/s, consumer {cpu[way]:.2f} CPU ms per image")
    shared, pipe = WAYS  # the names, in order
    print(
        f"ratio shared/pipe: {rate[shared] / rate[pipe]:.2f}x images/s, "
        f"{cpu[pipe] / cpu[shared]:.1f}x less consumer CPU per image"
    )


if __name__ == "__main__":
    main()
