"""``negdata eval-clip --task pairs`` on the sample's NegPairs (mined and captioned on a copy of
the session's run): a model built to know each caption's image scores 1, one built to know
them the wrong way round scores 0, and a tiny random-weight open_clip runs through the CLI."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from negdata.clip_models import Clip
from negdata.evaluation.pairs_eval import PairsData, evaluate_pairs, read_pairs
from tests.clip_oracle import oracle_clip
from tests.conftest import SampleRun, copy_sample_run

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
TINY = "tests/data/tiny-clip.json"


@pytest.fixture(scope="module")
def paired(sample_run: SampleRun, tmp_path_factory: pytest.TempPathFactory) -> Path:
    config, out = copy_sample_run(sample_run, tmp_path_factory.mktemp("pairs-eval"))
    raw = yaml.safe_load(config.read_text())
    raw["pairs"] = {**raw.get("pairs", {}), "captions": True}
    config.write_text(yaml.safe_dump(raw))
    done = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def _oracle(data: PairsData, swapped: bool) -> Clip:
    """Each caption encoded as its own image (``swapped``: as the other image of its pair)."""
    owner = {}
    for p in data.pairs:
        owner[p.caption_a] = p.key_b if swapped else p.key_a
        owner[p.caption_b] = p.key_a if swapped else p.key_b
    return oracle_clip(data.images, owner)


def test_a_model_that_knows_each_caption_s_image_scores_one_and_the_reverse_zero(
    paired: Path,
) -> None:
    data = read_pairs(paired)
    assert data.pairs, "the sample publishes no pair"
    right = evaluate_pairs(_oracle(data, swapped=False), data, batch_size=3)
    assert (right.individual, right.set) == (1.0, 1.0)
    assert right.by_object == {"tie": (len(data.pairs), len(data.pairs))}
    wrong = evaluate_pairs(_oracle(data, swapped=True), data, batch_size=3)
    assert (wrong.individual, wrong.set) == (0.0, 0.0)


def test_eval_clip_scores_the_pairs_of_a_random_weight_model(paired: Path) -> None:
    done = subprocess.run(
        [*CLI, "eval-clip", str(paired), "--task", "pairs", "--model", TINY],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    found = re.search(r"NegPairs: (\d+) pairs, individual accuracy ([\d.]+) .* set accuracy "
                      r"([\d.]+)", done.stdout)  # fmt: skip
    assert found, done.stdout
    pairs, individual, both = int(found[1]), float(found[2]), float(found[3])
    assert pairs == len(read_pairs(paired).pairs)
    assert 0 <= both <= individual <= 1 and "random init" in done.stdout
