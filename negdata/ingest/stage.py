"""The ingest stage: one shard of source rows -> img2dataset-layout tar, parquet and stats."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from negdata.config import Config
from negdata.ingest.fetch import FetchError, LocalFiles, is_web_url, read_local
from negdata.ingest.http import Fetcher
from negdata.ingest.images import Encoded, ImageError, ImageOptions, decode_outcome
from negdata.ingest.sources import SourceRow, shard_rows
from negdata.progress import Progress
from negdata.records import IngestRow, read_parquet, write_parquet
from negdata.shards import Location, read_stats, sample_key, shard_name, write_stats
from negdata.wds import Sample, read_tar, tar_writer
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


Consume = Callable[[int, Outcome], None]  # a row's index and its outcome, in row order


async def _fetch_and_decode(
    rows: list[SourceRow],
    cfg: Config,
    pool: ProcessPoolExecutor,
    workers: int,
    desc: str,
    consume: Consume,
) -> None:
    """Fetch every row (network concurrency from ``ingest.concurrency``), decode it in the
    process pool as soon as it arrives, and hand each outcome to ``consume`` in row order. Rows
    start at most twice the rows held at once ahead of the next one consumed, so memory is flat
    however long the shard, and one slow row does not hold the others back."""
    loop = asyncio.get_running_loop()
    options = ImageOptions.from_config(cfg.ingest)
    held = cfg.ingest.concurrency + 2 * workers
    holding = asyncio.Semaphore(held)
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
        started: deque[asyncio.Task[Outcome]] = deque()
        with Progress(len(rows), desc) as bar:
            for i in range(len(rows) + 2 * held):
                if i < len(rows):
                    started.append(asyncio.ensure_future(one(rows[i], fetcher)))
                if i >= 2 * held:  # the row that many rows back is the next one written
                    consume(i - 2 * held, await started.popleft())
                    bar.update()


def _fetch_rows(cfg: Config, rows: list[SourceRow], desc: str, consume: Consume) -> None:
    """Fetch and decode ``rows`` in the process's worker pool (``negdata.workers``)."""
    workers = decode_workers(cfg)
    with pool_for(workers, "ingest.workers") as pool:
        asyncio.run(_fetch_and_decode(rows, cfg, pool, workers, desc, consume))


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


@dataclass
class _Written:
    """A shard as ingest writes it: samples go to the tar as they come, records (small) stay
    for the Parquet. With ``ingest.dedup`` a repeated original image (same sha256) is kept
    once, the later rows failing as ``duplicate_image``."""

    write: Callable[[Sample], None]
    dedup: bool
    records: list[IngestRow] = field(default_factory=list)
    successes: int = 0
    first_of: dict[str, str] = field(default_factory=dict)

    def add(self, record: IngestRow, sample: Sample | None) -> None:
        if sample is not None and self.dedup and record.sha256 in self.first_of:
            detail = f"same image as {self.first_of[record.sha256]}"
            record = record.model_copy(
                update={"status": "failed", "error_message": f"duplicate_image: {detail}"}
            )
            sample = None
        if sample is not None and record.sha256 is not None:
            self.first_of.setdefault(record.sha256, record.key)
        self.records.append(record)
        if sample is not None:
            self.write(sample)
            self.successes += 1


def _write_shard(
    cfg: Config, shard: int, config_hash: str, started: float, fill: Callable[[_Written], None],
) -> dict[str, Any]:  # fmt: skip
    """Write the shard: ``fill`` adds its rows in key order, their images streaming to the tar;
    then the Parquet, then the done marker."""
    out = cfg.run.output_dir / STAGE
    with tar_writer(out / f"{shard_name(shard)}.tar") as write:
        written = _Written(write, cfg.ingest.dedup)
        fill(written)
    records = written.records
    write_parquet(out / f"{shard_name(shard)}.parquet", IngestRow, records)
    failures = Counter(
        (r.error_message or "").split(":", 1)[0] for r in records if r.status == "failed"
    )
    stats = {
        "count": len(records),
        "successes": written.successes,
        "failed": len(records) - written.successes,
        "failures_by_reason": dict(sorted(failures.items())),
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("ingest shard %s: %d/%d images", shard_name(shard), written.successes, len(records))
    if records and not written.successes:
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

    def fill(written: _Written) -> None:
        def consume(i: int, result: Outcome) -> None:
            written.add(*_entry(sample_key(shard, i), rows[i], result))

        _fetch_rows(cfg, rows, f"ingest {shard_name(shard)}", consume)

    return _write_shard(cfg, shard, config_hash, started, fill)


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
    fresh: dict[int, Outcome] = {}
    _fetch_rows(
        cfg,
        [rows[i] for i in todo],
        f"retry {shard_name(shard)}",
        lambda j, result: fresh.__setitem__(todo[j], result),
    )
    recovered = sum(not isinstance(fresh[i], FetchError) for i in todo)
    if recovered:
        on_recovered()

    def fill(written: _Written) -> None:
        kept = read_tar(out / f"{shard_name(shard)}.tar")  # the old tar, read as the new one grows
        for i, record in enumerate(previous):
            if i in fresh:
                written.add(*_entry(record.key, rows[i], fresh[i]))
            elif record.status == "success":
                sample = next(kept, None)
                if sample is None or sample["__key__"] != record.key:
                    raise ValueError(
                        f"shard {shard_name(shard)}'s tar does not hold {record.key} where its "
                        "Parquet says: rerun ingest for it instead of retrying"
                    )
                written.add(record, sample)
            else:
                written.add(record, None)

    stats = _write_shard(cfg, shard, config_hash, started, fill)
    return {**stats, "retried": len(todo), "recovered": recovered}


def _retryable(error_message: str) -> bool:
    reason, _, detail = error_message.partition(":")
    return reason in RETRYABLE or (
        reason == "http_error" and RETRYABLE_STATUS.search(detail) is not None
    )


def shard_tar(output_dir: Location, shard: int) -> Location:
    return output_dir / STAGE / f"{shard_name(shard)}.tar"
