"""Input rows (url or file path, caption) from TSV, Parquet or CSV, split into shards."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pyarrow.parquet as pq

from negdata.config import InputConfig


@dataclass(frozen=True)
class SourceRow:
    url: str
    caption: str


def _read_delimited(path: Path, cfg: InputConfig, delimiter: str) -> list[SourceRow]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL)
        header = next(reader, None) if cfg.has_header or cfg.format == "csv" else None
        url_at, caption_at = 0, 1
        if header is not None:
            try:
                url_at, caption_at = header.index(cfg.url_column), header.index(cfg.caption_column)
            except ValueError:
                raise ValueError(
                    f"{path}: header {header} lacks input.url_column={cfg.url_column!r} or "
                    f"input.caption_column={cfg.caption_column!r}"
                ) from None
        rows = []
        for fields in reader:
            if not fields:
                continue
            url = fields[url_at] if url_at < len(fields) else ""
            caption = fields[caption_at] if caption_at < len(fields) else ""
            rows.append(SourceRow(url=url.strip(), caption=caption.strip()))
        return rows


def read_rows(cfg: InputConfig) -> list[SourceRow]:
    """Every row of the input, in order; row i belongs to shard i // samples_per_shard."""
    if not cfg.path.exists():
        raise FileNotFoundError(f"input.path does not exist: {cfg.path}")
    return _read_rows_cached(cfg, cfg.path.stat().st_mtime_ns)


@lru_cache(maxsize=2)
def _read_rows_cached(cfg: InputConfig, mtime_ns: int) -> list[SourceRow]:
    """Read once per process and file version: every shard of a run slices the same rows."""
    if cfg.format == "parquet":
        table = pq.read_table(cfg.path, columns=[cfg.url_column, cfg.caption_column])
        return [
            SourceRow(url=str(u or "").strip(), caption=str(c or "").strip())
            for u, c in zip(
                table.column(cfg.url_column).to_pylist(),
                table.column(cfg.caption_column).to_pylist(),
                strict=True,
            )
        ]
    return _read_delimited(cfg.path, cfg, "\t" if cfg.format == "tsv" else ",")


def shard_count(cfg: InputConfig) -> int:
    rows = len(read_rows(cfg))
    return (rows + cfg.samples_per_shard - 1) // cfg.samples_per_shard


def shard_rows(cfg: InputConfig, shard: int) -> list[SourceRow]:
    start = shard * cfg.samples_per_shard
    return read_rows(cfg)[start : start + cfg.samples_per_shard]
