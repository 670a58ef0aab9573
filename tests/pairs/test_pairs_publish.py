"""NegPairs as split datasets: a pair is never cut between splits, the Parquet and WebDataset of
each split are read by ``datasets`` and ``webdataset`` as their users read them, the JPEGs are the
ingested ones, and ``pairs_together`` keeps both images of a pair in one batch."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import datasets
import numpy as np
import pytest
import webdataset as wds
from PIL import Image

from negdata.config import SplitFractions
from negdata.pairs.captions import pair_split
from negdata.pairs.images import indexed_jpegs
from negdata.pairs.labels import ImageLabels
from negdata.pairs.layout import PARQUET, WDS
from negdata.pairs.loader import pairs_together
from negdata.pairs.mine import Pair, pair_id
from negdata.pairs.publish import publish_pairs
from negdata.publish.splits import split_of
from negdata.records import SPLITS, NegPairRecord
from negdata.wds import read_tar, write_tar

EMPTY = frozenset[str]()


def _jpeg(shade: int) -> bytes:
    out = io.BytesIO()
    Image.fromarray(np.full((8, 8, 3), shade, np.uint8)).save(out, format="JPEG")
    return out.getvalue()


def _run(root: Path, shards: int = 2, per_shard: int = 12) -> dict[str, bytes]:
    """Ingested shard tars of distinct JPEGs (with txt and json members, as ingest writes them);
    every image's bytes by key."""
    jpegs = {}
    for shard in range(shards):
        samples = []
        for index in range(per_shard):
            key = f"{shard:05d}{index:04d}"
            jpegs[key] = _jpeg(10 * (shard * per_shard + index) % 250)
            samples.append({"__key__": key, "jpg": jpegs[key], "txt": "x", "json": {"key": key}})
        write_tar(root / "shards" / f"{shard:05d}.tar", samples)
    return jpegs


def _record(a: str, b: str, split: str) -> NegPairRecord:
    return NegPairRecord(
        pair_id=pair_id(a, b, "dog"), key_a=a, key_b=b, object="dog", overlap=1.0,
        similarity=0.9, shard_a=int(a[:5]), shard_b=int(b[:5]), present_a=["dog", "person"],
        present_b=["person"], caption_a=f"{a}: a person with a dog.",
        caption_b=f"{b}: a person with no dog.", generator="template", prompt=None, model=None,
        config_hash="h", split=split,
    )  # fmt: skip


def test_indexed_jpegs_reads_each_jpeg_by_offset(tmp_path: Path) -> None:
    jpegs = _run(tmp_path)
    wanted = ["000010011", "000000000", "000010003", "000000007"]
    with indexed_jpegs(tmp_path, [(int(k[:5]), k) for k in wanted]) as images:
        assert [images.read(k) for k in reversed(wanted)] == [jpegs[k] for k in reversed(wanted)]
    with (
        pytest.raises(ValueError, match=r"no JPEG for 1 keys, e\.g\. 000000099"),
        indexed_jpegs(tmp_path, [(0, "000000099")]),
    ):
        pass


def test_a_pair_s_split_is_its_smaller_image_hash_s() -> None:
    fractions = SplitFractions(train=0.5, validation=0.25, test=0.25)
    rows = {"a": "0" * 64, "b": "f" * 64, "c": "8" * 64}
    image = {k: ImageLabels(k, 0, EMPTY, EMPTY) for k in "abcd"}
    assert pair_split(Pair(image["b"], image["a"], "dog", 1.0), rows, fractions) == "train"
    assert pair_split(Pair(image["a"], image["b"], "dog", 1.0), rows, fractions) == "train"
    assert pair_split(Pair(image["b"], image["c"], "dog", 1.0), rows, fractions) == "validation"
    # No ingest row: the key's own hash stands in.
    for key in "abcd":
        own = hashlib.sha256(key.encode()).hexdigest()
        found = pair_split(Pair(image[key], image["b"], "dog", 1.0), {}, fractions)
        assert found == split_of(min(own, hashlib.sha256(b"b").hexdigest()), fractions)


def test_each_split_is_a_parquet_and_webdataset_with_a_pair_s_images_adjacent(
    tmp_path: Path,
) -> None:
    jpegs = _run(tmp_path)
    keys = sorted(jpegs)
    published = [
        _record(keys[i], keys[i + 12], SPLITS[i % 2]) for i in range(10)
    ]  # train and validation; no test pair: no test folder
    (tmp_path / "pairs" / WDS / "test").mkdir(parents=True)
    (tmp_path / "pairs" / WDS / "test" / "00000.tar").write_bytes(b"an earlier run's")
    sides = [(p.shard_a, p.key_a) for p in published] + [(p.shard_b, p.key_b) for p in published]
    with indexed_jpegs(tmp_path, sides) as images:
        written = publish_pairs(tmp_path / "pairs", published, images)
    assert written == {"train": {"pairs": 5, "tars": 1}, "validation": {"pairs": 5, "tars": 1}}
    assert not list((tmp_path / "pairs" / WDS / "test").iterdir())
    loaded = datasets.load_dataset(
        "parquet", data_dir=str(tmp_path / "pairs" / PARQUET), cache_dir=str(tmp_path / "hf")
    )
    assert sorted(loaded) == ["train", "validation"]
    assert loaded["train"]["pair_id"] == [p.pair_id for p in published if p.split == "train"]
    for split in ("train", "validation"):
        folder = tmp_path / "pairs" / WDS / split
        samples = list(read_tar(folder / "00000.tar"))
        assert json.loads((folder / "sizes.json").read_text()) == {"00000.tar": len(samples)}
        mine = [p for p in published if p.split == split]
        assert [s["__key__"] for s in samples] == [
            f"{p.pair_id}_{side}" for p in mine for side in "ab"
        ]
        for pair, (a, b) in zip(mine, zip(samples[::2], samples[1::2], strict=True), strict=True):
            assert (a["jpg"], b["jpg"]) == (jpegs[pair.key_a], jpegs[pair.key_b])
            assert (a["txt"], b["txt"]) == (pair.caption_a.encode(), pair.caption_b.encode())
            assert (a["json"]["other_key"], b["json"]["other_key"]) == (pair.key_b, pair.key_a)


def test_pairs_together_keeps_both_images_of_a_pair_in_each_batch(tmp_path: Path) -> None:
    jpegs = _run(tmp_path, shards=2, per_shard=40)
    keys = sorted(jpegs)
    published = [_record(keys[i], keys[i + 40], "train") for i in range(40)]
    sides = [(p.shard_a, p.key_a) for p in published] + [(p.shard_b, p.key_b) for p in published]
    with indexed_jpegs(tmp_path, sides) as images:
        publish_pairs(tmp_path / "pairs", published, images)
    url = str(tmp_path / "pairs" / WDS / "train" / "00000.tar")

    def batches(shuffle: object) -> list[list[str]]:
        pipeline = wds.DataPipeline(
            wds.SimpleShardList([url]),
            wds.tarfile_to_samples(),
            shuffle,
            wds.decode("pil"),
            wds.to_tuple("__key__", "jpg", "txt"),
            wds.batched(8, partial=False),
        )
        return [list(batch[0]) for batch in pipeline]

    together = batches(pairs_together(buffer=10, seed=1))
    assert len(together) == 10
    for batch in together:
        pairs = sorted(key.rpartition("_")[0] for key in batch)
        assert pairs[::2] == pairs[1::2], batch  # each pair twice: A and B
    in_tar = [f"{p.pair_id}_{side}" for p in published for side in "ab"]
    assert [key for batch in together for key in batch] != in_tar  # shuffled, whole
    assert sorted(key for batch in together for key in batch) == sorted(in_tar)
    assert batches(pairs_together(buffer=10, seed=1)) == together  # seeded
    # open_clip's own sample shuffle parts pairs: what pairs_together is for.
    parted = batches(wds.shuffle(100, initial=100, rng=__import__("random").Random(1)))
    assert any(
        sorted(k.rpartition("_")[0] for k in batch)[::2]
        != sorted(k.rpartition("_")[0] for k in batch)[1::2]
        for batch in parted
    )


def test_a_lone_side_is_a_clear_error() -> None:
    stage = pairs_together(buffer=2)
    with pytest.raises(ValueError, match="other side does not follow"):
        list(stage([{"__key__": "p1_a"}, {"__key__": "p2_a"}]))
    with pytest.raises(ValueError, match="not a NegPairs sample"):
        list(stage([{"__key__": "000000001"}]))
