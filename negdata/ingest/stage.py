"""The ingest stage: one shard of source rows -> img2dataset-layout tar, parquet and stats."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tqdm import tqdm

from negdata.config import Config
from negdata.ingest.fetch import FetchError, is_web_url, read_local
from negdata.ingest.http import Fetcher, FetchOptions
from negdata.ingest.images import Encoded, ImageError, ImageOptions, reencode
from negdata.ingest.sources import SourceRow, shard_rows
from negdata.records import IngestRow, write_parquet
from negdata.shards import sample_key, shard_name, write_stats
from negdata.wds import Sample, write_tar

log = logging.getLogger(__name__)

STAGE = "shards"
Outcome = Encoded | FetchError


def decode_workers(cfg: Config, rows: int) -> int:
    """``ingest.workers`` decode processes, or one per core; never more than there are rows."""
    return max(1, min(cfg.ingest.workers or os.cpu_count() or 1, rows))


def _decode(data: bytes, options: ImageOptions) -> Outcome:
    """Runs in a worker process: an image error is a value, so the pool never sees it raised."""
    try:
        return reencode(data, options)
    except ImageError as exc:
        return FetchError(exc.reason, str(exc))


async def _fetch(url: str, fetcher: Fetcher, cfg: Config) -> bytes:
    """Web URLs through the guarded fetcher; local files (when allowed) from disk."""
    if is_web_url(url):
        return await fetcher.get(url)
    return await asyncio.to_thread(read_local, url, allow_files=cfg.ingest.allow_file_urls)


async def _fetch_and_decode(
    rows: list[SourceRow], cfg: Config, pool: ProcessPoolExecutor, workers: int, desc: str
) -> list[Outcome]:
    """Fetch every row (network concurrency from ``ingest.concurrency``) and decode it in the
    process pool as soon as it arrives. A bound on rows between the two keeps memory flat."""
    loop = asyncio.get_running_loop()
    options = ImageOptions.from_config(cfg.ingest)
    holding = asyncio.Semaphore(cfg.ingest.concurrency + 2 * workers)

    async def one(row: SourceRow, fetcher: Fetcher) -> Outcome:
        if row.error is not None:  # bad at the source: counted, never fetched
            return FetchError(row.error, "rejected at the source")
        if len(row.caption) < cfg.ingest.min_caption_chars:
            return FetchError("empty_caption", "the caption is empty")
        async with holding:
            try:
                data = row.data if row.data is not None else await _fetch(row.url, fetcher, cfg)
            except FetchError as exc:
                return exc
            return await loop.run_in_executor(pool, _decode, data, options)

    async with Fetcher(FetchOptions.from_config(cfg.ingest)) as fetcher:
        tasks = [asyncio.ensure_future(one(row, fetcher)) for row in rows]
        for done in tqdm(asyncio.as_completed(tasks), total=len(tasks), desc=desc):
            await done
        return [task.result() for task in tasks]


def run_ingest(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    """Fetch and re-encode one shard's rows; failed rows are recorded with their reason."""
    out = cfg.run.output_dir / STAGE
    started = time.monotonic()
    rows = shard_rows(cfg.input, shard)
    # Worker processes are spawned, not forked: the parent runs threads (Prefect, the LLM pool).
    context = multiprocessing.get_context("spawn")
    workers = decode_workers(cfg, len(rows))
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        results = asyncio.run(
            _fetch_and_decode(rows, cfg, pool, workers, f"ingest {shard_name(shard)}")
        )
    records: list[IngestRow] = []
    samples: list[Sample] = []
    for index, (row, result) in enumerate(zip(rows, results, strict=True)):
        key = sample_key(shard, index)
        if isinstance(result, FetchError):
            records.append(
                IngestRow(
                    key=key,
                    url=row.url,
                    caption=row.caption,
                    status="failed",
                    error_message=f"{result.reason}: {result.detail}",
                )
            )
            continue
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
        records.append(record)
        samples.append(
            {"__key__": key, "jpg": result.jpeg, "txt": row.caption, "json": record.model_dump()}
        )
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
    return stats


def shard_tar(output_dir: Path, shard: int) -> Path:
    return output_dir / STAGE / f"{shard_name(shard)}.tar"
