"""`make bench-ingest`: negdata's ingest stage against img2dataset, on the same URLs.

In one run, a loopback HTTP server serves ``--images`` JPEGs made from the sample photos
(random crops rescaled so the longest side is 300 to 2,000 px, varied aspect ratios, quality 90;
cached in ``{work}/www``), and each tool fetches the same URL list into WebDataset tars with the
same resize (longest side 384, aspect kept, never upscaled) and JPEG quality 90:

  img2dataset (its own venv: ``make img2dataset-env``): ``--processes_count`` = cores,
      ``--thread_count`` = ``--threads``, one shard per process;
  negdata: ``run_ingest`` on one shard in a fresh interpreter, ``ingest.workers`` = cores decode
      processes, ``ingest.concurrency`` (and per host) = cores x ``--threads`` requests in flight.

Each run is a child process, timed on the wall clock; its CPU time is the user + system time of
its process tree (``RUSAGE_CHILDREN`` around it: every pool worker of both tools is waited for,
so it is counted). Start-up (imports, spawning workers) is part of both. The server is a
``ThreadingHTTPServer`` in a process of its own that holds every file in memory and closes each
connection after one response (HTTP/1.0, as most URLs of a web crawl are on distinct hosts); its
CPU time is reported apart. With ``--repeat R`` the runs go img2dataset, negdata, img2dataset,
... and the summary takes each tool's median.

Usage: ``python -m bench.ingest [--images 2000] [--threads 64] [--repeat 1]``
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import psutil
from PIL import Image

from negdata.config import Config, cache_dir
from negdata.sample import build_sample

IMAGE_SIZE = 384
JPEG_QUALITY = 90
SHORTEST, LONGEST = 300, 2000  # longest side of the served images, in pixels
ASPECTS = (1.0, 4 / 3, 3 / 2, 16 / 9, 2.0, 3 / 4, 2 / 3, 9 / 16)  # width / height
TARGET_RATIO = 1.0  # negdata images/s over img2dataset images/s
NOISE = 0.1  # other processes' CPU time, as a share of a run's, above which a run is noisy
SEED = 0  # of the served images; the cache in {work}/www holds this seed's images


@dataclass(frozen=True)
class Run:
    """One tool's run: what came out, how long it took, and the CPU it and the server used."""

    tool: str
    images_ok: int
    resized_ok: int  # outputs whose longest side is min(IMAGE_SIZE, the original's longest side)
    wall_s: float
    cpu_s: float
    server_cpu_s: float
    other_cpu_s: float  # by everything else on the machine meanwhile: noise when well above 0

    @property
    def images_s(self) -> float:
        return self.images_ok / self.wall_s

    @property
    def cpu_per_image(self) -> float:
        return self.cpu_s / max(1, self.images_ok)

    def row(self) -> dict[str, Any]:
        rounded = {k: round(v, 2) if isinstance(v, float) else v for k, v in asdict(self).items()}
        return rounded | {
            "images_s": round(self.images_s, 1),
            "cpu_s_per_image": round(self.cpu_per_image, 4),
        }


@cache
def _photo(path: str) -> Image.Image:
    with Image.open(path) as img:
        return img.convert("RGB")


def _make_image(index: int, photos: list[str], target: Path) -> None:
    """A random crop of one photo at a random aspect ratio, rescaled so its longest side is
    SHORTEST..LONGEST px. Seeded by index, so a larger ``--images`` extends a smaller set."""
    rng = random.Random(f"{SEED}:{index}")
    photo = _photo(photos[index % len(photos)])
    aspect, longest = rng.choice(ASPECTS), rng.randint(SHORTEST, LONGEST)
    crop_w = min(photo.width, round(photo.height * aspect))
    crop_h = min(photo.height, round(crop_w / aspect))
    left, top = rng.randint(0, photo.width - crop_w), rng.randint(0, photo.height - crop_h)
    size = (longest, round(longest / aspect)) if aspect >= 1 else (round(longest * aspect), longest)
    image = photo.resize(size, Image.Resampling.LANCZOS, (left, top, left + crop_w, top + crop_h))
    partial = target.with_suffix(".part")
    image.save(partial, format="JPEG", quality=JPEG_QUALITY)
    partial.replace(target)


def served_images(work: Path, count: int) -> list[Path]:
    """The JPEGs to serve, made from the sample photos once: files already in ``{work}/www``
    are reused."""
    sample = build_sample(work / "sample")
    photos = sorted(str(p) for p in (sample.tsv.parent / "images").iterdir())
    www = work / "www"
    www.mkdir(parents=True, exist_ok=True)
    paths = [www / f"{i:05d}.jpg" for i in range(count)]
    missing = [i for i, path in enumerate(paths) if not path.exists()]
    if missing:
        print(f"making {len(missing)} JPEGs in {www} ...", flush=True)
        with ProcessPoolExecutor() as pool:
            list(
                pool.map(
                    _make_image,
                    missing,
                    [photos] * len(missing),
                    [paths[i] for i in missing],
                )
            )
    return paths


class _Handler(BaseHTTPRequestHandler):
    files: ClassVar[dict[str, bytes]] = {}

    def do_GET(self) -> None:
        body = self.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: a log line per request would cost the server more than the request."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # The default backlog (5) drops connections when hundreds arrive at once, and each drop
    # costs the client a one-second SYN retry: the server, not the tool, would be measured.
    request_queue_size = 1024


def serve(folder: str) -> None:
    """Run in the server process: serve every file of ``folder`` from memory on a free
    loopback port, printed on the first line of stdout."""
    _Handler.files = {f"/{p.name}": p.read_bytes() for p in Path(folder).iterdir()}
    with _Server(("127.0.0.1", 0), _Handler) as server:
        print(server.server_address[1], flush=True)
        server.serve_forever()


@contextmanager
def server_process(folder: Path) -> Iterator[tuple[psutil.Process, int]]:
    """The server in a process of its own, so it has its own GIL and its CPU time apart."""
    code = f"from bench.ingest import serve; serve({str(folder)!r})"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        yield psutil.Process(proc.pid), port
    finally:
        proc.terminate()
        proc.wait()


def url_lists(work: Path, paths: list[Path], port: int) -> tuple[Path, Path]:
    """The same rows twice: negdata's input (no header) and img2dataset's (a header line)."""
    rows = [
        f"http://127.0.0.1:{port}/{p.name}\tphoto {i} from the sample" for i, p in enumerate(paths)
    ]
    plain, headed = work / "urls.tsv", work / "urls-header.tsv"
    plain.write_text("\n".join(rows) + "\n")
    headed.write_text("url\tcaption\n" + "\n".join(rows) + "\n")
    return plain, headed


def _cpu_s(server: psutil.Process) -> float:
    times = server.cpu_times()
    return float(times.user + times.system)


def machine_busy_s() -> float:
    """CPU seconds all cores have spent busy since boot (steal, by other VMs, left out)."""
    t = psutil.cpu_times()
    return float(t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0))


def timed(
    tool: str, cmd: list[str], out: Path, server: psutil.Process, env: dict[str, str] | None = None
) -> Run:
    """Run ``cmd`` to completion (its output into ``{out}.log``) and check what it wrote."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    before, server_before = resource.getrusage(resource.RUSAGE_CHILDREN), _cpu_s(server)
    machine_before = machine_busy_s()
    started = time.perf_counter()
    log = out.with_suffix(".log")
    with log.open("w") as fh:
        done = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{tool} exited with {done.returncode}; its output: {log}")
    wall = time.perf_counter() - started
    after, server_after = resource.getrusage(resource.RUSAGE_CHILDREN), _cpu_s(server)
    machine = machine_busy_s() - machine_before
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    server_cpu = server_after - server_before
    images_ok, resized_ok = check_outputs(out)
    return Run(
        tool, images_ok, resized_ok, wall, cpu, server_cpu, max(0.0, machine - cpu - server_cpu)
    )


def check_outputs(folder: Path) -> tuple[int, int]:
    """(samples with an image, those whose longest side is min(IMAGE_SIZE, original's longest))
    over every tar under ``folder``; both tools record the original size in each sample's json."""
    images = resized = 0
    for path in sorted(folder.rglob("*.tar")):
        members: dict[str, dict[str, bytes]] = {}
        with tarfile.open(path) as tar:
            for member in tar:
                data = tar.extractfile(member)
                if data is not None:
                    key, _, ext = member.name.partition(".")
                    members.setdefault(key, {})[ext] = data.read()
        for sample in members.values():
            if "jpg" not in sample:
                continue
            images += 1
            meta = json.loads(sample["json"])
            with Image.open(io.BytesIO(sample["jpg"])) as img:
                want = min(IMAGE_SIZE, max(meta["original_width"], meta["original_height"]))
                resized += max(img.size) == want
    return images, resized


def img2dataset_run(
    binary: Path,
    urls: Path,
    out: Path,
    images: int,
    args: argparse.Namespace,
    server: psutil.Process,
) -> Run:
    """img2dataset parallelises by shard (a process per shard, resizing on one thread of it),
    so the URLs are split into one shard per process."""
    cmd = [
        str(binary),
        f"--url_list={urls}",
        "--input_format=tsv",
        "--url_col=url",
        "--caption_col=caption",
        "--output_format=webdataset",
        f"--output_folder={out}",
        f"--processes_count={args.processes}",
        f"--thread_count={args.threads}",
        f"--number_sample_per_shard={math.ceil(images / args.processes)}",
        f"--image_size={IMAGE_SIZE}",
        "--resize_mode=keep_ratio_largest",  # its "keep_ratio" sets the shortest side
        "--resize_only_if_bigger=True",
        f"--encode_quality={JPEG_QUALITY}",
        "--extract_exif=False",  # negdata keeps no EXIF either: the same output
        "--timeout=30",
        "--enable_wandb=False",
        "--distributor=multiprocessing",
    ]
    env = os.environ | {"NO_ALBUMENTATIONS_UPDATE": "1", "WANDB_MODE": "disabled"}
    return timed("img2dataset", cmd, out, server, env)


def ingest_child(config_path: str) -> None:
    """Run in the negdata process: ingest shard 0 of the bench input."""
    from negdata.ingest.stage import run_ingest

    cfg = Config.model_validate(json.loads(Path(config_path).read_text()))
    run_ingest(cfg, 0, "bench")


def negdata_run(
    urls: Path, out: Path, images: int, args: argparse.Namespace, server: psutil.Process
) -> Run:
    """negdata's ingest with the same processes and as many requests in flight as
    img2dataset's threads; all URLs are on one host, so the per-host limit is the same."""
    in_flight = args.processes * args.threads
    raw = {
        "run": {"output_dir": str(out)},
        "input": {"path": str(urls), "samples_per_shard": images},
        "ingest": {
            "image_size": IMAGE_SIZE,
            "resize_mode": "longest",
            "jpeg_quality": JPEG_QUALITY,
            "workers": args.processes,
            "concurrency": in_flight,
            "per_host_concurrency": in_flight,
            "allowed_hosts": ["127.0.0.1"],
        },
        "detect": {"sources": [{"kind": "labels", "path": "unused.json"}]},
    }
    Config.model_validate(raw)  # a bad config stops here, not inside the timed run
    config = out.with_name("negdata-config.json")
    config.write_text(json.dumps(raw, indent=2) + "\n")
    code = "import sys; from bench.ingest import ingest_child; ingest_child(sys.argv[1])"
    return timed("negdata", [sys.executable, "-c", code, str(config)], out, server)


def summary(runs: list[Run], tool: str) -> dict[str, float]:
    """A tool's median over its runs."""
    mine = [r for r in runs if r.tool == tool]
    return {
        "images_s": round(statistics.median(r.images_s for r in mine), 1),
        "cpu_s_per_image": round(statistics.median(r.cpu_per_image for r in mine), 4),
    }


def table(runs: list[Run]) -> Iterator[str]:
    yield f"{'tool':<14}{'images ok':>10}{'resized ok':>11}{'wall s':>9}{'images/s':>10}" + (
        f"{'CPU s/image':>13}{'server CPU s':>14}{'other CPU s':>13}"
    )
    for r in runs:
        yield (
            f"{r.tool:<14}{r.images_ok:>10}{r.resized_ok:>11}{r.wall_s:>9.1f}{r.images_s:>10.1f}"
            f"{r.cpu_per_image:>13.4f}{r.server_cpu_s:>14.1f}{r.other_cpu_s:>13.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--work", type=Path, default=Path("runs/bench-ingest"))
    parser.add_argument("--images", type=int, default=2000)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--threads", type=int, default=64, help="img2dataset threads per process")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--img2dataset",
        type=Path,
        default=cache_dir() / "img2dataset-venv" / "bin" / "img2dataset",
        help="the img2dataset command (make img2dataset-env)",
    )
    args = parser.parse_args()
    if not args.img2dataset.exists():
        raise SystemExit(f"{args.img2dataset} is missing: run `make img2dataset-env`")
    work = args.work.resolve()
    paths = served_images(work, args.images)
    runs: list[Run] = []
    with server_process(work / "www") as (server, port):
        plain, headed = url_lists(work, paths, port)
        for _ in range(args.repeat):
            runs.append(
                img2dataset_run(
                    args.img2dataset, headed, work / "out-img2dataset", args.images, args, server
                )
            )
            runs.append(negdata_run(plain, work / "out-negdata", args.images, args, server))
    i2d, neg = summary(runs, "img2dataset"), summary(runs, "negdata")
    ratio = neg["images_s"] / i2d["images_s"]
    result = {
        "images": args.images,
        "processes": args.processes,
        "threads_per_process": args.threads,
        "cores": os.cpu_count(),
        "served_bytes": sum(p.stat().st_size for p in paths),
        "runs": [r.row() for r in runs],
        "median": {"img2dataset": i2d, "negdata": neg},
        "ratio_images_s": round(ratio, 3),
    }
    (work / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    mean_kb = result["served_bytes"] / len(paths) / 1024
    print(
        f"\nbench-ingest: {args.images} JPEGs ({mean_kb:.0f} KiB on average) from 127.0.0.1, "
        f"{args.processes} processes, {args.threads} threads each, resize to {IMAGE_SIZE}"
    )
    print(*table(runs), sep="\n")
    for r in runs:
        if r.images_ok != args.images or r.resized_ok != r.images_ok:
            print(
                f"warning: {r.tool} wrote {r.images_ok} of {args.images} images, "
                f"{r.resized_ok} resized as asked; see {work / f'out-{r.tool}.log'}"
            )
    if any(r.other_cpu_s > NOISE * r.cpu_s for r in runs):
        print("(other CPU s: the rest of the machine was busy during a run; numbers are noisy)")
    print(f"\nratio negdata/img2dataset images/s: {ratio:.3f} (target >= {TARGET_RATIO})")
    print(f"full result: {work / 'result.json'}")


if __name__ == "__main__":
    main()
