"""``negdata verify RUN``: a clean run passes; each kind of damage gives exactly its line."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.synthetic_run import build_run
from negdata.config import Config, RunConfig
from negdata.integrity import verify_run
from negdata.integrity.tars import read_negcap_tar
from negdata.pipeline import summarize
from negdata.publish import layout
from negdata.records import PublishedCaption, PublishedMcq, read_parquet, write_parquet
from negdata.shards import sample_key
from negdata.wds import read_tar, write_tar

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Config:
    """30 images over 2 shards, with images in every split (8 of each 10 in train)."""
    root = tmp_path_factory.mktemp("clean")
    cfg = build_run(root, 30, samples_per_shard=15)
    summarize(cfg, write=True)
    return cfg


@pytest.fixture
def damaged(clean: Config, tmp_path: Path) -> Config:
    """A copy of the clean run to damage."""
    shutil.copytree(clean.run.output_dir, tmp_path / "out")
    run = RunConfig.model_validate({**clean.run.model_dump(), "output_dir": str(tmp_path / "out")})
    return clean.model_copy(update={"run": run})


def _rewrite_tar(tar: Path, change: Callable[[list[dict]], list[dict]]) -> None:
    samples = list(read_tar(tar))
    tar.chmod(0o644)
    write_tar(tar, change(samples))


def _rewrite_parquet(path: Path, model: type, change: Callable[[list], list]) -> None:
    write_parquet(path, model, change(read_parquet(path, model)))


def test_a_clean_run_passes(clean: Config) -> None:
    found = verify_run(clean)
    assert found.problems == []
    assert found.summary() == "6 tars, 30 samples, 90 captions, 22 questions: OK"


def test_the_cli_says_ok_or_one_line_per_problem(clean: Config, damaged: Config) -> None:
    config = clean.run.output_dir.parent / "config.yaml"
    ok = subprocess.run(
        [*CLI, "verify", str(clean.run.output_dir), "--config", str(config)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == "6 tars, 30 samples, 90 captions, 22 questions: OK\n"
    out = damaged.run.output_dir
    sizes = layout.sizes_path(out, "train")
    counts = json.loads(sizes.read_text())
    sizes.write_text(json.dumps({**counts, "00000.tar": counts["00000.tar"] + 1}))
    bad = subprocess.run(
        [*CLI, "verify", str(out), "--config", str(config)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert bad.returncode == 1
    n = counts["00000.tar"]
    assert bad.stdout == f"{sizes}: 00000.tar: {n + 1} samples, the tar has {n}\n"
    last = bad.stderr.strip().splitlines()[-1]
    assert last == f"negdata: {out}: 6 tars, 30 samples, 90 captions, 22 questions: 1 problem"


def test_a_truncated_tar(damaged: Config) -> None:
    tar = layout.negcap_tar(damaged.run.output_dir, "train", "00000")
    tar.chmod(0o644)
    tar.write_bytes(tar.read_bytes()[: tar.stat().st_size // 2])
    (line,) = verify_run(damaged).problems
    assert line.startswith(f"{tar}: unreadable tar: ")


def test_a_duplicate_key(damaged: Config) -> None:
    out = damaged.run.output_dir
    tar = layout.negcap_tar(out, "train", "00001")
    _rewrite_tar(tar, lambda samples: [*samples, samples[0]])
    key, n = sample_key(1, 0), json.loads(layout.sizes_path(out, "train").read_text())["00001.tar"]
    assert verify_run(damaged).problems == [
        f"{tar}: {key}: key twice in the tar",
        f"{layout.sizes_path(out, 'train')}: 00001.tar: {n} samples, the tar has {n + 1}",
    ]


def test_a_key_in_two_shards_is_found_without_a_set_of_the_runs_keys(damaged: Config) -> None:
    """Each shard is checked on its own, in parallel: a key is unique across the run when it is
    unique in its shard and begins with the shard's name, as img2dataset's keys do."""
    out = damaged.run.output_dir
    first = next(read_tar(layout.negcap_tar(out, "train", "00000")))
    tar = layout.negcap_tar(out, "train", "00001")
    _rewrite_tar(tar, lambda samples: [*samples, first])
    n = json.loads(layout.sizes_path(out, "train").read_text())["00001.tar"]
    key, parquet = first["__key__"], layout.negcap_parquet(out, "train", "00001")
    assert verify_run(damaged).problems == [
        f"{tar}: {key}: key of another shard",
        f"{parquet}: {key}: no captions for the sample in {tar}",
        f"{layout.sizes_path(out, 'train')}: 00001.tar: {n} samples, the tar has {n + 1}",
    ]


def test_one_worker_and_several_find_the_same(damaged: Config) -> None:
    out = damaged.run.output_dir
    _rewrite_tar(layout.negcap_tar(out, "train", "00001"), lambda samples: samples[1:])
    _rewrite_tar(layout.negcap_tar(out, "train", "00000"), lambda samples: samples[:-1])
    serial, parallel = verify_run(damaged, workers=1), verify_run(damaged, workers=2)
    assert len(serial.problems) >= 4 and serial == parallel


def test_a_corrupt_jpeg(damaged: Config) -> None:
    tar = layout.negcap_tar(damaged.run.output_dir, "train", "00000")

    def corrupt(samples: list[dict]) -> list[dict]:
        samples[2]["jpg"] = samples[2]["jpg"][: len(samples[2]["jpg"]) // 2]
        return samples

    _rewrite_tar(tar, corrupt)
    (line,) = verify_run(damaged).problems
    assert line.startswith(f"{tar}: {sample_key(0, 2)}: .jpg does not decode: ")


def test_a_parquet_caption_unlike_the_tar(damaged: Config) -> None:
    out = damaged.run.output_dir
    parquet = layout.negcap_parquet(out, "train", "00000")
    rows = read_parquet(parquet, PublishedCaption)
    old = rows[0].caption
    new = old.replace("A photo", "A picture")

    def change(rows: list[PublishedCaption]) -> list[PublishedCaption]:
        return [rows[0].model_copy(update={"caption": new}), *rows[1:]]

    _rewrite_parquet(parquet, PublishedCaption, change)
    tar = layout.negcap_tar(out, "train", "00000")
    assert verify_run(damaged).problems == [
        f"{parquet}: {rows[0].image_key}: captions differ from {tar}: "
        f"here only {[new]}, there only {[old]}"
    ]


def test_a_caption_affirming_an_absent_object(damaged: Config) -> None:
    """The caption is changed everywhere it is (tar and Parquet): only the evidence disagrees."""
    out = damaged.run.output_dir
    parquet, tar = (
        layout.negcap_parquet(out, "train", "00000"),
        layout.negcap_tar(out, "train", "00000"),
    )
    row = read_parquet(parquet, PublishedCaption)[0]
    absent = "giraffe" if row.negated != "giraffe" else "zebra"
    new = f"A photo of a {absent}, but no {row.negated}."

    def in_parquet(rows: list[PublishedCaption]) -> list[PublishedCaption]:
        return [r.model_copy(update={"caption": new}) if r.key == row.key else r for r in rows]

    def in_tar(samples: list[dict]) -> list[dict]:
        for sample in samples:
            for caption in sample["json"]["captions"]:
                if caption["key"] == row.key:
                    if sample["txt"] == caption["text"]:
                        sample["txt"] = sample["json"]["caption"] = new
                    caption["text"] = new
        return samples

    _rewrite_parquet(parquet, PublishedCaption, in_parquet)
    _rewrite_tar(tar, in_tar)
    assert verify_run(damaged).problems == [f"{parquet}: {row.key}: affirms_absent: {new}"]


def test_a_question_with_two_true_options(damaged: Config) -> None:
    questions = layout.negmcq_parquet(damaged.run.output_dir, "train", "00000")
    mcq = read_parquet(questions, PublishedMcq)[0]
    wrong = next(i for i in range(4) if i != mcq.correct_answer)
    true = f"This image features a {mcq.positives[0]}."

    def change(rows: list[PublishedMcq]) -> list[PublishedMcq]:
        return [rows[0].model_copy(update={f"caption_{wrong}": true}), *rows[1:]]

    _rewrite_parquet(questions, PublishedMcq, change)
    assert verify_run(damaged).problems == [f"{questions}: {mcq.key}: mcq_not_one_true"]


def test_an_image_in_two_splits(damaged: Config) -> None:
    out = damaged.run.output_dir
    mcq = read_parquet(layout.negmcq_parquet(out, "train", "00000"), PublishedMcq)[0]
    questions = layout.negmcq_parquet(out, "test", "00000")
    moved = mcq.model_copy(update={"split": "test"})
    _rewrite_parquet(questions, PublishedMcq, lambda rows: [*rows, moved])
    tar = layout.negcap_tar(out, "train", "00000")
    assert verify_run(damaged).problems == [
        f"{questions}: image {mcq.image_key} is also in split train ({tar})"
    ]


def test_every_byte_flipped_inside_a_stored_jpeg_is_found(clean: Config, tmp_path: Path) -> None:
    """100 random single-byte flips, each in a random image of a tar: a JPEG with a flipped
    byte often still decodes, so each is found by the sha256 the sample's .json stores."""
    tar = layout.negcap_tar(clean.run.output_dir, "train", "00000")
    samples = list(read_tar(tar))
    rng = random.Random(0)
    found = by_sha = 0
    for flip in range(100):
        at = rng.randrange(len(samples))
        jpg = bytearray(samples[at]["jpg"])
        jpg[rng.randrange(len(jpg))] ^= 1 << rng.randrange(8)
        damaged = tmp_path / f"{flip}.tar"
        write_tar(damaged, [*samples[:at], {**samples[at], "jpg": bytes(jpg)}, *samples[at + 1 :]])
        problems = read_negcap_tar(damaged, "train").problems
        key = samples[at]["__key__"]
        assert all(f": {key}: " in p for p in problems), problems
        found += bool(problems)
        by_sha += any(".jpg has sha256" in p for p in problems)
    assert found == 100
    assert by_sha > 90  # the rest no longer decode


def test_a_flipped_byte_is_one_line_of_verify(damaged: Config) -> None:
    tar = layout.negcap_tar(damaged.run.output_dir, "train", "00000")

    def flip(samples: list[dict]) -> list[dict]:
        jpg = bytearray(samples[0]["jpg"])
        jpg[len(jpg) // 2] ^= 0x10  # mid-scan: the JPEG still decodes
        return [{**samples[0], "jpg": bytes(jpg)}, *samples[1:]]

    _rewrite_tar(tar, flip)
    (line,) = verify_run(damaged).problems
    assert line.startswith(f"{tar}: {sample_key(0, 0)}: .jpg has sha256 "), line


def test_a_parquet_jpg_sha256_unlike_the_tar(damaged: Config) -> None:
    parquet = layout.negcap_parquet(damaged.run.output_dir, "train", "00000")
    _rewrite_parquet(
        parquet,
        PublishedCaption,
        lambda rows: [rows[0].model_copy(update={"jpg_sha256": "0" * 64}), *rows[1:]],
    )
    (line,) = verify_run(damaged).problems
    assert line.startswith(f"{parquet}: {sample_key(0, 0)}_0: jpg_sha256 {'0' * 64}, "), line
