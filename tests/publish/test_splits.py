"""Splits by image hash: deterministic, in the configured shares, and never shared by an image."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest
import yaml

from negdata.config import ConfigError, SplitFractions, load_config
from negdata.publish.splits import position, split_of


def _sha(i: int) -> str:
    return hashlib.sha256(f"image {i}".encode()).hexdigest()


def test_an_image_hash_names_one_split_whatever_else_changes() -> None:
    fractions = SplitFractions(train=0.8, validation=0.1, test=0.1)
    first = [split_of(_sha(i), fractions) for i in range(1000)]
    again = [
        split_of(_sha(i), SplitFractions(train=0.8, validation=0.1, test=0.1)) for i in range(1000)
    ]
    assert first == again
    assert split_of("0" * 64, fractions) == "train"
    assert split_of("f" * 64, fractions) == "test"
    assert 0 <= position("f" * 64) < 1


def test_splits_take_their_configured_shares() -> None:
    fractions = SplitFractions(train=0.7, validation=0.2, test=0.1)
    counts = Counter(split_of(_sha(i), fractions) for i in range(20_000))
    assert counts["train"] / 20_000 == pytest.approx(0.7, abs=0.01)
    assert counts["validation"] / 20_000 == pytest.approx(0.2, abs=0.01)
    assert counts["test"] / 20_000 == pytest.approx(0.1, abs=0.01)


def test_a_split_with_no_share_gets_no_image() -> None:
    fractions = SplitFractions(train=0.9, validation=0.1, test=0.0)
    assert {split_of(_sha(i), fractions) for i in range(2000)} == {"train", "validation"}
    assert split_of("f" * 64, SplitFractions(train=1.0, validation=0.0, test=0.0)) == "train"


def test_growing_a_split_only_moves_images_into_it() -> None:
    """Train keeps its first part of [0, 1): more validation takes images from train's end."""
    small = SplitFractions(train=0.9, validation=0.05, test=0.05)
    large = SplitFractions(train=0.8, validation=0.15, test=0.05)
    for i in range(2000):
        before, after = split_of(_sha(i), small), split_of(_sha(i), large)
        assert before == after or (before, after) == ("train", "validation")


def test_fractions_must_sum_to_one(tmp_path: Path) -> None:
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["publish"] = {"splits": {"train": 0.9, "validation": 0.1, "test": 0.1}}
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    with pytest.raises(ConfigError, match=r"publish\.splits: .*must sum to 1, not 1\.1"):
        load_config(config)
    assert SplitFractions() == SplitFractions(train=0.98, validation=0.01, test=0.01)
