"""``negdata pairs`` on the session's run of the bundled sample: every pair's difference is real
by the sample's hand-checked labels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from negdata.records import IngestRow, read_parquet
from tests.conftest import SampleRun, copy_sample_run

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]


def _sample_labels(config: Path, out: Path) -> dict[str, set[str]]:
    """Each ingested image's hand-checked labels, by key (labels.json is by URL)."""
    raw = yaml.safe_load(config.read_text())
    (source,) = [s for s in raw["detect"]["sources"] if s["kind"] == "labels"]
    by_url = json.loads(Path(source["path"]).read_text())
    return {
        row.key: set(by_url[row.url])
        for path in sorted((out / "shards").glob("*.parquet"))
        for row in read_parquet(path, IngestRow)
        if row.url in by_url
    }


def test_every_sample_pair_differs_by_a_real_object(sample_run: SampleRun, tmp_path: Path) -> None:
    """At the default min_overlap (1: the same objects but one) the sample gives pairs such as
    zidane (person, tie) and astronaut (person), X = tie."""
    config, out = copy_sample_run(sample_run, tmp_path)
    done = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(out / "pairs" / "pairs.parquet").to_pylist()
    assert rows, "the sample gives no pair"
    labels = _sample_labels(config, out)
    for row in rows:
        a, b = labels[row["key_a"]], labels[row["key_b"]]
        assert row["object"] in a and row["object"] not in b, row
        assert set(row["present_a"]) <= a and set(row["present_b"]) <= b, row
        assert row["overlap"] == 1.0
    again = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert again.returncode == 0 and "done already" in again.stderr
