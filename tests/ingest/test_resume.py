"""Killing ingest at any moment and rerunning it gives the same shards as one uninterrupted run."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import yaml
from PIL import Image

SHARDS = "0-3"
RUN = [sys.executable, "-c", "from negdata.cli import main; main()", "stage", "ingest"]


def _inputs(tmp_path: Path) -> Path:
    rng = random.Random(7)
    lines = []
    for i in range(40):
        size = (rng.randint(300, 900), rng.randint(300, 900))
        image = Image.new("RGB", size, (rng.randrange(256), rng.randrange(256), i * 6))
        out = io.BytesIO()
        image.save(out, "JPEG", quality=90)
        path = tmp_path / "images" / f"{i:03d}.jpg"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(out.getvalue())
        lines.append(f"{path.as_uri()}\tphoto number {i}\n")
    lines.append(f"{(tmp_path / 'missing.jpg').as_uri()}\ta file that was never there\n")
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(lines))
    return tsv


def _config(tmp_path: Path, tsv: Path, name: str) -> Path:
    raw = {
        "run": {"output_dir": str(tmp_path / name)},
        "input": {"path": str(tsv), "samples_per_shard": 11},
        "ingest": {"image_size": 256, "workers": 2},
        "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
    }
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def _ingest(config: Path, kill_after: float | None = None) -> bool:
    """Run ingest over all shards; True when it was killed before it finished."""
    proc = subprocess.Popen(
        [*RUN, "--shards", SHARDS, "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        proc.wait(timeout=kill_after if kill_after is not None else 300)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the parent and its decode workers, mid-write
        proc.wait()
        return True
    assert proc.returncode == 0
    return False


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


def test_killed_and_rerun_ingest_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    tsv = _inputs(tmp_path)
    _ingest(_config(tmp_path, tsv, "reference"))
    reference = _published(tmp_path / "reference")
    assert len(reference) == 4 * 3  # tar, parquet and done marker per shard

    config = _config(tmp_path, tsv, "killed")
    delays = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)  # each run resumes the last one's leftovers
    killed = [_ingest(config, kill_after=delay) for delay in delays]
    _ingest(config)

    assert sum(killed) >= 3  # most runs really were cut short
    assert _published(tmp_path / "killed") == reference
