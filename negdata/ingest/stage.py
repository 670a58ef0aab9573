"""The ingest stage: one shard of source rows -> img2dataset-layout tar, parquet and stats."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from negdata.config import Config
from negdata.ingest.fetch import FetchError, LocalFiles, is_web_url, read_local
from negdata.ingest.http import Fetcher
from negdata.ingest.images import Encoded, ImageError, ImageOptions, decode_outcome
from negdata.ingest.sources import SourceRow, shard_rows
from negdata.progress import Progress
from negdata.records import IngestRow, read_parquet, write_parquet
from negdata.shards import Location, read_stats, sample_key, shard_name, write_stats
from negdata.wds import Sample, read_tar, write_tar
from negdata.workers import pool_for

log = logging.getLogger(__name__)

STAGE = "shards"
Outcome = Encoded | FetchError
# Failures worth fetching again later: the server or the network, not the content.
RETRYABLE = frozenset({"timeout", "connection_error", "empty_body"})
RETRYABLE_STATUS = re.compile(r"HTTP (429|5\d\d)\b")


def decode_workers(cfg: Config) -> int:
    """``ingest.workers`` decode processes, or one per core (the pool starts them as work
    arrives: a shard of two rows starts at most two)."""
    return cfg.ingest.workers or os.cpu_count() or 1


async def _fetch(url: str, fetcher: Fetcher, local: LocalFiles) -> bytes:
    """Web URLs through the guarded fetcher; local files (when allowed) from disk."""
    if is_web_url(url):
        return await fetcher.get(url)
    return await asyncio.to_thread(read_local, url, local)


async def _fetch_and_decode(
    rows: list[SourceRow], cfg: Config, pool: ProcessPoolExecutor, workers: int, desc: str
) -> list[Outcome]:
    """Fetch every row (network concurrency from ``ingest.concurrency``) and decode it in the
    process pool as soon as it arrives. A bound on rows between the two keeps memory flat."""
    loop = asyncio.get_running_loop()
    options = ImageOptions.from_config(cfg.ingest)
    holding = asyncio.Semaphore(cfg.ingest.concurrency + 2 * workers)
    local = LocalFiles.from_config(cfg)

    async def one(row: SourceRow, fetcher: Fetcher) -> Outcome:
        if row.error is not None:  # bad at the source: counted, never fetched
            return FetchError(row.error, row.detail)
        if len(row.caption) < cfg.ingest.min_caption_chars:
            return FetchError("empty_caption", "the caption is empty")
        async with holding:
            try:
                data = row.data if row.data is not None else await _fetch(row.url, fetcher, local)
            except FetchError as exc:
                return exc
            decoded = await loop.run_in_executor(pool, decode_outcome, data, options)
        if isinstance(decoded, ImageError):
            return FetchError(decoded.reason, decoded.detail)
        return decoded

    async with Fetcher(cfg.ingest) as fetcher:
        tasks = [asyncio.ensure_future(one(row, fetcher)) for row in rows]
        with Progress(len(tasks), desc) as bar:
            for done in asyncio.as_completed(tasks):
                await done
                bar.update()
        return [task.result() for task in tasks]


def _fetch_rows(cfg: Config, rows: list[SourceRow], desc: str) -> list[Outcome]:
    """Fetch and decode ``rows`` in the process's worker pool (``negdata.workers``)."""
    workers = decode_workers(cfg)
    with pool_for(workers, "ingest.workers") as pool:
        return asyncio.run(_fetch_and_decode(rows, cfg, pool, workers, desc))


def _failed(key: str, row: SourceRow, reason: str, detail: str) -> IngestRow:
    return IngestRow(
        key=key,
        url=row.url,
        caption=row.caption,
        status="failed",
        error_message=f"{reason}: {detail}",
    )


def _sample(key: str, row: SourceRow, result: Encoded) -> tuple[IngestRow, Sample]:
    record = IngestRow(
        key=key,
        url=row.url,
        caption=row.caption,
        status="success",
        width=result.width,
        height=result.height,
        original_width=result.original_width,
        original_height=result.original_height,
        sha256=result.sha256,  # of the original bytes, as img2dataset records it
    )
    return record, {
        "__key__": key,
        "jpg": result.jpeg,
        "txt": row.caption,
        "json": record.model_dump(),
    }


def _publish(
    cfg: Config, shard: int, entries: list[tuple[IngestRow, Sample | None]], config_hash: str,
    started: float,
) -> dict[str, Any]:  # fmt: skip
    """Write the shard (tar, parquet, then the done marker); with ``ingest.dedup`` a repeated
    original image (same sha256) is kept once, the later rows failing as ``duplicate_image``."""
    out = cfg.run.output_dir / STAGE
    records: list[IngestRow] = []
    samples: list[Sample] = []
    first_of: dict[str, str] = {}
    for record, sample in entries:
        if sample is not None and cfg.ingest.dedup and record.sha256 in first_of:
            detail = f"same image as {first_of[record.sha256]}"
            record = record.model_copy(
                update={"status": "failed", "error_message": f"duplicate_image: {detail}"}
            )
            sample = None
        if sample is not None and record.sha256 is not None:
            first_of.setdefault(record.sha256, record.key)
        records.append(record)
        if sample is not None:
            samples.append(sample)
    write_tar(out / f"{shard_name(shard)}.tar", samples)
    write_parquet(out / f"{shard_name(shard)}.parquet", IngestRow, records)
    failures = Counter(
        (r.error_message or "").split(":", 1)[0] for r in records if r.status == "failed"
    )
    stats = {
        "count": len(records),
        "successes": len(samples),
        "failed": len(records) - len(samples),
        "failures_by_reason": dict(sorted(failures.items())),
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("ingest shard %s: %d/%d images", shard_name(shard), len(samples), len(records))
    if records and not samples:
        reasons = ", ".join(f"{n} {reason}" for reason, n in failures.most_common(3))
        log.warning(
            "ingest shard %s: no usable row in %s (%s): check input.path and input.format",
            shard_name(shard), cfg.input.path, reasons,
        )  # fmt: skip
    return stats


def _entry(key: str, row: SourceRow, result: Outcome) -> tuple[IngestRow, Sample | None]:
    if isinstance(result, FetchError):
        return _failed(key, row, result.reason, result.detail), None
    return _sample(key, row, result)


def run_ingest(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    """Fetch and re-encode one shard's rows; failed rows are recorded with their reason."""
    started = time.monotonic()
    rows = shard_rows(cfg.input, shard)
    results = _fetch_rows(cfg, rows, f"ingest {shard_name(shard)}")
    entries = [
        _entry(sample_key(shard, i), row, result)
        for i, (row, result) in enumerate(zip(rows, results, strict=True))
    ]
    return _publish(cfg, shard, entries, config_hash, started)


def retry_failed(
    cfg: Config, shard: int, config_hash: str, on_recovered: Callable[[], None]
) -> dict[str, Any]:
    """Fetch again only the rows of a finished shard that failed for a transient reason
    (``RETRYABLE``), and merge the ones that now succeed into the shard, in key order.
    ``on_recovered`` runs before the shard is rewritten, when a row came back: the later
    stages forget the shard first, so a crash in between cannot leave them done on old rows."""
    started = time.monotonic()
    out = cfg.run.output_dir / STAGE
    rows = shard_rows(cfg.input, shard)
    previous = read_parquet(out / f"{shard_name(shard)}.parquet", IngestRow)
    if len(previous) != len(rows):
        raise ValueError(
            f"shard {shard_name(shard)} has {len(previous)} rows on disk but the input gives "
            f"{len(rows)}: rerun ingest for it instead of retrying"
        )
    todo = [
        i
        for i, record in enumerate(previous)
        if record.status == "failed" and _retryable(record.error_message or "")
    ]
    if not todo:  # nothing to fetch again: the shard stays exactly as it is
        return {**(read_stats(out, shard) or {}), "retried": 0, "recovered": 0}
    kept = {s["__key__"]: s for s in read_tar(out / f"{shard_name(shard)}.tar")}
    fresh = dict(
        zip(
            todo,
            _fetch_rows(cfg, [rows[i] for i in todo], f"retry {shard_name(shard)}"),
            strict=True,
        )
    )
    entries = [
        _entry(record.key, rows[i], fresh[i]) if i in fresh else (record, kept.get(record.key))
        for i, record in enumerate(previous)
    ]
    recovered = sum(1 for i in todo if entries[i][1] is not None)
    if recovered:
        on_recovered()
    stats = _publish(cfg, shard, entries, config_hash, started)
    return {**stats, "retried": len(todo), "recovered": recovered}


def _retryable(error_message: str) -> bool:
    reason, _, detail = error_message.partition(":")
    return reason in RETRYABLE or (
        reason == "http_error" and RETRYABLE_STATUS.search(detail) is not None
    )


def shard_tar(output_dir: Location, shard: int) -> Location:
    return output_dir / STAGE / f"{shard_name(shard)}.tar"
