"""``detect.encoder`` end to end on a copy of the session's sample run: the detect stage embeds
every image on the pixels it decoded, beside its evidence, and ``negdata pairs`` mines among the
nearest images. The encoder is a random-weight open_clip (plumbing only: nothing is downloaded);
every pair's difference must still be real by the sample's hand-checked labels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml

from negdata.config import load_config
from negdata.detect.embeddings import embedding_path, read_embeddings
from negdata.detect.encoders import build_encoder, embed
from negdata.records import Evidence, read_parquet
from negdata.shards import read_stats
from tests.conftest import SampleRun, copy_sample_run
from tests.pairs.test_pairs_sample import _sample_labels

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
TINY = Path("tests/data/tiny-clip.json").resolve()


def _with(config: Path, encoder: dict[str, object], **pairs: object) -> None:
    raw = yaml.safe_load(config.read_text())
    raw["detect"]["encoder"] = encoder
    raw["pairs"] = {**raw.get("pairs", {}), **pairs}
    config.write_text(yaml.safe_dump(raw))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600)


def test_detect_embeds_every_image_and_pairs_are_mined_among_neighbours(
    sample_run: SampleRun, tmp_path: Path
) -> None:
    config, out = copy_sample_run(sample_run, tmp_path)
    _with(config, {"kind": "open_clip", "model": str(TINY), "batch": 3}, min_similarity=-1.0)
    detected = _run("stage", "detect", "--config", str(config), "--shards", "0-4")
    assert detected.returncode == 0, detected.stderr[-3000:]
    for shard in range(5):
        evidence = [
            e.key for e in read_parquet(out / "evidence" / f"{shard:05d}.parquet", Evidence)
        ]
        keys, vectors = read_embeddings(embedding_path(out / "evidence", shard))
        assert keys == evidence  # one per image, in the evidence's order (rejects have none)
        assert vectors.shape == (len(keys), 32) and vectors.dtype == np.float16
        np.testing.assert_allclose(np.linalg.norm(vectors.astype(np.float32), axis=1), 1, atol=2e-3)
        stats = read_stats(out / "evidence", shard) or {}
        assert stats["encoder"] == {"name": "open_clip:tiny-clip:random", "dim": 32}
    mined = _run("pairs", "--config", str(config))
    assert mined.returncode == 0, mined.stderr[-3000:]
    rows = pq.read_table(out / "pairs" / "pairs.parquet").to_pylist()
    stats = json.loads((out / "pairs" / "stats.json").read_text())
    assert rows, "no pair among the sample's nearest images"
    labels = _sample_labels(config, out)
    for row in rows:
        assert row["object"] in labels[row["key_a"]] and row["object"] not in labels[row["key_b"]]
        assert -1.0 <= row["similarity"] <= 1.0
    assert [r["similarity"] for r in rows] == sorted((r["similarity"] for r in rows), reverse=True)
    assert stats["index"].startswith("exact") and stats["neighbours"] == 16
    assert stats["neighbours_reused"] is False
    assert sum(stats["similarity_histogram"].values()) == len(rows)
    assert sum(stats["nearest_similarity_histogram"].values()) == stats["images"]
    # A stricter cut is a new config: the pairs are mined again among the saved neighbours (no
    # search), and only closer ones stay.
    cut = float(np.median([r["similarity"] for r in rows]))
    _with(config, {"kind": "open_clip", "model": str(TINY), "batch": 3}, min_similarity=cut)
    again = _run("pairs", "--config", str(config))
    assert again.returncode == 0 and "done already" not in again.stderr
    stricter = pq.read_table(out / "pairs" / "pairs.parquet").to_pylist()
    assert stricter and all(r["similarity"] >= cut for r in stricter)
    assert json.loads((out / "pairs" / "stats.json").read_text())["neighbours_reused"] is True


class MeanColour:
    """A real, if plain, image encoder: each image's mean red, green and blue, centred."""

    name, imgsz, dim, batch = "mean-colour", 32, 3, 2

    def embed_pixels(self, pixels: np.ndarray) -> np.ndarray:
        return pixels.reshape(len(pixels), -1, 3).mean(axis=1) - 100.0


def mean_colour(device: str) -> MeanColour:
    assert device == "cpu"
    return MeanColour()


def test_an_encoder_of_one_s_own_is_built_by_its_factory_and_its_vectors_made_unit(
    tmp_path: Path,
) -> None:
    raw = {
        "input": {"path": str(tmp_path / "unused.tsv")},
        "detect": {
            "sources": [{"kind": "labels", "path": str(tmp_path / "unused.json")}],
            "encoder": {"kind": "python", "factory": f"{__name__}:mean_colour", "device": "cpu"},
        },
    }
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(raw))
    encoder = build_encoder(load_config(tmp_path / "c.yaml").detect)
    assert encoder is not None
    red, grey = np.zeros((32, 32, 3), np.uint8), np.full((32, 32, 3), 100, np.uint8)
    red[..., 0] = 255
    vectors = embed(encoder, np.stack([red, red, red, grey + 50]))  # two batches of 2
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1, rtol=1e-6)
    assert vectors[0] @ vectors[1] == pytest.approx(1.0)
    with pytest.raises(RuntimeError, match="zero or non-finite"):
        embed(encoder, np.stack([grey]))  # mean 100, centred: the zero vector
    raw["detect"]["encoder"]["factory"] = f"{__name__}:no_such_function"
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match="no_such_function"):
        build_encoder(load_config(tmp_path / "c.yaml").detect)
