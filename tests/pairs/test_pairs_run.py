"""``negdata pairs`` on a run folder: shard by shard, a done marker, the same bytes again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from negdata.config import load_config
from negdata.pairs import run_pairs
from negdata.records import Evidence, known_evidence, write_parquet
from negdata.shards import write_stats
from negdata.stages import STAGES, stage_hash

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
VOCABULARY = ("person", "dog", "bench", "cup")
# Two shards; each pair crosses them or stays in one.
SHARDS = {
    0: {"000000000": ["person", "dog"], "000000001": ["person", "bench"]},
    1: {"000010000": ["person"], "000010001": ["bench", "cup"], "000010002": []},
}


def _config(root: Path, **pairs: float) -> Path:
    raw = {
        "run": {"output_dir": str(root / "out")},
        "input": {"path": str(root / "unused.tsv")},
        "detect": {"sources": [{"kind": "labels", "path": str(root / "unused.json")}]},
    }
    if pairs:
        raw["pairs"] = pairs
    path = root / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A run folder with finished detect shards 0 and 1 (oracle evidence), and its config."""
    path = _config(tmp_path)
    cfg = load_config(path)
    detect = next(stage for stage in STAGES if stage.name == "detect")
    folder = cfg.run.output_dir / detect.directory
    for shard, images in SHARDS.items():
        evidence = [
            known_evidence(key, {label: 1 for label in labels}, VOCABULARY, "oracle")
            for key, labels in images.items()
        ]
        write_parquet(folder / f"{shard:05d}.parquet", Evidence, evidence)
        write_stats(folder, shard, stage_hash(cfg, detect), {"count": len(evidence)})
    return path


def _pairs(config: Path) -> list[tuple[str, str, str]]:
    out = Path(yaml.safe_load(config.read_text())["run"]["output_dir"])
    table = pq.read_table(out / "pairs" / "pairs.parquet").to_pylist()
    return [(row["key_a"], row["key_b"], row["object"]) for row in table]


def test_pairs_are_mined_across_shards_with_stats(config: Path) -> None:
    done = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = config.parent / "out" / "pairs"
    assert done.stdout.strip() == str(out / "pairs.parquet")
    assert _pairs(config) == [
        ("000000000", "000010000", "dog"),
        ("000000001", "000010000", "bench"),
    ]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["images"] == 5
    assert stats["shards"] == 2
    assert stats["pairs"] == 2
    assert stats["objects"] == {"bench": 1, "dog": 1}
    assert stats["overlap_histogram"]["0.9-1.0"] == 2
    assert set(stats["dropped"]) == {"below_overlap", "object_not_absent", "over_image_cap"}
    table = pq.read_table(out / "pairs.parquet")
    assert table.column_names == [
        "pair_id", "key_a", "key_b", "object", "overlap", "similarity",
        "shard_a", "shard_b", "present_a", "present_b",
    ]  # fmt: skip
    assert table.column("similarity").to_pylist() == [None, None]  # no encoder
    assert stats["encoder"] is None and "similarity_histogram" not in stats
    assert table.column("shard_a").to_pylist() == [0, 0]
    assert table.column("shard_b").to_pylist() == [1, 1]


def test_a_rerun_skips_and_a_changed_setting_redoes(config: Path) -> None:
    first = run_pairs(load_config(config))
    parquet = config.parent / "out" / "pairs" / "pairs.parquet"
    written = parquet.read_bytes()
    again = run_pairs(load_config(config))
    assert again["skipped"] is True and again["config_hash"] == first["config_hash"]
    assert parquet.read_bytes() == written
    changed = run_pairs(load_config(_config(config.parent, min_overlap=0.5)))
    assert "skipped" not in changed and changed["config_hash"] != first["config_hash"]
    assert changed["pairs"] > first["pairs"]
    assert changed["min_overlap"] == 0.5


def test_the_same_evidence_gives_the_same_bytes(config: Path) -> None:
    run_pairs(load_config(config))
    folder = config.parent / "out" / "pairs"
    written = {p.name: p.read_bytes() for p in folder.iterdir()}
    (folder / "stats.json").unlink()  # no done marker: mined again
    assert "skipped" not in run_pairs(load_config(config))
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == written


def test_evidence_of_other_detect_settings_is_left_out(config: Path, tmp_path: Path) -> None:
    changed = _config(tmp_path)
    raw = yaml.safe_load(changed.read_text())
    raw["detect"]["t_absent"] = 0.05
    changed.write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match="run the detect stage first"):
        run_pairs(load_config(changed))
