"""`make finetune-smoke`: fine-tune an open_clip model on NegCap's train split for a few steps
with open_clip's own trainer, and score it before and after as ``negdata eval-clip`` does
(NegMCQ accuracy, negated retrieval recall@1/5) on the test split.

The trainer is ``open_clip_train.main`` as ``python -m open_clip_train.main --dataset-type
webdataset`` runs it: the train split's tars from ``sizes.json``, ``--dataset-resampled`` with
``--train-num-samples`` = steps x batch size, one epoch, its checkpoint
``OUT/NAME/checkpoints/epoch_1.pt``, which ``negdata eval-clip --pretrained`` loads.
On webdataset 1.x the shards' end markers are dropped (``bench/open_clip_compat.py``); the rest
is the trainer as it is.

Usage: ``python -m bench.finetune_smoke [--config configs/sample.yaml | --run DIR |
--synthetic IMAGES] [--model RN50] [--pretrained CKPT] [--image-size 64] [--steps 4]
[--batch-size 8] [--lr 1e-5] [--device cpu]``. ``--model`` also takes a model config JSON.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import tempfile
from pathlib import Path

from bench.open_clip_compat import webdataset_1_markers_dropped
from negdata.clip_models import load_clip
from negdata.config import load_config
from negdata.evaluation.clip_eval import evaluate, read_split, report
from negdata.pipeline import summarize
from negdata.shards import is_remote

log = logging.getLogger("bench.finetune_smoke")
NAME = "finetune-smoke"


def train_tars(run: Path) -> str:
    """The train split's tars, as the trainer's ``--train-data`` (``::``-separated)."""
    folder = run / "negcap" / "train"
    sizes = folder / "sizes.json"
    if not sizes.exists():
        raise SystemExit(f"{sizes}: no train split with images (a finished run's NegCap)")
    return "::".join(str(folder / tar) for tar in sorted(json.loads(sizes.read_text())))


def train(run: Path, out: Path, args: argparse.Namespace, model: str) -> Path:
    """Run open_clip's trainer for ``args.steps`` steps; the checkpoint it saved."""
    from open_clip_train import main as open_clip_main

    shutil.rmtree(out / NAME, ignore_errors=True)
    argv = [
        "--dataset-type", "webdataset", "--train-data", train_tars(run), "--dataset-resampled",
        "--train-num-samples", str(args.steps * args.batch_size),
        "--batch-size", str(args.batch_size), "--epochs", "1", "--workers", "0",
        "--model", model, "--lr", str(args.lr), "--warmup", "0", "--precision", args.precision,
        "--device", args.device, "--logs", str(out), "--name", NAME, "--report-to", "",
        "--save-frequency", "1", "--seed", "0", "--log-every-n-steps", "1",
    ]  # fmt: skip
    if args.pretrained:
        argv += ["--pretrained", args.pretrained]
    if args.image_size:
        argv += ["--force-image-size", str(args.image_size)]
    with webdataset_1_markers_dropped():
        if open_clip_main.main(argv) == -1:
            raise SystemExit("open_clip's trainer refused to start (see its log above)")
    checkpoint = out / NAME / "checkpoints" / "epoch_1.pt"
    if not checkpoint.exists():
        raise SystemExit(f"open_clip's trainer wrote no {checkpoint}")
    return checkpoint


def score(run: Path, args: argparse.Namespace, weights: str | None) -> str:
    """``negdata eval-clip`` on the test split. A random init is seeded as the trainer seeds its
    model (``--seed 0``), so that "before" scores the model training starts from."""
    import torch

    torch.manual_seed(0)
    clip = load_clip(args.model, weights, args.device, args.image_size or None)
    return report(clip, evaluate(clip, read_split(run, "test"), "test"), run)


def smoke(run: Path, out: Path, args: argparse.Namespace) -> None:
    before = score(run, args, args.pretrained)
    model = Path(args.model).stem if args.model.endswith(".json") else args.model
    checkpoint = train(run, out, args, model)  # load_clip registered a config JSON's name
    after = score(run, args, str(checkpoint))
    steps = f"{args.steps} steps of {args.batch_size}"
    print(f"before fine-tuning:\n{before}\n\nafter {steps} ({checkpoint}):\n{after}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--config", default="configs/sample.yaml", help="the finished run's")
    where.add_argument("--run", type=Path, help="a finished run's output folder")
    where.add_argument(
        "--synthetic", type=int, metavar="IMAGES", help="train on a synthetic run of IMAGES"
    )
    parser.add_argument("--model", default="RN50", help="open_clip model name or config JSON")
    parser.add_argument("--pretrained", help="a local checkpoint to start from (random init)")
    parser.add_argument("--image-size", type=int, default=64, help="0: the model's own")
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--precision", default="fp32", help="the trainer's (amp on a GPU)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", type=Path, default=Path("runs"), help="the trainer's --logs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="negdata-finetune-") as tmp:
        if args.synthetic:
            from bench.synthetic_run import build_run

            cfg = build_run(Path(tmp), args.synthetic, samples_per_shard=max(args.synthetic, 1))
            summarize(cfg)
            run = Path(tmp) / "out"
        elif args.run:
            run = args.run
        else:
            location = load_config(args.config).run.output_dir
            if is_remote(location):
                parser.error(f"{location}: the smoke test reads a local output folder")
            run = Path(location.path)
        smoke(run, args.out, args)


if __name__ == "__main__":
    main()
