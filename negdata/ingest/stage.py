"""The ingest stage: one shard of source rows -> img2dataset-layout tar, parquet and stats."""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from negdata.config import Config
from negdata.ingest.fetch import FetchError, fetch
from negdata.ingest.images import Encoded, ImageError, reencode
from negdata.ingest.sources import SourceRow, shard_rows
from negdata.records import IngestRow, write_parquet
from negdata.shards import sample_key, shard_name, write_stats
from negdata.wds import Sample, write_tar

log = logging.getLogger(__name__)

STAGE = "shards"


def _process(row: SourceRow, client: httpx.Client, cfg: Config) -> Encoded | FetchError:
    if len(row.caption) < cfg.ingest.min_caption_chars:
        return FetchError("empty_caption", "the caption is empty")
    try:
        data = fetch(row.url, client, allow_files=cfg.ingest.allow_file_urls)
        encoded = reencode(
            data, longest_side=cfg.ingest.image_size, quality=cfg.ingest.jpeg_quality
        )
    except FetchError as exc:
        return exc
    except ImageError as exc:
        return FetchError(exc.reason, str(exc))
    return encoded


def run_ingest(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    """Fetch and re-encode one shard's rows; failed rows are recorded with their reason."""
    out = cfg.run.output_dir / STAGE
    started = time.monotonic()
    rows = shard_rows(cfg.input, shard)
    with (
        httpx.Client(timeout=cfg.ingest.timeout_s) as client,
        ThreadPoolExecutor(cfg.ingest.workers) as pool,
    ):
        results = list(pool.map(lambda row: _process(row, client, cfg), rows))
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
            sha256=hashlib.sha256(result.jpeg).hexdigest(),
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
