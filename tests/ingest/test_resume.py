"""Killing ingest at any moment and rerunning it gives the same shards as one uninterrupted run.

Every kill is placed by what the run has done, never by the clock: the images come from a real
HTTP server on 127.0.0.1 in this process, which kills the ingest process group when it receives
the k-th request of a run (before answering it), or, for a kill while a shard is being written,
holds back the requests for later shards until the test has seen that shard's tar appear and
killed the run. Either way the run is still waiting on the server when it dies, so every kill
lands, however fast or slow the machine.
"""

from __future__ import annotations

import contextlib
import http.server
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml
from PIL import Image

ROWS = 41  # 40 images and one URL that answers 404
PER_SHARD = 11  # shards of 11, 11, 11 and 8 rows
SHARDS = range(4)
RUN = [sys.executable, "-c", "from negdata.cli import main; main()", "stage", "ingest"]
# Each killed run resumes what the runs before it left: kills on the k-th request of a run
# (an int) and kills once the first unfinished shard's tar is written ("tar").
KILLS: list[int | str] = [3, "tar", 12, "tar", 1, 25, "tar", 8]

if TYPE_CHECKING:
    from tests.conftest import Reply, Respond


@dataclass
class Trap:
    """The kill point of the next or running ingest, shared with the server's handler threads.
    A request that springs it, or that it holds, gets no answer before the run is killed."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    kill_at: int | None = None  # kill on this request of the run
    hold_from: int | None = None  # hold requests for rows from here on until the run is killed
    requests: int = 0
    pgid: int | None = None  # the running ingest's process group, once started
    due: bool = False  # sprung before the run's process group was known
    released: threading.Event = field(default_factory=threading.Event)

    def arm(self, kill_at: int | None = None, hold_from: int | None = None) -> None:
        """Set before a run starts, so that its very first request already counts."""
        with self.lock:
            self.kill_at, self.hold_from, self.requests = kill_at, hold_from, 0
            self.pgid, self.due = None, False
            self.released.clear()

    def attach(self, pgid: int) -> None:
        with self.lock:
            self.pgid = pgid
            due = self.due
        if due:
            self.kill()

    def kill(self) -> None:
        """SIGKILL the run's process group (ingest and its decode workers, mid-write); then let
        go of the requests kept waiting."""
        with self.lock:
            if self.pgid is None:
                self.due = True
                return
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pgid, signal.SIGKILL)
            self.pgid, self.due = None, False
        self.released.set()

    def disarm(self) -> None:
        with self.lock:
            self.kill_at = self.hold_from = self.pgid = None
            self.due = False
        self.released.set()


@pytest.fixture
def images(tmp_path: Path, loopback_http: Callable[[Respond], str]) -> Iterator[tuple[str, Trap]]:
    """A loopback server for /000.jpg ... /039.jpg (random sizes and colours, seeded); any
    other path is a 404. Yields its base URL and the trap its handler springs."""
    rng = random.Random(7)
    bodies = {}
    for i in range(40):
        size = (rng.randint(300, 900), rng.randint(300, 900))
        out = io.BytesIO()
        Image.new("RGB", size, (rng.randrange(256), rng.randrange(256), i * 6)).save(out, "JPEG")
        bodies[f"/{i:03d}.jpg"] = out.getvalue()
    trap = Trap()

    def respond(request: http.server.BaseHTTPRequestHandler) -> Reply:
        row = int(request.path.strip("/").split(".")[0])
        with trap.lock:
            trap.requests += 1
            spring = trap.requests == trap.kill_at
            hold = trap.hold_from is not None and row >= trap.hold_from
        if spring:
            trap.kill()
        if spring or hold:
            trap.released.wait(120)
            return None  # no answer: the run is gone
        body = bodies.get(request.path)
        return (200, body, {}) if body is not None else (404, b"", {})

    yield loopback_http(respond), trap
    trap.disarm()


def _config(tmp_path: Path, base: str, name: str) -> Path:
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(f"{base}/{i:03d}.jpg\tphoto number {i}\n" for i in range(ROWS)))
    raw = {
        "run": {"output_dir": str(tmp_path / name)},
        "input": {"path": str(tsv), "samples_per_shard": PER_SHARD},
        "ingest": {"image_size": 256, "workers": 2, "allowed_hosts": ["127.0.0.1"]},
        "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def _pending(out: Path) -> list[int]:
    """Shards without a done marker, which the next run will ingest."""
    return [s for s in SHARDS if not (out / "shards" / f"{s:05d}_stats.json").exists()]


def _rows(shard: int) -> range:
    return range(shard * PER_SHARD, min((shard + 1) * PER_SHARD, ROWS))


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    return info.st_ino, info.st_mtime_ns


def _ingest(config: Path, trap: Trap, kill: int | str | None = None) -> bool:
    """Run ingest over all shards, killed at ``kill`` if given; True when it was killed."""
    out = Path(yaml.safe_load(config.read_text())["run"]["output_dir"])
    pending = _pending(out)
    tar = out / "shards" / f"{pending[0]:05d}.tar"
    before = _identity(tar)
    at_tar = kill == "tar" and len(pending) > 1  # the run cannot end while a later shard waits
    if at_tar:
        trap.arm(hold_from=_rows(pending[1])[0])
    elif kill is not None:  # a request the run is bound to make: it has all of them to do
        remaining = sum(len(_rows(s)) for s in pending)
        trap.arm(kill_at=min(kill if isinstance(kill, int) else 1, remaining))
    proc = subprocess.Popen(
        [*RUN, "--shards", f"{SHARDS[0]}-{SHARDS[-1]}", "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    trap.attach(proc.pid)
    try:
        while at_tar and _identity(tar) in (before, None) and proc.poll() is None:
            time.sleep(0.005)
        if at_tar:
            trap.kill()
        returncode = proc.wait(timeout=300)
    finally:
        trap.disarm()
    if kill is None:
        assert returncode == 0
    return returncode == -signal.SIGKILL


def _published(out: Path) -> dict[str, bytes]:
    """Every visible output file; stats without their timing, which is allowed to differ."""
    files: dict[str, bytes] = {}
    for path in sorted((out / "shards").iterdir()):
        if path.name.startswith("."):
            continue  # an unfinished temporary file, never taken for output
        data = path.read_bytes()
        if path.name.endswith("_stats.json"):
            stats = json.loads(data)
            stats.pop("duration_s")
            data = json.dumps(stats, sort_keys=True).encode()
        files[path.name] = data
    return files


def test_killed_and_rerun_ingest_matches_an_uninterrupted_run(
    tmp_path: Path, images: tuple[str, Trap]
) -> None:
    base, trap = images
    _ingest(_config(tmp_path, base, "reference"), trap)
    reference = _published(tmp_path / "reference")
    assert len(reference) == 4 * 3  # tar, parquet and done marker per shard

    config = _config(tmp_path, base, "killed")
    killed = [_ingest(config, trap, kill) for kill in KILLS]
    assert all(killed)  # every run really was cut short
    _ingest(config, trap)

    assert _published(tmp_path / "killed") == reference
