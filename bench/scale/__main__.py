"""`python -m bench.scale` (`make bench-scale`): the real pipeline at scale on a synthetic corpus.

Serves a CC12M-like corpus on 127.0.0.1 (``bench/scale/corpus.py``: JPEGs of varied sizes and
shapes, about 35% failing URLs of CC12M's kinds, alt-text captions), then runs ingest, detect,
plan, compose and publish on ``--shards`` shards of ``--images-per-shard`` URLs and one of
``--small-shard`` URLs, each stage of each shard in a process of its own through negdata's CLI,
then the run's end and ``negdata verify`` on one worker and on all cores. Two stand-ins replace
what needs a GPU: detection is a label oracle over the objects the corpus put in each image,
and the LLM is an OpenAI-compatible server that answers every request from the request
(``bench/scale/llm_standin.py``), paced at ``--llm-tokens-per-s`` generated tokens/s.

Prints per stage images/s, CPU per image, peak RSS, output bytes per image and files per shard;
the small shard against the large ones (memory must not grow with shard size); and CC12M
projected onto a cluster from the CPU costs measured here and published GPU figures.

Each measurement goes to ``WORK/journal.jsonl`` as it ends: ``--resume`` goes on from where a
run stopped (the default size takes hours), with the same arguments.

Usage: ``python -m bench.scale [--shards 10] [--images-per-shard 10000] [--llm-tokens-per-s 2500]
[--resume]``
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from pathlib import Path

from bench.scale.journal import Plan
from bench.scale.projection import CC12M_URLS, Cluster, GpuFigures, Measured, project
from bench.scale.report import (
    by_stage,
    corpus_lines,
    llm_lines,
    noise_lines,
    projection_lines,
    result,
    run_end_lines,
    scaling_table,
    stage_table,
)
from bench.scale.run import BenchRun, run_bench

log = logging.getLogger("bench.scale")


def measured_costs(run: BenchRun) -> Measured:
    """Per-unit costs on the large shards, for the projection."""
    large = [r for r in run.stages if r.shard != run.plan.small_shard]
    cpu: dict[str, float] = {}
    for name in by_stage(run, large=True):
        mine = [r for r in large if r.stage == name]
        count = sum(r.urls if name == "ingest" else r.images for r in mine)
        cpu[name] = sum(r.measured.cpu_s for r in mine) / count
    images = sum(r.images for r in large if r.stage == "ingest")
    llm = [r for r in large if r.stage in ("plan", "compose")]
    tokens = sum(r.stats.get("llm_prompt_tokens", 0) + r.stats.get("llm_completion_tokens", 0)
                 for r in llm)  # fmt: skip
    published = sum(r.stats.get("images_published", 0) for r in run.stages if r.stage == "publish")
    urls = sum(r.urls for r in run.stages if r.stage == "ingest")
    ingested = sum(r.images for r in run.stages if r.stage == "ingest")
    return Measured(
        cpu_s=cpu,
        verify_cpu_s=run.run_end["verify-1"].cpu_s / max(1, published),
        tokens_per_image=tokens / images,
        success=ingested / urls,
        original_bytes=run.original_bytes,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--shards", type=int, default=10, help="large shards")
    parser.add_argument("--images-per-shard", type=int, default=10_000, help="URLs per large shard")
    parser.add_argument(
        "--small-shard", type=int, help="URLs of the small shard (default: a tenth)"
    )
    parser.add_argument("--seed", type=int, default=0, help="of the corpus and the run")
    parser.add_argument("--bank", type=int, default=512, help="distinct JPEGs served")
    parser.add_argument(
        "--llm-tokens-per-s",
        type=float,
        default=2500.0,
        help="the LLM stand-in's pace: generated tokens/s over all requests; 0: unpaced",
    )
    parser.add_argument("--verify-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--work", type=Path, default=Path("runs/bench-scale"))
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from where the run in --work stopped (its journal.jsonl), same arguments",
    )
    cluster = parser.add_argument_group("projection")
    cluster.add_argument("--nodes", type=int, default=8)
    cluster.add_argument("--gpus-per-node", type=int, default=8)
    cluster.add_argument("--cores-per-node", type=int, default=64)
    cluster.add_argument("--node-gbps", type=float, default=10.0, help="network per node")
    cluster.add_argument("--cc12m-urls", type=int, default=CC12M_URLS)
    cluster.add_argument("--gpu-llm-tokens-per-s", type=float, default=12_000.0,
                         help="per GPU, prompt and completion together")  # fmt: skip
    cluster.add_argument("--gpu-detect-images-per-s", type=float, default=626.0,
                         help="per GPU: YOLO11x in fp16 on an H200, measured")  # fmt: skip
    cluster.add_argument(
        "--detect-decode-cpu-ms",
        type=float,
        default=2.0,
        help="a real detector's CPU per image that the oracle does not spend",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    plan = Plan(
        shards=args.shards,
        per_shard=args.images_per_shard,
        small=args.small_shard or max(1, args.images_per_shard // 10),
        seed=args.seed,
        bank=args.bank,
        llm_tokens_per_s=args.llm_tokens_per_s,
        verify_workers=args.verify_workers,
    )
    log.info(
        "bench-scale: %d shards of %d URLs and one of %d; detection: label oracle (stand-in); "
        "LLM: OpenAI-compatible stand-in (%s)", plan.shards, plan.per_shard, plan.small,
        f"{plan.llm_tokens_per_s:g} generated tokens/s" if plan.llm_tokens_per_s else "unpaced",
    )  # fmt: skip
    started = time.monotonic()
    work = args.work.resolve()
    run = run_bench(work, plan, args.resume)
    projection = project(
        measured_costs(run),
        GpuFigures(args.gpu_llm_tokens_per_s, args.gpu_detect_images_per_s,
                   args.detect_decode_cpu_ms / 1000),
        Cluster(args.nodes, args.gpus_per_node, args.cores_per_node, args.node_gbps),
        args.cc12m_urls,
    )  # fmt: skip
    print(f"\nbench-scale on {os.cpu_count()} cores, {time.monotonic() - started:.0f} s in all. "
          "Stand-ins: detection = label oracle over the corpus's objects; LLM = "
          "OpenAI-compatible stand-in server (bench/scale/llm_standin.py)\n")  # fmt: skip
    sections = [
        corpus_lines(run), stage_table(run), scaling_table(run), llm_lines(run),
        run_end_lines(run), noise_lines(run), projection_lines(projection),
    ]  # fmt: skip
    for section in sections:
        print(*section, sep="\n")
        print()
    (work / "result.json").write_text(json.dumps(result(run, projection), indent=2) + "\n")
    print(f"full result: {work / 'result.json'}")


if __name__ == "__main__":
    main()
