"""The detect stage: one ingested shard -> evidence/{s}.parquet (boxes, max score per label)
and evidence/{s}_rejects.parquet (images no pixel source could decode, with the reason)."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from negdata.config import (
    DetectConfig,
)
from negdata.detect.decode import RawSample, decode_workers_default
from negdata.detect.detectors import Detected, batch_size, build_detectors, detect_batches
from negdata.detect.devices import detect_devices, device_fleet
from negdata.detect.embeddings import EmbeddingSink, embedding_path, embedding_sink
from negdata.detect.encoders import build_encoder
from negdata.progress import Progress
from negdata.records import Evidence, Reject, count_by, parquet_sink, write_parquet
from negdata.shards import Location, read_stats, shard_name, write_stats
from negdata.wds import read_tar

log = logging.getLogger(__name__)

STAGE = "evidence"
READ_AHEAD = 4  # batches read from the shard ahead of decoding


def shard_batches(tar: Location, size: int) -> Iterator[list[RawSample]]:
    """The ingested shard ``tar`` as batches of ``size`` samples, in its order."""
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


@contextmanager
def _embeddings(
    out: Location, shard: int, encoder: tuple[str, int] | None
) -> Iterator[EmbeddingSink | None]:
    """With an encoder, the shard's embeddings file, published with its evidence."""
    if encoder is None:
        yield None
        return
    with embedding_sink(embedding_path(out, shard), encoder[1], encoder[0]) as sink:
        yield sink


def run_detect(
    cfg: DetectConfig, output_dir: Location, shard: int, config_hash: str
) -> dict[str, Any]:
    started = time.monotonic()
    tar = output_dir / "shards" / f"{shard_name(shard)}.tar"
    images = (read_stats(output_dir / "shards", shard) or {}).get("successes", 0)
    workers = cfg.decode_workers or decode_workers_default()
    devices = detect_devices(cfg)
    stream: Iterator[Detected]
    encoder: tuple[str, int] | None  # its name and dim
    if len(devices) == 1:
        detectors = build_detectors(cfg, devices[0])
        loaded = build_encoder(cfg, devices[0])
        names = [det.name for det in detectors]
        encoder = None if loaded is None else (loaded.name, loaded.dim)
        batches = _read_ahead(shard_batches(tar, batch_size(detectors)), READ_AHEAD)
        stream = detect_batches(detectors, batches, workers, loaded)
    else:
        fleet = device_fleet(cfg, devices, workers)
        names, encoder = fleet.names, fleet.encoder
        stream = fleet.detect(shard_batches(tar, fleet.batch))  # its feeder thread reads the shard
    out = output_dir / STAGE
    boxes = uncovered = 0
    rejects: list[Reject] = []  # images that would not decode: few, and each one is reported
    with (
        parquet_sink(out / f"{shard_name(shard)}.parquet", Evidence) as evidence,
        _embeddings(out, shard, encoder) as embeddings,
        Progress(images, f"detect {shard_name(shard)}") as bar,
    ):
        for batch in stream:
            evidence.add(batch.evidence)
            if embeddings is not None and batch.embeddings is not None:
                embeddings.add([e.key for e in batch.evidence], batch.embeddings)
            rejects += batch.rejects
            boxes += sum(len(e.boxes) for e in batch.evidence)
            # Images no source says anything of (a label oracle that does not list them):
            # nothing in them can be verified, so planning drops them, counted there too.
            uncovered += sum(1 for e in batch.evidence if not e.scores)
            bar.update(len(batch.evidence) + len(batch.rejects))
    write_parquet(out / f"{shard_name(shard)}_rejects.parquet", Reject, rejects)
    stats = {
        "count": evidence.rows,
        "boxes": boxes,
        "uncovered": uncovered,
        "rejected": count_by(rejects),
        "sources": names,
        "encoder": None if encoder is None else {"name": encoder[0], "dim": encoder[1]},
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("detect shard %s: %d images", shard_name(shard), evidence.rows)
    if rejects:
        log.warning(
            "detect shard %s: %d rejected %s", shard_name(shard), len(rejects), stats["rejected"]
        )
    return stats
