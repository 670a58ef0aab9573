"""The configured evidence sources, loaded once per process and device, and run over batches of
a shard: the part of detection that one device does, whichever process it runs in (the stage's
own, or a device process of ``negdata.detect.devices``)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from negdata.config import (
    ChexpertSource,
    CocoSource,
    DetectConfig,
    LabelsSource,
    OpenVocabSource,
    SourceConfig,
    TableSource,
)
from negdata.detect.base import Detector, ImageItem, PixelDetector, combine, on_device
from negdata.detect.decode import DecodedBatch, RawSample, decoded_batches
from negdata.detect.encoders import ImageEncoder, embed
from negdata.detect.vocab import vocabulary
from negdata.detect.yolo import YoloDetector
from negdata.records import Evidence, Reject

DEFAULT_BATCH = 16  # images per batch when no source has a batch size of its own

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


@dataclass
class Detected:
    """A batch's evidence and rejects, and with ``detect.encoder`` the embeddings of the images
    the evidence is of (in its order)."""

    evidence: list[Evidence]
    rejects: list[Reject]
    embeddings: np.ndarray | None = None


def _evidence(
    names: list[str],
    samples: list[RawSample],
    failed: list[tuple[RawSample, str, str]],
    per_source: list[list[Any]],
    embeddings: np.ndarray | None,
) -> Detected:
    """The evidence of a batch's ``samples`` (a pixel source's detections are built here, off
    the thread that feeds the model) and the rejects of those that ``failed`` to decode; an
    error if a source left an image out. It is given no pixels: they are the decode pool's
    again once the next batch is asked for."""
    detections = [[d() if callable(d) else d for d in dets] for dets in per_source]
    for name, dets in zip(names, detections, strict=True):
        if len(dets) != len(samples):  # the missing images' objects would read as absent
            raise RuntimeError(
                f"{name} gave {len(dets)} detections for a batch of {len(samples)} "
                "images: the shard's evidence would be incomplete"
            )
    evidence = [
        combine(sample.key, names, [dets[i] for dets in detections])
        for i, sample in enumerate(samples)
    ]
    rejects = [
        Reject(stage="detect", key=sample.key, reason=reason, detail=detail)
        for sample, reason, detail in failed
    ]
    return Detected(evidence, rejects, embeddings)


def detect_batches(
    detectors: Sequence[Detector],
    batches: Iterable[list[RawSample]],
    decode_workers: int,
    encoder: ImageEncoder | None = None,
) -> Iterator[Detected]:
    """Evidence and rejects per batch, in order. With a pixel source or an encoder, the batches
    are decoded in ``decode_workers`` processes ahead of the model, and each batch's evidence is
    built in a thread while the model runs on the next: reading, decoding, inference and
    collecting overlap, each a bounded number of batches ahead. Sources that need no pixels see
    the items undecoded (``ImageItem.image`` decodes on first use). The encoder embeds the
    pixels the batch was decoded to at its size, on the thread that feeds the models."""
    names = [det.name for det in detectors]
    sizes = {det.imgsz for det in detectors if isinstance(det, PixelDetector)}
    if encoder is not None:
        sizes.add(encoder.imgsz)
    decoded: Iterable[DecodedBatch] = (
        decoded_batches(batches, tuple(sorted(sizes)), decode_workers)
        if sizes
        else (DecodedBatch(samples=batch) for batch in batches)
    )
    pending: deque[Future[Detected]] = deque()
    with ThreadPoolExecutor(1, thread_name_prefix="detect-collect") as collector:
        for batch in decoded:
            items = [ImageItem(s.key, s.url, s.caption, jpg=s.jpg) for s in batch.samples]
            per_source: list[list[Any]] = [
                det.detect_pixels(batch.pixels[det.imgsz], batch.shapes)
                if isinstance(det, PixelDetector)
                else det.detect(items)
                for det in detectors
            ]
            embeddings = None if encoder is None else embed(encoder, batch.pixels[encoder.imgsz])
            pending.append(
                collector.submit(
                    _evidence, names, batch.samples, batch.rejects, per_source, embeddings
                )
            )
            if len(pending) > 2:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def batch_size(detectors: Sequence[Detector]) -> int:
    sizes = [det.batch for det in detectors if isinstance(det, PixelDetector)]
    return max(sizes, default=DEFAULT_BATCH)
