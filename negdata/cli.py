"""``negdata``: build the sample, serve the local LLM, run or inspect stages without Prefect."""

from __future__ import annotations

import argparse
import logging
import shutil
from pathlib import Path

from negdata.config import Config, load_config
from negdata.console import Parser, add_common_options, main_guard, setup_logging
from negdata.sample import build_sample, package_file

PERSON_WEIGHTS = ("fall_detection", "models/best.pt")
log = logging.getLogger("negdata.cli")


def _sample(args: argparse.Namespace) -> None:
    if args.medical:
        from negdata.sample.medical import build_medical_sample

        files = build_medical_sample(Path(args.out or "data/medical-sample"))
        log.info("medical sample (a toy): %s, labels: %s", files.tsv, files.labels)
        return
    files = build_sample(Path(args.out or "data/sample"))
    weights = Path(args.weights)
    source = package_file(*PERSON_WEIGHTS)
    if not weights.exists() or weights.read_bytes() != source.read_bytes():
        weights.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, weights)
    log.info("sample: %s, labels: %s, person weights: %s", files.tsv, files.labels, weights)


def _serve(args: argparse.Namespace) -> None:
    from negdata.llm import serve_forever

    serve_forever(load_config(args.config).llm)


def _build_model(args: argparse.Namespace) -> None:
    from negdata.llm import ensure_model

    print(ensure_model(load_config(args.config).llm.serve))


def _stage(args: argparse.Namespace) -> None:
    from negdata.pipeline import (
        TALLY,
        check_before_run,
        leased,
        retry_failed_ingest,
        run_stage,
        select_shards,
    )
    from negdata.stages import STAGES
    from negdata.stopping import stop_on_signals

    names = [s.name for s in STAGES]
    if args.name not in names:
        raise ValueError(f"unknown stage {args.name!r}; choose from {', '.join(names)}")
    if args.retry_failed and args.name != "ingest":
        raise ValueError("--retry-failed applies to the ingest stage only")
    cfg = load_config(args.config)
    shards = select_shards(cfg, args.shards)
    stop_on_signals(lambda: TALLY.describe(shards))
    stage = STAGES[names.index(args.name)]
    check_before_run(cfg, shards, (stage,))
    for shard in shards:
        with leased(cfg, shard) as mine:
            if not mine:
                continue
            if args.retry_failed:
                log.info("retry ingest %05d: %s", shard, retry_failed_ingest(cfg, shard))
            else:
                log.info("%s %05d: %s", stage.name, shard, run_stage(cfg, stage, shard))


def _detect_export(args: argparse.Namespace) -> None:
    from negdata.detect.export import export_weights

    out = Path(args.out) if args.out else None
    print(export_weights(Path(args.weights), args.format, args.imgsz, args.half, args.batch, out))


def _summary(args: argparse.Namespace) -> None:
    from negdata.pipeline import done_markers, summarize
    from negdata.report import print_summary

    cfg = load_config(args.config)
    print_summary(cfg, {**summarize(cfg, write=False), "done_markers": done_markers(cfg)})


def _splits(text: str) -> tuple[str, ...]:
    """``--eval-splits``: split names, comma-separated, or ``all``."""
    from negdata.records import SPLITS

    if text == "all":
        return SPLITS
    names = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in names if name not in SPLITS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown split {unknown[0]!r}: give some of {', '.join(SPLITS)}, or all"
        )
    return names


def _export_negbench(args: argparse.Namespace) -> None:
    from upath import UPath

    from negdata.export import export_negbench

    export_negbench(
        UPath(args.run),
        Path(args.out),
        image_root=args.image_root,
        eval_splits=args.eval_splits,
        vocabulary=load_config(args.config).detect.vocabulary,
        workers=args.workers,
    )


def _eval_clip(args: argparse.Namespace) -> None:
    from upath import UPath

    from negdata.clip_models import load_clip
    from negdata.evaluation.clip_eval import evaluate, read_split, report

    run = UPath(args.run)
    if args.task == "pairs":
        from negdata.evaluation.pairs_eval import evaluate_pairs, read_pairs, report_pairs

        pairs = read_pairs(run)
        clip = load_clip(args.model, args.pretrained, args.device, args.image_size)
        print(report_pairs(clip, evaluate_pairs(clip, pairs, args.batch_size), run))
        return
    data = read_split(run, args.split)
    clip = load_clip(args.model, args.pretrained, args.device, args.image_size)
    print(report(clip, evaluate(clip, data, args.split, args.batch_size), run))


def _run_config(args: argparse.Namespace) -> Config:
    """The config ``args.config`` reading and writing the run folder ``args.run``."""
    from negdata.config import RunConfig

    cfg = load_config(args.config)
    run = RunConfig.model_validate({**cfg.run.model_dump(), "output_dir": args.run})
    return cfg.model_copy(update={"run": run})


def _report(args: argparse.Namespace) -> None:
    import json

    from negdata.pipeline import write_docs

    cfg = _run_config(args)
    out = cfg.run.output_dir
    try:
        summary = json.loads((out / "stats.json").read_text())
    except FileNotFoundError:
        raise ValueError(f"{args.run} has no stats.json: not a finished run's folder") from None
    write_docs(cfg, summary)
    print(f"{out / 'README.md'}\n{out / 'report.html'}")


def _verify(args: argparse.Namespace) -> None:
    from negdata.integrity import RunProblems, verify_run

    found = verify_run(_run_config(args), args.workers)
    for line in found.problems:
        print(line)
    if found.problems:
        raise RunProblems(f"{args.run}: {found.summary()}")
    print(found.summary())


def _pairs(args: argparse.Namespace) -> None:
    from negdata.pairs import run_pairs
    from negdata.pairs.layout import FOLDER, PAIRS_FILE

    cfg = load_config(args.config)
    run_pairs(cfg)
    print(cfg.run.output_dir / FOLDER / PAIRS_FILE)


def _positive(text: str) -> int:
    """An argument that is a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def _qualify(args: argparse.Namespace) -> None:
    import json

    from negdata.qualify.run import check_server, qualification_config, qualify
    from negdata.qualify.table import format_table

    sources = args.config or ["configs/sample.yaml"]
    configs = [(source, load_config(source)) for source in sources]
    for source, cfg in configs:  # every server answers before the first model runs
        check_server(qualification_config(cfg).llm, source)
    results = [qualify(cfg, source, args.images) for source, cfg in configs]
    if args.json:
        Path(args.json).write_text(
            json.dumps([r.model_dump(mode="json") for r in results], indent=2) + "\n"
        )
    print(format_table(results))


def parser() -> argparse.ArgumentParser:
    root = Parser(prog="negdata", description=__doc__)
    add_common_options(root)
    sub = root.add_subparsers(dest="command", required=True)
    sample = sub.add_parser("sample", help="build the bundled sample input")
    sample.add_argument("out", nargs="?", help="default: data/sample, data/medical-sample")
    sample.add_argument("--weights", default="data/models/fall_detection_best.pt")
    sample.add_argument(
        "--medical", action="store_true", help="the medical toy sample (CheXpert-style labels)"
    )
    sample.set_defaults(func=_sample)
    llm = sub.add_parser("llm", help="the local LLM server").add_subparsers(
        dest="llm", required=True
    )
    for name, func, text in (
        (
            "serve",
            _serve,
            "start the configured vLLM server (llm.serve.*), wait until it answers, "
            "stop it cleanly on Ctrl-C or SIGTERM",
        ),
        ("build-model", _build_model, "convert the bundled GGUF into a model folder once"),
    ):
        cmd = llm.add_parser(name, help=text)
        cmd.add_argument("--config", default="configs/sample.yaml")
        cmd.set_defaults(func=func)
    stage = sub.add_parser("stage", help="run one stage over shards, without Prefect")
    stage.add_argument("name")
    stage.add_argument("--shards", default="0")
    stage.add_argument("--config", default="configs/sample.yaml")
    stage.add_argument(
        "--retry-failed",
        action="store_true",
        help="ingest only: fetch rows that failed for a transient reason again, merge them",
    )
    stage.set_defaults(func=_stage)
    detect = sub.add_parser("detect", help="detection models").add_subparsers(
        dest="detect", required=True
    )
    export_model = detect.add_parser(
        "export",
        help="export YOLO .pt weights to ONNX or a TensorRT engine for a yolo source",
        description="Write the weights as ONNX (any machine) or a TensorRT .engine (on the GPU "
        "it will run on) with a dynamic batch, beside the weights unless --out is given; a "
        "kind: yolo source takes the file as its weights. Prints the file written.",
    )
    export_model.add_argument("--weights", required=True, help="the .pt weights file")
    export_model.add_argument("--format", required=True, choices=["onnx", "engine"])
    export_model.add_argument("--imgsz", type=int, default=640, help="the source's imgsz")
    export_model.add_argument(
        "--batch", type=int, default=16, help="the largest batch (the source's batch)"
    )
    export_model.add_argument("--half", action="store_true", help="fp16 weights (on a GPU)")
    export_model.add_argument("--out", help="where to write the file (default: beside the weights)")
    export_model.set_defaults(func=_detect_export)
    summary = sub.add_parser(
        "summary", help="print the summary of a config's output folder (reads only)"
    )
    summary.add_argument("--config", default="configs/sample.yaml")
    summary.set_defaults(func=_summary)
    export = sub.add_parser(
        "export", help="write a finished run in another tool's format"
    ).add_subparsers(dest="export", required=True)
    negbench = export.add_parser(
        "negbench",
        help="CSVs and image files that NegBench's training and evaluation code reads",
        description="Write negcap.csv and mcq_train.csv (train split), mcq_eval.csv and "
        "negated_retrieval.csv (test split; without splits every record goes to both) and the "
        "images they name, once each, under OUT/images; with published NegPairs, also "
        "negpairs_train.csv (train split) and negpairs_mcq.csv (the evaluation splits). "
        "Rerunning writes the same bytes.",
    )
    negbench.add_argument("run", help="the run folder (run.output_dir): a path or a URL")
    negbench.add_argument("out", help="the folder to write the CSVs and images/ to")
    negbench.add_argument(
        "--image-root",
        metavar="DIR",
        help="the folder the CSVs name images under (default: OUT/images, absolute); give "
        "it when NegBench will read the images from another place, such as another mount",
    )
    negbench.add_argument(
        "--config",
        default="configs/sample.yaml",
        help="the config the run was made with (its vocabulary cleans the source captions)",
    )
    negbench.add_argument(
        "--eval-splits",
        type=_splits,
        default=("test",),
        metavar="SPLITS",
        help="the splits whose records go to the evaluation CSVs, comma-separated, or 'all' "
        "(default: test); a run too small for a test split of 5 images, such as the sample, "
        "is evaluated on all",
    )
    negbench.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes reading shards and writing their images at once (default: one per core)",
    )
    negbench.set_defaults(func=_export_negbench)
    clip = sub.add_parser(
        "eval-clip",
        help="score an open_clip model on a run's split: NegMCQ accuracy, negated retrieval",
        description="NegBench's scores of an open_clip model on one split of a finished run: "
        "NegMCQ accuracy (the option most similar to the image), overall and per template, and "
        "negated retrieval recall@1 and @5 (each negated caption retrieving its image among "
        "the images of the split's captions). Nothing is downloaded.",
    )
    clip.add_argument("run", help="the run's output folder: a path or a URL")
    clip.add_argument(
        "--model",
        required=True,
        help="an open_clip model name (open_clip.list_models()), or a model config JSON file",
    )
    clip.add_argument(
        "--pretrained",
        metavar="CHECKPOINT",
        help="a local checkpoint file (open_clip's or its trainer's); without it the model is "
        "randomly initialised",
    )
    clip.add_argument(
        "--task",
        choices=("negbench", "pairs"),
        default="negbench",
        help="negbench: NegMCQ and negated retrieval on --split; pairs: the run's NegPairs "
        "(pairs/negpairs.parquet), each caption matched to its own image or the other",
    )
    clip.add_argument("--split", default="test", help="train, validation or test")
    clip.add_argument("--device", default="cpu", help="torch device (cpu, cuda, cuda:1, ...)")
    clip.add_argument(
        "--image-size", type=int, help="open_clip's force_image_size (the model's own if unset)"
    )
    clip.add_argument("--batch-size", type=int, default=64)
    clip.set_defaults(func=_eval_clip)
    report = sub.add_parser(
        "report", help="write the data card (README.md) and report.html of a finished run"
    )
    report.add_argument("run", help="the run's output folder")
    report.add_argument(
        "--config",
        default="configs/sample.yaml",
        help="the config the run was made with (its detectors and prompts are the provenance)",
    )
    report.set_defaults(func=_report)
    verify = sub.add_parser(
        "verify",
        help="check a finished run before training on it: one line per problem, exit 1 if any",
        description="Read every NegCap tar to its end (keys unique, jpg/txt/json in each sample, "
        "every JPEG decoded), check each split's sizes.json and the NegCap Parquet against the "
        "tars, re-check every caption and question against the evidence with the publish "
        "stage's gates, and that no image is in two splits. Each problem is a line 'path: what' "
        "on stdout; the summary is the last line (stdout when OK, stderr and exit 1 otherwise).",
    )
    verify.add_argument("run", help="the run's output folder")
    verify.add_argument(
        "--config",
        default="configs/sample.yaml",
        help="the config the run was made with (its detect thresholds and vocabulary re-check "
        "the captions)",
    )
    verify.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes checking shards at once (default: one per core)",
    )
    verify.set_defaults(func=_verify)
    pairs = sub.add_parser(
        "pairs",
        help="mine NegPairs: look-alike images that differ by one verified object",
        description="Read every shard's detect evidence in the config's output folder and write "
        "pairs/pairs.parquet (image A, image B, the object verified present in A and absent in "
        "B, the overlap of their other objects) and pairs/stats.json, its done marker: a rerun "
        "with the same pairs settings and evidence does nothing. With detect.encoder, A and B "
        "are near neighbours in its embeddings (pairs.min_similarity, a FAISS index); without, "
        "look-alike means the same verified objects but one (pairs.min_overlap). With "
        "pairs.captions, one LLM call per pair writes its two captions, gated like NegCap's: "
        "the pairs whose captions both pass go to pairs/negpairs.parquet, the others to "
        "pairs/rejects.parquet with a reason. Prints the Parquet file of mined pairs.",
    )
    pairs.add_argument("--config", default="configs/sample.yaml")
    pairs.set_defaults(func=_pairs)
    qualify = sub.add_parser(
        "qualify",
        help="compare models before a long run: the shipped images through plan, compose and "
        "the gates",
        description="Send a fixed set of images with known objects (shipped with negdata) "
        "through plan, compose and the publication gates with each config's model, at its "
        "llm.endpoint, and print per model: published captions and MCQs per image, every "
        "gate's pass rate, false statements published per 1,000 (each published caption and "
        "MCQ option judged against the known objects), tokens per image and distinct-2. No "
        "template stands in for the model's captions and no reply is cached.",
    )
    qualify.add_argument(
        "--config",
        action="append",
        metavar="CONFIG",
        help="a config whose llm section names the model and its server; give it once per "
        "model to compare them side by side (default: configs/sample.yaml)",
    )
    qualify.add_argument(
        "--images",
        type=_positive,
        metavar="N",
        help="only the first N of the shipped images, for a quick first look (default: all 20)",
    )
    qualify.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    qualify.set_defaults(func=_qualify)
    return root


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    setup_logging(args.debug)
    with main_guard(args.debug):
        args.func(args)
