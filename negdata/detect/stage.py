"""The detect stage: one ingested shard -> evidence/{s}.parquet (boxes, max score per label)
and evidence/{s}_rejects.parquet (images no pixel source could decode, with the reason)."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from negdata.config import (
    ChexpertSource,
    CocoSource,
    DetectConfig,
    LabelsSource,
    OpenVocabSource,
    SourceConfig,
    TableSource,
)
from negdata.detect.base import Detector, ImageItem, PixelDetector, combine
from negdata.detect.decode import DecodedBatch, RawSample, decode_workers_default, decoded_batches
from negdata.detect.devices import detect_devices, device_fleet, on_device
from negdata.detect.vocab import vocabulary
from negdata.detect.yolo import YoloDetector
from negdata.progress import Progress
from negdata.records import Evidence, Reject, count_by, write_parquet
from negdata.shards import Location, read_stats, shard_name, write_stats
from negdata.wds import read_tar

log = logging.getLogger(__name__)

STAGE = "evidence"
DEFAULT_BATCH = 16  # images per batch when no source has a batch size of its own
READ_AHEAD = 4  # batches read from the shard ahead of decoding

_loaded: dict[str, list[Detector]] = {}
_loading = threading.Lock()  # shards detected at once in threads share the first one's load


def build_detectors(cfg: DetectConfig, device: str = "auto") -> list[Detector]:
    """Load every configured source once per process (a model load is the expensive part), even
    when several shards start detecting at once; sources left to ``auto`` run on ``device``."""
    cache_key = f"{cfg.model_dump_json()}|{device}"
    with _loading:
        if cache_key not in _loaded:
            _loaded[cache_key] = [
                _load(on_device(source, device), index, cfg)
                for index, source in enumerate(cfg.sources)
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
    return YoloDetector(source, index)


def _batches(tar: Location, size: int) -> Iterator[list[RawSample]]:
    batch: list[RawSample] = []
    for sample in read_tar(tar):
        meta = sample["json"]
        batch.append(RawSample(sample["__key__"], meta["url"], meta["caption"], sample["jpg"]))
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _read_ahead(batches: Iterator[list[RawSample]], depth: int) -> Iterator[list[RawSample]]:
    """``batches`` read in a thread, at most ``depth`` ahead of the consumer, so reading the
    shard (from an object store too) overlaps decoding and inference."""
    ready: queue.Queue[tuple[list[RawSample] | None, BaseException | None]] = queue.Queue(depth)
    stop = threading.Event()

    def put(item: tuple[list[RawSample] | None, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.5)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        try:
            for batch in batches:
                if not put((batch, None)):
                    return
            put((None, None))
        except BaseException as exc:  # raised again in the consumer's thread
            put((None, exc))

    threading.Thread(target=read, name="detect-read", daemon=True).start()
    try:
        while True:
            batch, error = ready.get()
            if error is not None:
                raise error
            if batch is None:
                return
            yield batch
    finally:
        stop.set()


def _evidence(
    names: list[str], batch: DecodedBatch, per_source: list[list[Any]]
) -> tuple[list[Evidence], list[Reject]]:
    """The batch's evidence (a pixel source's detections are built here, off the thread that
    feeds the model) and its rejects."""
    detections = [[d() if callable(d) else d for d in dets] for dets in per_source]
    evidence = [
        combine(sample.key, names, [dets[i] for dets in detections])
        for i, sample in enumerate(batch.samples)
    ]
    rejects = [
        Reject(stage="detect", key=sample.key, reason=reason, detail=detail)
        for sample, reason, detail in batch.rejects
    ]
    return evidence, rejects


def detect_batches(
    detectors: Sequence[Detector], batches: Iterable[list[RawSample]], decode_workers: int
) -> Iterator[tuple[list[Evidence], list[Reject]]]:
    """Evidence and rejects per batch, in order. With a pixel source, the batches are decoded
    in ``decode_workers`` processes ahead of the model, and each batch's evidence is built in a
    thread while the model runs on the next: reading, decoding, inference and collecting
    overlap, each a bounded number of batches ahead. Sources that need no pixels see the items
    undecoded (``ImageItem.image`` decodes on first use)."""
    names = [det.name for det in detectors]
    sizes = tuple(sorted({det.imgsz for det in detectors if isinstance(det, PixelDetector)}))
    decoded: Iterable[DecodedBatch] = (
        decoded_batches(batches, sizes, decode_workers)
        if sizes
        else (DecodedBatch(samples=batch) for batch in batches)
    )
    pending: deque[Future[tuple[list[Evidence], list[Reject]]]] = deque()
    with ThreadPoolExecutor(1, thread_name_prefix="detect-collect") as collector:
        for batch in decoded:
            items = [ImageItem(s.key, s.url, s.caption, jpg=s.jpg) for s in batch.samples]
            per_source: list[list[Any]] = [
                det.detect_pixels(batch.pixels[det.imgsz], batch.shapes)
                if isinstance(det, PixelDetector)
                else det.detect(items)
                for det in detectors
            ]
            pending.append(collector.submit(_evidence, names, batch, per_source))
            if len(pending) > 2:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def batch_size(detectors: Sequence[Detector]) -> int:
    sizes = [det.batch for det in detectors if isinstance(det, PixelDetector)]
    return max(sizes, default=DEFAULT_BATCH)


def run_detect(
    cfg: DetectConfig, output_dir: Location, shard: int, config_hash: str
) -> dict[str, Any]:
    started = time.monotonic()
    tar = output_dir / "shards" / f"{shard_name(shard)}.tar"
    images = (read_stats(output_dir / "shards", shard) or {}).get("successes", 0)
    evidence: list[Evidence] = []
    rejects: list[Reject] = []
    workers = cfg.decode_workers or decode_workers_default()
    devices = detect_devices(cfg)
    stream: Iterator[tuple[list[Evidence], list[Reject]]]
    if len(devices) == 1:
        detectors = build_detectors(cfg, devices[0])
        names = [det.name for det in detectors]
        batches = _read_ahead(_batches(tar, batch_size(detectors)), READ_AHEAD)
        stream = detect_batches(detectors, batches, workers)
    else:
        fleet = device_fleet(cfg, devices, workers)
        names = fleet.names
        stream = fleet.detect(_batches(tar, fleet.batch))  # its feeder thread reads the shard
    with Progress(images, f"detect {shard_name(shard)}") as bar:
        for batch_evidence, batch_rejects in stream:
            evidence += batch_evidence
            rejects += batch_rejects
            bar.update(len(batch_evidence) + len(batch_rejects))
    out = output_dir / STAGE
    write_parquet(out / f"{shard_name(shard)}.parquet", Evidence, evidence)
    write_parquet(out / f"{shard_name(shard)}_rejects.parquet", Reject, rejects)
    stats = {
        "count": len(evidence),
        "boxes": sum(len(e.boxes) for e in evidence),
        # Images no source says anything of (a label oracle that does not list them): nothing
        # in them can be verified, so planning drops them, counted there too.
        "uncovered": sum(1 for e in evidence if not e.scores),
        "rejected": count_by(rejects),
        "sources": names,
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("detect shard %s: %d images", shard_name(shard), len(evidence))
    if rejects:
        log.warning(
            "detect shard %s: %d rejected %s", shard_name(shard), len(rejects), stats["rejected"]
        )
    return stats
