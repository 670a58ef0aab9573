"""`make bench-llm`: negdata's LLM stages against a bare load generator, on the same vLLM server.

In one run, over the same shards of a bench input (the sample photos, cycled, with distinct
captions):

  (b) negdata's plan and compose stages, shards in flight as in the flow, recording every request
      body they send;
  (a) a bare load generator that replays exactly those bodies at the same concurrency, doing
      nothing else.

vLLM's prefix cache is reset before each pass (the local server runs in dev mode for that), so
neither pass inherits the other's cache. The ratio b/a says how close the stages come to the
server's throughput for the same work. The projection turns measured output tokens per image into
hours for all of CC12M at a given server speed. ``--few-shot fixed,rotate`` adds a pass of (b) with
the few-shot order rotated per image, to weigh prefix-cache hits against caption diversity.

Usage: ``python -m bench.llm [--images 32] [--shards 4] [--concurrency N] [--few-shot fixed]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from negdata.config import Config
from negdata.llm import LocalServer, ensure_model, shared_pool
from negdata.llm.metrics import ServerCounters, metrics_url, read_counters
from negdata.pipeline import run_stage, summarize
from negdata.publish.diversity import diversity
from negdata.records import CaptionRecord, read_parquet
from negdata.sample import build_sample
from negdata.stages import STAGES

log = logging.getLogger("bench.llm")

CC12M_IMAGES = 10_968_539  # samples in the 2021 CC12M WebDataset crawl (REFERENCE.md section 3)
CAPTION_SETS = (Path("tests/data/negation_cases.jsonl"), Path("tests/data/negation_heldout.jsonl"))
BY_NAME = {stage.name: stage for stage in STAGES}


@dataclass
class Pass:
    """One pass's throughput: what the client sent and what the server did meanwhile."""

    name: str
    requests: int
    wall_s: float
    prompt_tokens: int
    completion_tokens: int
    latencies_ms: list[float] = field(repr=False)
    client_cpu_s: float
    server: dict[str, Any] | None = None

    @property
    def req_s(self) -> float:
        return self.requests / self.wall_s

    @property
    def out_tok_s(self) -> float:
        return self.completion_tokens / self.wall_s

    @property
    def tok_s(self) -> float:
        return (self.prompt_tokens + self.completion_tokens) / self.wall_s

    def latency(self, q: float) -> float:
        cuts = statistics.quantiles(self.latencies_ms, n=100, method="inclusive")
        return cuts[round(q * 100) - 1]

    def row(self) -> dict[str, Any]:
        hit = (self.server or {}).get("prefix_cache_hit_rate")
        return {
            "pass": self.name,
            "requests": self.requests,
            "wall_s": round(self.wall_s, 1),
            "req_s": round(self.req_s, 3),
            "out_tok_s": round(self.out_tok_s, 1),
            "tok_s": round(self.tok_s, 1),
            "p50_ms": round(self.latency(0.5)),
            "p95_ms": round(self.latency(0.95)),
            "prefix_hit": hit,
            "client_cpu_s": round(self.client_cpu_s, 1),
        }


def source_captions() -> list[str]:
    """Hand-written scene captions that negate nothing (the labelled checker sets)."""
    captions = []
    for path in CAPTION_SETS:
        for line in path.read_text().splitlines():
            case = json.loads(line)
            if "negated" not in case["objects"].values():
                captions.append(case["text"])
    return captions


def bench_input(work: Path, images: int) -> tuple[Path, Path]:
    """A TSV of ``images`` rows: sample photos cycled, the sample captions first, then distinct
    captions, so no two prompts are the same. Returns (tsv, labels)."""
    sample = build_sample(work / "sample")
    rows = [line.split("\t") for line in sample.tsv.read_text().splitlines()]
    extra = source_captions()
    lines = []
    for i in range(images):
        url, caption = rows[i % len(rows)]
        lines.append(f"{url}\t{caption if i < len(rows) else extra[(i - len(rows)) % len(extra)]}")
    tsv = work / "bench.tsv"
    tsv.write_text("\n".join(lines) + "\n")
    return tsv, sample.labels


def bench_config(base: Path, work: Path, args: argparse.Namespace, order: str) -> Config:
    raw = yaml.safe_load(base.read_text())
    tsv, labels = bench_input(work, args.images)
    raw["run"]["output_dir"] = str(work / f"out-{order}")
    raw["run"]["shards_in_flight"] = args.shards_in_flight or None
    raw["input"] = {
        **raw["input"],
        "path": str(tsv),
        "samples_per_shard": -(-args.images // args.shards),
        "files_root": str(labels.parent),  # the sample's folder, which holds its photos
    }
    raw["detect"]["sources"] = [{"kind": "labels", "path": str(labels)}]  # detection is not timed
    raw["llm"] = {**raw["llm"], "cache": False}
    if args.concurrency:
        raw["llm"]["max_concurrency"] = args.concurrency
    raw["compose"] = {**raw.get("compose", {}), "few_shot_order": order}
    return Config.model_validate(raw)


def reset_prefix_cache(cfg: Config) -> bool:
    """Empty vLLM's prefix cache (dev-mode endpoint); False when the server does not allow it."""
    url = metrics_url(cfg.llm.base_url).removesuffix("/metrics") + "/reset_prefix_cache"
    try:
        reply = httpx.post(url, timeout=30.0)
    except httpx.TransportError:
        return False
    return reply.status_code == 200 and bool(reply.json().get("success"))


def _delta(before: ServerCounters | None, cfg: Config) -> dict[str, Any] | None:
    after = read_counters(cfg.llm.base_url, cfg.llm.api_key)
    return (after - before).as_dict() if before and after else None


def stage_pass(cfg: Config, shards: list[int]) -> tuple[Pass, list[dict[str, Any]]]:
    """(b): plan then compose per shard, as many shards at once as the flow would, one client."""
    before = read_counters(cfg.llm.base_url, cfg.llm.api_key)
    with shared_pool(cfg.llm, record=True) as pool:
        started, cpu = time.perf_counter(), time.process_time()
        with ThreadPoolExecutor(cfg.shards_at_once) as workers:
            list(
                workers.map(
                    lambda s: [run_stage(cfg, BY_NAME[n], s) for n in ("plan", "compose")], shards
                )
            )
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        stats, bodies = pool.client.stats, list(pool.client.sent or [])
    name = f"(b) negdata stages, few-shot {cfg.compose.few_shot_order}"
    result = Pass(
        name,
        stats.requests,
        wall,
        stats.prompt_tokens,
        stats.completion_tokens,
        list(stats.latencies_ms),
        cpu,
        _delta(before, cfg),
    )
    return result, bodies


async def _replay(cfg: Config, bodies: list[dict[str, Any]]) -> tuple[float, list[Any]]:
    slots = asyncio.Semaphore(cfg.llm.max_concurrency)
    limits = httpx.Limits(
        max_connections=cfg.llm.max_concurrency, max_keepalive_connections=cfg.llm.max_concurrency
    )
    url = f"{cfg.llm.base_url.rstrip('/')}/chat/completions"
    headers = {"Authorization": f"Bearer {cfg.llm.api_key}"}
    async with httpx.AsyncClient(limits=limits, timeout=cfg.llm.timeout_s, headers=headers) as http:

        async def one(body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
            async with slots:
                sent = time.perf_counter()
                reply = await http.post(url, json=body)
                ms = (time.perf_counter() - sent) * 1000.0
            reply.raise_for_status()
            return ms, reply.json().get("usage") or {}

        started = time.perf_counter()
        results = await asyncio.gather(*(one(body) for body in bodies))
        return time.perf_counter() - started, results


def bare_pass(cfg: Config, bodies: list[dict[str, Any]]) -> Pass:
    """(a): the same bodies, the same concurrency, nothing but HTTP."""
    before = read_counters(cfg.llm.base_url, cfg.llm.api_key)
    cpu = time.process_time()
    wall, results = asyncio.run(_replay(cfg, bodies))
    cpu = time.process_time() - cpu
    return Pass(
        "(a) bare load generator, same bodies",
        len(bodies),
        wall,
        sum(int(u.get("prompt_tokens") or 0) for _, u in results),
        sum(int(u.get("completion_tokens") or 0) for _, u in results),
        [ms for ms, _ in results],
        cpu,
        _delta(before, cfg),
    )


def prepare(cfg: Config, shards: list[int], base_out: Path) -> None:
    """Ingest and detect once, then give this pass a copy (they are not what is measured)."""
    out = Path(cfg.run.output_dir.path)  # the bench's configs are local
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for directory in ("shards", "evidence"):
        if (base_out / directory).exists():
            shutil.copytree(base_out / directory, out / directory)
    for shard in shards:
        for name in ("ingest", "detect"):
            run_stage(cfg, BY_NAME[name], shard)


def outcome(cfg: Config, shards: list[int]) -> dict[str, Any]:
    """Publish the pass's shards; the run summary's LLM figures and the diversity of the LLM's
    caption candidates (before the gates: a small model gets few past them)."""
    for shard in shards:
        run_stage(cfg, BY_NAME["publish"], shard)
    summary = summarize(cfg)
    candidates = [
        c
        for path in sorted((cfg.run.output_dir / "captions").glob("?????.parquet"))
        for c in read_parquet(path, CaptionRecord)
        if c.generator == "llm"
    ]
    return {
        "images": summary["stages"]["plan"]["count"],
        "llm": summary["llm"],
        "accepted_llm_captions": summary["published"].get("captions_by_generator.llm", 0),
        "accepted_mcq": summary["stages"]["publish"]["mcq"],
        "candidate_diversity": diversity(candidates),
    }


def _server(cfg: Config) -> AbstractContextManager[Any]:
    if not cfg.llm.local:
        return nullcontext()
    os.environ["VLLM_SERVER_DEV_MODE"] = "1"  # enables POST /reset_prefix_cache
    ensure_model(cfg.llm.serve)
    return LocalServer(cfg.llm)


def _table(passes: list[Pass]) -> Iterator[str]:
    rows = [p.row() for p in passes]
    header = f"{'':<44}{'req':>5}{'wall s':>8}{'req/s':>8}{'out tok/s':>11}{'tok/s':>9}"
    yield header + f"{'p50 ms':>8}{'p95 ms':>8}{'prefix hit':>12}{'client cpu s':>14}"
    for r in rows:
        hit = "-" if r["prefix_hit"] is None else f"{r['prefix_hit']:.3f}"
        yield (
            f"{r['pass']:<44}{r['requests']:>5}{r['wall_s']:>8}{r['req_s']:>8.3f}"
            f"{r['out_tok_s']:>11.1f}{r['tok_s']:>9.1f}{r['p50_ms']:>8}{r['p95_ms']:>8}{hit:>12}"
            f"{r['client_cpu_s']:>14}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--config", type=Path, default=Path("configs/sample.yaml"))
    parser.add_argument("--work", type=Path, default=Path("runs/bench-llm"))
    parser.add_argument("--images", type=int, default=64)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--shards-in-flight", type=int, default=0, help="default: as the flow")
    parser.add_argument("--concurrency", type=int, default=0, help="default: llm.max_concurrency")
    parser.add_argument("--few-shot", default="fixed", help="fixed, rotate or fixed,rotate")
    parser.add_argument(
        "--server-output-tok-s",
        default="1000,5000,12000",
        help="server output speeds (tokens/s) for the CC12M projection",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    orders = args.few_shot.split(",")
    args.work.mkdir(parents=True, exist_ok=True)
    configs = {order: bench_config(args.config, args.work, args, order) for order in orders}
    first = configs[orders[0]]
    shards = list(range(args.shards))
    passes: list[Pass] = []
    outcomes: dict[str, dict[str, Any]] = {}
    resets: list[bool] = []
    with ExitStack() as stack:
        stack.enter_context(_server(first))
        for i, order in enumerate(orders):
            cfg = configs[order]
            prepare(cfg, shards, Path(first.run.output_dir.path))
            resets.append(reset_prefix_cache(cfg))
            stage, bodies = stage_pass(cfg, shards)
            passes.append(stage)
            outcomes[order] = outcome(cfg, shards)
            if i == 0:
                resets.append(reset_prefix_cache(cfg))
                passes.insert(0, bare_pass(cfg, bodies))
    bare, stage = passes[0], passes[1]
    result = {
        "images": args.images,
        "shards": args.shards,
        "concurrency": first.llm.max_concurrency,
        "shards_at_once": first.shards_at_once,
        "prefix_cache_reset_between_passes": all(resets),
        "passes": [p.row() | {"server": p.server} for p in passes],
        "ratio_b_over_a": {
            "req_s": round(stage.req_s / bare.req_s, 3),
            "tok_s": round(stage.tok_s / bare.tok_s, 3),
        },
        "outcomes": outcomes,
    }
    per_image = stage.completion_tokens / args.images
    speeds = [float(s) for s in args.server_output_tok_s.split(",")]
    result["projection"] = {
        "images": CC12M_IMAGES,
        "output_tokens_per_image": round(per_image, 1),
        "hours_at_output_tok_s": {
            f"{s:g}": round(CC12M_IMAGES * per_image / s / 3600, 1) for s in speeds
        },
    }
    (args.work / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    print(
        f"\nbench-llm: {args.images} images in {args.shards} shards, {first.shards_at_once} at "
        f"once, {first.llm.max_concurrency} requests in flight, model {first.llm.model}"
    )
    if not all(resets):
        print("  (prefix cache could not be reset between passes: later passes start warm)")
    print(*_table(passes), sep="\n")
    ratio = result["ratio_b_over_a"]
    print(f"\nratio b/a: req/s {ratio['req_s']:.3f}, tok/s {ratio['tok_s']:.3f} (target >= 0.9)")
    for order, o in outcomes.items():
        llm = o["llm"]
        print(
            f"\nfew-shot {order}: {llm['calls_per_image']} calls/image, "
            f"{llm['tokens_per_image']} tokens/image, {o['accepted_llm_captions']} LLM captions "
            f"and {o['accepted_mcq']} MCQs accepted; tokens per accepted LLM caption "
            f"{llm['tokens_per_accepted_llm_caption']}, per accepted MCQ "
            f"{llm['tokens_per_accepted_mcq']}"
        )
        for group, d in o["candidate_diversity"].items():
            print(
                f"  candidates {group}: {d['captions']} captions, distinct-1/2/3 "
                f"{d['distinct_1']}/{d['distinct_2']}/{d['distinct_3']}, "
                f"frame reuse {d['frame_reuse']}"
            )
    proj = result["projection"]
    print(
        f"\nprojection for {CC12M_IMAGES:,} images at "
        f"{proj['output_tokens_per_image']} output tokens/image:"
    )
    for speed, hours in proj["hours_at_output_tok_s"].items():
        print(f"  {float(speed):>8,.0f} output tok/s -> {hours:>8,.1f} h")
    print(f"\nfull result: {args.work / 'result.json'}")


if __name__ == "__main__":
    main()
