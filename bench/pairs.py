"""`python -m bench.pairs`: NegPairs mining over synthetic embeddings, at growing sizes.

Each size runs in a process of its own (so its peak memory is its own): ``--dim``-wide unit
vectors in float16, as the detect stage stores them, drawn around ``--clusters`` centres (real
embeddings cluster; uniform noise is every index's worst case), and for each image the label set
of its centre with one label dropped at random a third of the time, so that near images differ
by an object as real ones do. Timed: the nearest neighbours (``negdata.pairs.neighbours.nearest``,
IVF-PQ rescored, as above ``pairs.exact_up_to``) and the mining among them (``mine``); not
timed: making the vectors. The baseline, at the smallest size: the exact flat index over the same
vectors, its time and how many of its nearest neighbours IVF-PQ finds too.

Prints per size the seconds, the peak memory and the pairs; then, for each part (the
neighbours: FAISS on every core; the mining: one core), its growth against the size's, and a
projection to 10M vectors on this machine from the measured growth.

Usage: ``python -m bench.pairs [--sizes 100000 1000000] [--dim 512] [--neighbours 16]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from typing import Any

import numpy as np

from negdata.detect.vocab import vocabulary
from negdata.pairs import ImageLabels, mine
from negdata.pairs.labels import Interned
from negdata.pairs.neighbours import nearest

SEED = 0
CHUNK = 100_000


def _vectors(n: int, dim: int, clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """(n, dim) float16 unit vectors around ``clusters`` centres, and each one's centre."""
    rng = np.random.default_rng(SEED)
    centres = rng.standard_normal((clusters, dim)).astype(np.float32)
    owner = rng.integers(0, clusters, n)
    out = np.empty((n, dim), np.float16)
    for start in range(0, n, CHUNK):
        rows = owner[start : start + CHUNK]
        noisy = centres[rows] + 0.5 * rng.standard_normal((len(rows), dim)).astype(np.float32)
        out[start : start + CHUNK] = noisy / np.linalg.norm(noisy, axis=1, keepdims=True)
    return out, owner


def _labels(owner: np.ndarray, clusters: int) -> list[ImageLabels]:
    """Interned as ``negdata pairs`` reads them (``read_labels``)."""
    rng = np.random.default_rng(SEED + 1)
    intern = Interned()
    coco = sorted(vocabulary("coco"))
    scenes = [
        frozenset(rng.choice(coco, rng.integers(2, 5), replace=False)) for _ in range(clusters)
    ]
    everything = frozenset(coco)
    images = []
    for i, centre in enumerate(owner):
        present = set(scenes[centre])
        if rng.random() < 1 / 3:
            present.discard(sorted(present)[rng.integers(len(present))])
        shown = intern(frozenset(present))
        images.append(ImageLabels(f"{i:09d}", i // 10_000, shown, intern(everything - shown)))
    return images


def one(n: int, dim: int, k: int, clusters: int, baseline: bool) -> dict[str, Any]:
    vectors, owner = _vectors(n, dim, clusters)
    images = _labels(owner, clusters)
    started = time.monotonic()
    found = nearest(vectors, k, exact_up_to=0, nprobe=32)
    searched = time.monotonic() - started
    started = time.monotonic()
    kept, dropped = mine(images, 0.5, 2, (found, 0.8))
    mined = time.monotonic() - started
    result: dict[str, Any] = {
        "images": n,
        "index": found.index,
        "neighbours_s": round(searched, 3),
        "mining_s": round(mined, 3),
        "pairs": len(kept),
        "dropped": dropped,
    }
    if baseline:
        started = time.monotonic()
        exact = nearest(vectors, k, exact_up_to=n, nprobe=32)
        result["exact_s"] = round(time.monotonic() - started, 1)
        result["recall_at_1"] = round(float((exact.ids[:, 0] == found.ids[:, 0]).mean()), 3)
    result["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--neighbours", type=int, default=16)
    parser.add_argument("--clusters", type=int, default=1000)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in its own process
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.dim, args.neighbours, args.clusters, args.baseline)))
        return
    results = []
    for index, size in enumerate(sorted(args.sizes)):
        command = [
            sys.executable,
            "-m",
            "bench.pairs",
            "--one",
            str(size),
            "--dim",
            str(args.dim),
            "--neighbours",
            str(args.neighbours),
            "--clusters",
            str(args.clusters),
        ]
        if index == 0:
            command.append("--baseline")
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        result = json.loads(done.stdout.splitlines()[-1])
        results.append(result)
        print(
            f"{size:>10,} images: neighbours {result['neighbours_s']:.1f} s, mining "
            f"{result['mining_s']:.1f} s, {result['pairs']:,} pairs, peak "
            f"{result['peak_rss_mib']:,} MiB; {result['index']}",
            flush=True,
        )
        if "exact_s" in result:
            print(
                f"{'':>10}  baseline, exact flat index: {result['exact_s']:.1f} s "
                f"({result['exact_s'] / result['neighbours_s']:.2f} x IVF-PQ's time); IVF-PQ "
                f"finds {result['recall_at_1']:.1%} of its nearest neighbours",
                flush=True,
            )
        if len(results) > 1:
            first = results[0]
            scale = size / first["images"]
            cores = os.cpu_count() or 1
            projected = 0.0
            for part, where in (
                ("neighbours_s", f"FAISS, on {cores} cores"),
                ("mining_s", "1 core"),
            ):
                grown = result[part] / first[part]
                exponent = math.log(grown) / math.log(scale)
                projected += result[part] * (10_000_000 / size) ** exponent
                print(
                    f"{'':>10}  {part[:-2]} ({where}): x{scale:.0f} the images, x{grown:.1f} "
                    f"the time (n^{exponent:.2f})",
                    flush=True,
                )
            print(
                f"{'':>10}  10M images projected from this growth: {projected / 3600:.1f} h here",
                flush=True,
            )


if __name__ == "__main__":
    main()
