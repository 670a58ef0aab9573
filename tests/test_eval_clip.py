"""``negdata eval-clip`` and ``make finetune-smoke`` (``bench/finetune_smoke.py``) on a synthetic
run in publish's layout, with a tiny randomly initialised open_clip model
(``tests/data/tiny-clip.json``: two layers per tower, 32-pixel images); the scores themselves on
hand-made similarities, and on a model built to know every answer."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import torch

from bench.synthetic_run import build_run
from negdata.cli import main
from negdata.clip_models import Clip
from negdata.evaluation.clip_eval import ClipScores, evaluate, read_split, report
from negdata.evaluation.scores import Tally, mcq_tallies, recall_at_k
from negdata.pipeline import summarize
from tests.clip_oracle import oracle_clip

TINY = "tests/data/tiny-clip.json"
# 40 images in shards of 20: 32 train, 4 validation, 4 test (bench/synthetic_run.py's split).
IMAGES = 60  # enough for 5 in the test split, which recall@5 needs


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.set_num_threads(1)
    cfg = build_run(tmp_path_factory.mktemp("run"), IMAGES, samples_per_shard=20)
    summarize(cfg)
    return Path(cfg.run.output_dir)


def test_mcq_answer_is_the_option_scored_highest() -> None:
    scores = torch.tensor(
        [[0.1, 0.9, 0.0, 0.2], [0.5, 0.1, 0.2, 0.3], [0.0, 0.1, 0.2, 0.3], [0.4, 0.3, 0.2, 0.1]]
    )
    overall, per = mcq_tallies(
        scores, [1, 0, 0, 3], ["affirmation", "negation", "hybrid", "hybrid"]
    )
    assert overall == Tally(2, 4) and overall.accuracy == 0.5
    assert per == {"affirmation": Tally(1, 1), "negation": Tally(1, 1), "hybrid": Tally(0, 2)}
    assert Tally(0, 0).accuracy is None


def test_recall_at_k_counts_texts_whose_image_is_in_their_top_k() -> None:
    # Three texts over three images: text 0's image ranks 1st, text 1's 2nd, text 2's 3rd.
    scores = torch.tensor([[0.9, 0.1, 0.0], [0.8, 0.5, 0.1], [0.7, 0.6, 0.2]])
    assert recall_at_k(scores, [0, 1, 2], [1, 2, 3]) == pytest.approx({1: 1 / 3, 2: 2 / 3, 3: 1.0})
    # recall@5 over 3 images would be 1.000 whatever the model: it is not scored.
    assert set(recall_at_k(scores, [0, 1, 2], [1, 5])) == {1}


def _printed(text: str, name: str) -> float:
    match = re.search(rf"{name} (\d\.\d{{3}})", text)
    assert match, text
    return float(match.group(1))


def test_eval_clip_prints_negbench_scores(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["eval-clip", str(run), "--model", TINY, "--split", "test"])
    out = capsys.readouterr().out
    assert "weights: random init (no --pretrained)" in out
    for name in ("accuracy", "recall@1", "recall@5"):
        assert 0.0 <= _printed(out, name) <= 1.0
    assert _printed(out, "recall@1") <= _printed(out, "recall@5")
    table = pq.read_table(run / "negmcq" / "test").to_pylist()
    counts = Counter(row["correct_answer_template"] for row in table)
    assert re.search(rf"NegMCQ: {len(table)} questions", out)
    for ours, theirs in (
        ("affirmation", "positive"),
        ("negation", "negative"),
        ("hybrid", "hybrid"),
    ):
        assert re.search(rf"^  {ours} +{theirs} +{counts[ours]} ", out, re.MULTILINE), out
    captions = pq.read_table(run / "negcap_parquet" / "test").to_pylist()
    images = len({row["image_key"] for row in captions})
    assert f"{len(captions)} captions, {images} images" in out


def test_a_model_that_knows_every_answer_scores_one(run: Path) -> None:
    """Each image and each text is encoded as the one-hot of the image it belongs to (a
    question's right option as its image, the wrong ones as nothing): all right, all found."""
    data = read_split(run, "test")
    owner = {c.caption: c.image_key for c in data.captions}
    for q in data.questions:
        owner[getattr(q, f"caption_{q.correct_answer}")] = q.image_key
    oracle = oracle_clip(data.images, owner)
    scores = evaluate(oracle, data, "test", batch_size=3)
    assert scores.questions == len(data.questions) > 0
    assert scores.mcq_accuracy == 1.0
    assert scores.recall == {1: 1.0, 5: 1.0}


def test_finetune_smoke_trains_and_eval_clip_loads_its_checkpoint(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    smoke = subprocess.run(
        [sys.executable, "-m", "bench.finetune_smoke", "--run", str(run), "--model", TINY,
         "--image-size", "0", "--steps", "2", "--batch-size", "4", "--lr", "1e-4",
         "--out", str(tmp_path)],
        capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"}, check=False,
    )  # fmt: skip
    assert smoke.returncode == 0, smoke.stderr[-3000:]
    steps = set(re.findall(r"Train Epoch: 0 \[(\d+)/8", smoke.stderr))  # samples seen
    assert steps == {"4", "8"}, smoke.stderr[-3000:]
    checkpoint = tmp_path / "finetune-smoke" / "checkpoints" / "epoch_1.pt"
    assert "before fine-tuning:" in smoke.stdout
    assert f"after 2 steps of 4 ({checkpoint}):" in smoke.stdout
    main(["eval-clip", str(run), "--model", TINY, "--pretrained", str(checkpoint)])
    out = capsys.readouterr().out
    assert f"weights: {checkpoint}" in out
    assert 0.0 <= _printed(out, "accuracy") <= 1.0


def test_eval_clip_reads_no_hub_tag(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval-clip", str(run), "--model", TINY, "--pretrained", "openai"])
    assert "no such checkpoint file" in capsys.readouterr().err


def test_recall_at_k_past_the_gallery_is_refused_in_one_line() -> None:
    """One test image: recall@5 would read 1.000 for any model; it says why it is not scored."""
    scores = ClipScores("test", 0, None, {}, captions=3, images=1, recall={1: 1.0})
    clip = Clip(
        "oracle", torch.nn.Identity(), lambda image: image, lambda texts: texts, "cpu", None
    )

    printed = report(clip, scores, Path("runs/x"))

    assert "recall@1 1.000, recall@5 -" in printed
    assert printed.splitlines()[-1] == (
        "  recall@5 not scored: the gallery has 1 image, fewer than 5"
    )
