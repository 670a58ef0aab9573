"""The detect stage: one ingested shard -> evidence/{s}.parquet (boxes, max score per label)."""

from __future__ import annotations

import io
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from PIL import Image

from negdata.config import (
    ChexpertSource,
    CocoSource,
    DetectConfig,
    LabelsSource,
    OpenVocabSource,
    SourceConfig,
    TableSource,
)
from negdata.detect.base import Detector, ImageItem, combine
from negdata.detect.vocab import vocabulary
from negdata.progress import Progress
from negdata.records import Evidence, write_parquet
from negdata.shards import Location, read_stats, shard_name, write_stats
from negdata.wds import read_tar

log = logging.getLogger(__name__)

STAGE = "evidence"

_loaded: dict[str, list[Detector]] = {}
_loading = threading.Lock()  # shards detected at once in threads share the first one's load


def build_detectors(cfg: DetectConfig) -> list[Detector]:
    """Load every configured source once per process (a model load is the expensive part), even
    when several shards start detecting at once."""
    cache_key = cfg.model_dump_json()
    with _loading:
        if cache_key not in _loaded:
            _loaded[cache_key] = [
                _load(source, index, cfg) for index, source in enumerate(cfg.sources)
            ]
        return _loaded[cache_key]


def _load(source: SourceConfig, index: int, cfg: DetectConfig) -> Detector:
    if isinstance(source, LabelsSource):
        from negdata.detect.labels import LabelsDetector

        return LabelsDetector(source, frozenset(vocabulary(cfg.vocabulary)), index)
    if isinstance(source, CocoSource):
        from negdata.detect.oracles.coco import CocoDetector

        return CocoDetector(source, frozenset(vocabulary(cfg.vocabulary)), index)
    if isinstance(source, TableSource):
        from negdata.detect.oracles.table import TableDetector

        return TableDetector(source, frozenset(vocabulary(cfg.vocabulary)), index)
    if isinstance(source, OpenVocabSource):
        from negdata.detect.open_vocab import OpenVocabDetector

        return OpenVocabDetector(source, cfg.vocabulary, index)
    if isinstance(source, ChexpertSource):
        from negdata.detect.chexpert import ChexpertDetector

        return ChexpertDetector(source, cfg, index)
    from negdata.detect.yolo import YoloDetector

    return YoloDetector(source, index)


def detect_items(detectors: Sequence[Detector], items: Sequence[ImageItem]) -> list[Evidence]:
    per_source = [det.detect(items) for det in detectors]
    names = [det.name for det in detectors]
    return [
        combine(item.key, names, [dets[i] for dets in per_source]) for i, item in enumerate(items)
    ]


def run_detect(
    cfg: DetectConfig, output_dir: Location, shard: int, config_hash: str, batch: int = 16
) -> dict[str, Any]:
    started = time.monotonic()
    detectors = build_detectors(cfg)
    tar = output_dir / "shards" / f"{shard_name(shard)}.tar"
    images = (read_stats(output_dir / "shards", shard) or {}).get("successes", 0)
    evidence: list[Evidence] = []
    batch_items: list[ImageItem] = []
    with Progress(images, f"detect {shard_name(shard)}") as bar:
        for sample in read_tar(tar):
            meta = sample["json"]
            image = Image.open(io.BytesIO(sample["jpg"])).convert("RGB")
            batch_items.append(ImageItem(sample["__key__"], meta["url"], meta["caption"], image))
            if len(batch_items) == batch:
                evidence.extend(detect_items(detectors, batch_items))
                bar.update(len(batch_items))
                batch_items = []
        if batch_items:
            evidence.extend(detect_items(detectors, batch_items))
            bar.update(len(batch_items))
    out = output_dir / STAGE
    write_parquet(out / f"{shard_name(shard)}.parquet", Evidence, evidence)
    stats = {
        "count": len(evidence),
        "boxes": sum(len(e.boxes) for e in evidence),
        "sources": [det.name for det in detectors],
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("detect shard %s: %d images", shard_name(shard), len(evidence))
    return stats
