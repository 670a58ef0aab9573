"""What ``make bench-scale`` prints: per stage on the large shards, the small shard against
them, the corpus's failures as ingest counted them, the LLM's traffic, the run's end, and the
projection to CC12M on a cluster. Also as JSON (``result``)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bench.scale.corpus import expected_failures
from bench.scale.journal import StageRun, stage_key
from bench.scale.projection import SOURCES, Projection, shards
from bench.scale.run import BenchRun
from negdata.stages import STAGES

GROWS = 1.25  # a peak RSS ratio (large shard / small shard) above this counts as growing


def items(run: StageRun) -> int:
    """What a stage works through: URLs for ingest, ingested images for the others."""
    return run.urls if run.stage == "ingest" else run.images


@dataclass(frozen=True)
class StageFigures:
    """One stage over a set of shards: medians of the per-shard figures, peaks as the max."""

    stage: str
    shards: int
    items: float
    wall_s: float
    cpu_s: float
    largest_rss_mib: float
    tree_rss_mib: float
    bytes_per_image: float
    files: float
    server_cpu_s: float

    @property
    def items_per_s(self) -> float:
        return self.items / self.wall_s

    @property
    def cpu_ms_per_item(self) -> float:
        return 1000 * self.cpu_s / max(1.0, self.items)


def figures(runs: list[StageRun]) -> StageFigures:
    def median(values: Iterator[float]) -> float:
        return float(statistics.median(values))

    return StageFigures(
        stage=runs[0].stage,
        shards=len(runs),
        items=median(items(r) for r in runs),
        wall_s=median(r.measured.wall_s for r in runs),
        cpu_s=median(r.measured.cpu_s for r in runs),
        largest_rss_mib=max(r.measured.largest_rss_mib for r in runs),
        tree_rss_mib=max(r.measured.tree_rss_mib for r in runs),
        bytes_per_image=median(r.measured.written_bytes / max(1, r.images) for r in runs),
        files=median(len(r.measured.written) for r in runs),
        server_cpu_s=median(r.server_cpu_s for r in runs),
    )


def by_stage(run: BenchRun, large: bool) -> dict[str, StageFigures]:
    small = run.plan.small_shard
    return {
        stage.name: figures(
            [r for r in run.stages if r.stage == stage.name and (r.shard != small) == large]
        )
        for stage in STAGES
    }


def _fixed_s(big: StageFigures, small: StageFigures) -> float:
    """A shard's fixed cost: the wall time at 0 items on the line through both shard sizes."""
    slope = (big.wall_s - small.wall_s) / max(1.0, big.items - small.items)
    return small.wall_s - slope * small.items


def stage_table(run: BenchRun) -> Iterator[str]:
    large = by_stage(run, large=True)
    n = run.plan.shards
    yield f"Per stage, {run.plan.per_shard:,}-URL shards (medians of {n}; peaks: the highest)"
    yield "(ingest works per URL, the other stages per ingested image)"
    yield ""
    yield ("| stage | items | wall s | items/s | CPU ms/item | peak RSS MiB, largest process "
           "| peak RSS MiB, process tree | output KiB/image | files/shard |")  # fmt: skip
    yield "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for f in large.values():
        yield (f"| {f.stage} | {f.items:,.0f} | {f.wall_s:.1f} | {f.items_per_s:.1f} "
               f"| {f.cpu_ms_per_item:.2f} | {f.largest_rss_mib:.0f} | {f.tree_rss_mib:.0f} "
               f"| {f.bytes_per_image / 1024:.2f} | {f.files:.0f} |")  # fmt: skip
    total = sum(f.bytes_per_image for f in large.values())
    files = sum(f.files for f in large.values())
    yield ""
    yield (f"All stages: {total / 1024:.1f} KiB written per ingested image, {files:.0f} files "
           f"per shard; {sum(f.wall_s for f in large.values()):.0f} s per shard on this "
           "machine, one stage at a time")  # fmt: skip


def noise_lines(run: BenchRun) -> Iterator[str]:
    """How much CPU other processes took while the stages ran, and which stage runs an earlier
    session cut off (``--resume``): the figures' noise."""
    own = sum(r.measured.cpu_s + r.server_cpu_s for r in run.stages)
    others = sum(r.measured.machine_cpu_s for r in run.stages) - own
    wall = sum(r.measured.wall_s for r in run.stages)
    yield (
        f"Other processes on this machine used {max(0.0, others):,.0f} CPU s while the "
        f"stages ran ({max(0.0, others) / wall:.2f} cores on average; the stages and "
        f"servers: {own / wall:.2f}); wall-clock figures are the noisier for it"
    )
    cut = [stage_key(r.stage, r.shard) for r in run.stages if r.cut_off]
    if cut:
        yield f"Cut off and resumed, so measured on what was left: {', '.join(cut)}"


def scaling_table(run: BenchRun) -> Iterator[str]:
    large, small = by_stage(run, large=True), by_stage(run, large=False)
    yield (f"A {run.plan.small:,}-URL shard against the {run.plan.per_shard:,}-URL shards "
           "(ratio: large / small)")  # fmt: skip
    yield ""
    yield ("| stage | items/s | ratio | CPU ms/item | ratio | peak RSS MiB (tree) | ratio "
           "| MiB more per 1,000 items | fixed s per shard | of a large shard |")  # fmt: skip
    yield "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for name, big in large.items():
        low = small[name]
        rss = big.tree_rss_mib / low.tree_rss_mib
        more = 1000 * (big.tree_rss_mib - low.tree_rss_mib) / max(1.0, big.items - low.items)
        fixed = _fixed_s(big, low)
        yield (f"| {name} | {low.items_per_s:.1f} -> {big.items_per_s:.1f} "
               f"| {big.items_per_s / low.items_per_s:.2f} "
               f"| {low.cpu_ms_per_item:.2f} -> {big.cpu_ms_per_item:.2f} "
               f"| {big.cpu_ms_per_item / low.cpu_ms_per_item:.2f} "
               f"| {low.tree_rss_mib:.0f} -> {big.tree_rss_mib:.0f} | {rss:.2f} "
               f"| {more:.1f} | {fixed:.1f} | {100 * fixed / big.wall_s:.1f}% |")  # fmt: skip
    growing = [n for n in large if large[n].tree_rss_mib / small[n].tree_rss_mib > GROWS]
    yield ""
    yield (
        "Memory flat with shard size (tree peak ratio <= "
        f"{GROWS}): {'yes' if not growing else 'no, it grows in ' + ', '.join(growing)}"
    )
    yield (
        "(fixed s per shard: the wall time at zero items on the line through both shard "
        "sizes: process start, imports, loading the oracle and the parser, pools)"
    )


def corpus_lines(run: BenchRun) -> Iterator[str]:
    ingest = [r for r in run.stages if r.stage == "ingest"]
    counted: Counter[str] = Counter()
    for r in ingest:
        counted.update(r.stats.get("failures_by_reason", {}))
    expected = expected_failures(run.plan.seed, run.plan.urls)
    urls = run.plan.urls
    failed = sum(counted.values())
    yield (f"Corpus: {urls:,} URLs (seed {run.plan.seed}), {failed:,} failed "
           f"({100 * failed / urls:.1f}%), {urls - failed:,} images ingested; originals "
           f"{run.original_bytes / 1024:.0f} KiB on average, {run.plan.bank} distinct")  # fmt: skip
    yield "Failures by ingest's reason (as the corpus made them / as ingest counted them):"
    for reason in sorted(set(counted) | set(expected), key=lambda r: -counted[r]):
        share = 100 * counted[reason] / urls
        yield f"  {reason:<24}{expected[reason]:>8,}{counted[reason]:>8,}  {share:4.1f}%"


def _total(run: BenchRun, stage: str, key: str) -> int:
    return sum(int(r.stats.get(key, 0)) for r in run.stages if r.stage == stage)


def llm_lines(run: BenchRun) -> Iterator[str]:
    images = _total(run, "ingest", "successes")
    requests = sum(_total(run, s, "llm_requests") for s in ("plan", "compose"))
    prompt = sum(_total(run, s, "llm_prompt_tokens") for s in ("plan", "compose"))
    completion = sum(_total(run, s, "llm_completion_tokens") for s in ("plan", "compose"))
    pace = run.plan.llm_tokens_per_s
    paced = f"paced at {pace:,.0f} generated tokens/s" if pace > 0 else "unpaced"
    yield (f"LLM (stand-in, {paced}): {requests / images:.2f} requests, "
           f"{prompt / images:.0f} prompt + {completion / images:.0f} completion tokens per "
           f"image (a token per 4 characters); stand-in CPU "
           f"{1000 * run.server_cpu_s['llm'] / max(1, requests):.2f} ms per request, not "
           "counted in any stage")  # fmt: skip
    captions = _total(run, "publish", "captions")
    candidates = _total(run, "compose", "caption_candidates")
    yield (f"Published: {captions / images:.2f} captions and "
           f"{_total(run, 'publish', 'mcq') / images:.2f} questions per image; "
           f"{100 * captions / max(1, candidates):.1f}% of the stand-in's captions passed the "
           "gates")  # fmt: skip
    yield (
        f"Corpus server CPU: {1000 * run.server_cpu_s['corpus'] / run.plan.urls:.2f} ms per "
        "URL, not counted in ingest"
    )


def run_end_lines(run: BenchRun) -> Iterator[str]:
    images = _total(run, "publish", "images_published")
    summary = run.run_end["summarize"]
    yield (
        f"Run end (stats.json, sizes.json, data card, report.html): {summary.wall_s:.1f} s, "
        f"{summary.cpu_s:.1f} CPU s, peak RSS {summary.tree_rss_mib:.0f} MiB"
    )
    verifies = {k: v for k, v in run.run_end.items() if k.startswith("verify-")}
    one = verifies["verify-1"]
    for name, m in verifies.items():
        workers = int(name.split("-")[1])
        yield (f"negdata verify, {workers} worker(s): {m.wall_s:.1f} s, {images / m.wall_s:.0f} "
               f"images/s ({images / m.wall_s / workers:.1f} per worker), "
               f"{1000 * m.cpu_s / images:.1f} CPU ms per image, peak RSS "
               f"{m.tree_rss_mib:.0f} MiB, speedup {one.wall_s / m.wall_s:.2f}")  # fmt: skip


def projection_lines(p: Projection) -> Iterator[str]:
    c = p.cluster
    yield (
        f"Projection: CC12M, {p.urls:,} URLs ({shards(p.urls):,} shards of 10,000), "
        f"{p.images:,.0f} images at this corpus's success rate, on {c.nodes} nodes of "
        f"{c.gpus_per_node} H100 and {c.cores_per_node} cores ({c.node_gbps:g} Gbit/s each)"
    )
    yield "GPU figures (the LLM's published, the detector's measured on a lent H200):"
    for source in SOURCES.values():
        yield f"  - {source}"
    yield ""
    yield "| stage | resource | resource-hours | hours on the cluster, alone |"
    yield "| --- | --- | ---: | ---: |"
    capacity = {"cpu": c.cores, "gpu": c.gpus, "network": 1}
    for load in p.loads:
        hours = load.seconds / 3600
        yield (f"| {load.stage} | {load.resource} | {hours:,.1f} "
               f"| {hours / capacity[load.resource]:.2f} |")  # fmt: skip
    yield ""
    for resource in ("cpu", "gpu", "network"):
        yield f"{resource:<8} {p.hours(resource):7.2f} h"
    stage = p.bottleneck_stage
    yield (f"=> {p.hours(p.bottleneck):.1f} h, bound by {p.bottleneck} ({stage.stage}); "
           f"{p.cores_per_gpu:.2f} CPU cores keep one GPU busy "
           f"({c.cores_per_node / c.gpus_per_node:.0f} per GPU on these nodes)")  # fmt: skip
    yield (
        f"negdata verify afterwards: {p.verify_core_s / 3600:,.0f} core-hours, "
        f"{p.verify_core_s / c.cores / 60:.0f} min on the cluster's cores"
    )


def result(run: BenchRun, projection: Projection) -> dict[str, Any]:
    large, small = by_stage(run, large=True), by_stage(run, large=False)
    return {
        "plan": vars(run.plan),
        "stages": [
            {
                "stage": r.stage,
                "shard": r.shard,
                "urls": r.urls,
                "images": r.images,
                "wall_s": round(r.measured.wall_s, 3),
                "cpu_s": round(r.measured.cpu_s, 3),
                "largest_rss_mib": round(r.measured.largest_rss_mib, 1),
                "tree_rss_mib": round(r.measured.tree_rss_mib, 1),
                "written_bytes": r.measured.written_bytes,
                "files": len(r.measured.written),
                "server_cpu_s": round(r.server_cpu_s, 3),
                "cut_off": r.cut_off,
            }
            for r in run.stages
        ],
        "large": {name: vars(f) for name, f in large.items()},
        "small": {name: vars(f) for name, f in small.items()},
        "run_end": {
            name: {
                "wall_s": round(m.wall_s, 3),
                "cpu_s": round(m.cpu_s, 3),
                "tree_rss_mib": round(m.tree_rss_mib, 1),
            }
            for name, m in run.run_end.items()
        },
        "server_cpu_s": run.server_cpu_s,
        "original_bytes": run.original_bytes,
        "projection": {
            "hours": {r: round(projection.hours(r), 3) for r in ("cpu", "gpu", "network")},
            "bottleneck": projection.bottleneck,
            "bottleneck_stage": projection.bottleneck_stage.stage,
            "cores_per_gpu": round(projection.cores_per_gpu, 3),
        },
    }
