"""CC12M on a GPU cluster, projected from the CPU costs measured here and GPU figures measured on a
lent H200 or published elsewhere (each named with its source where it is printed).

Every stage's work is put on the resource it needs: CPU seconds (measured per URL for ingest,
per ingested image for the others; detection adds the decoding and letterboxing a real
detector's stage does, which the label oracle does not), GPU seconds (the LLM's tokens at an
8B model's throughput on one H100, the detector's images at the rate YOLO11x ran on an H200)
and network
(the originals' bytes). Shards in flight at different stages overlap, so the run takes as long
as its busiest resource; the stage that loads it most is the bottleneck.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CC12M_URLS = 10_968_539  # CC12M's rows (REFERENCE.md section 3: the 2021 crawl's samples)
CC12M_SHARD = 10_000
SOURCES = {
    "llm": "vLLM, 8B model on one H100: ~12k tokens/s in all (../shared/REFERENCE.md section 3; "
    "docs/benchmarks.md, LLM stages)",
    "detect": "YOLO11x (configs/cc12m.yaml's detector) in fp16 PyTorch at 640 px, batch 64, "
    "with NMS: 626 images/s on an H200, the model alone, measured 2026-12-04 "
    "(bench/detect_gpu.sh WEIGHTS=yolo11x.yaml; an H200 computes as an H100 SXM; docs/"
    "benchmarks.md, Detect). TensorRT would be faster: YOLOv8x on an A100, 3.5 ms per image.",
    "decode": "detect's decoding and letterboxing: about 2 ms of CPU per image "
    "(docs/benchmarks.md, Detect)",
}


@dataclass(frozen=True)
class Cluster:
    nodes: int
    gpus_per_node: int
    cores_per_node: int
    node_gbps: float

    @property
    def gpus(self) -> int:
        return self.nodes * self.gpus_per_node

    @property
    def cores(self) -> int:
        return self.nodes * self.cores_per_node


@dataclass(frozen=True)
class GpuFigures:
    llm_tokens_per_s: float  # per GPU, prompt and completion together
    detect_images_per_s: float  # per GPU
    decode_cpu_s: float  # per image, a real detector's CPU work the oracle does not do


@dataclass(frozen=True)
class Measured:
    """Per-unit costs measured on the bench's 10,000-URL shards."""

    cpu_s: dict[str, float]  # stage -> CPU seconds per URL (ingest) or per ingested image
    verify_cpu_s: float  # per published image, one worker
    tokens_per_image: float  # prompt + completion, over plan and compose
    success: float  # share of URLs ingested
    original_bytes: float  # per ingested image, as fetched


@dataclass(frozen=True)
class Load:
    stage: str
    resource: str  # cpu, gpu, network
    seconds: float  # resource-seconds over the whole corpus


@dataclass(frozen=True)
class Projection:
    urls: int
    images: float
    loads: list[Load]
    cluster: Cluster
    verify_core_s: float

    def hours(self, resource: str) -> float:
        capacity = {
            "cpu": self.cluster.cores,
            "gpu": self.cluster.gpus,
            "network": 1.0,  # network loads are already seconds on the whole cluster's links
        }[resource]
        return (
            sum(load.seconds for load in self.loads if load.resource == resource) / capacity / 3600
        )

    @property
    def bottleneck(self) -> str:
        return max(("cpu", "gpu", "network"), key=self.hours)

    @property
    def bottleneck_stage(self) -> Load:
        return max(
            (ld for ld in self.loads if ld.resource == self.bottleneck), key=lambda ld: ld.seconds
        )

    @property
    def cores_per_gpu(self) -> float:
        """CPU cores that keep one GPU busy: CPU seconds over GPU seconds."""
        cpu = sum(ld.seconds for ld in self.loads if ld.resource == "cpu")
        gpu = sum(ld.seconds for ld in self.loads if ld.resource == "gpu")
        return cpu / gpu


def project(measured: Measured, gpu: GpuFigures, cluster: Cluster, urls: int) -> Projection:
    images = urls * measured.success
    loads = [Load("ingest", "cpu", urls * measured.cpu_s["ingest"])]
    loads += [
        Load(stage, "cpu", images * cost)
        for stage, cost in measured.cpu_s.items()
        if stage != "ingest"
    ]
    loads += [
        Load("detect (decoding)", "cpu", images * gpu.decode_cpu_s),
        Load("detect (model)", "gpu", images / gpu.detect_images_per_s),
        Load("plan + compose (LLM)", "gpu",
             images * measured.tokens_per_image / gpu.llm_tokens_per_s),
        Load("ingest (fetch)", "network",
             images * measured.original_bytes * 8 / (cluster.nodes * cluster.node_gbps * 1e9)),
    ]  # fmt: skip
    return Projection(urls, images, loads, cluster, images * measured.verify_cpu_s)


def shards(urls: int) -> int:
    return math.ceil(urls / CC12M_SHARD)
