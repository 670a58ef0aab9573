"""What an export reads from a run folder: its published shards, their records and images."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pyarrow.parquet as pq

from negdata.publish import layout
from negdata.records import R
from negdata.shards import Location, is_remote, shard_name, shards_with_stats
from negdata.wds import read_tar

log = logging.getLogger(__name__)


class RunError(ValueError):
    """A run folder that cannot be exported: missing, or with no shard published."""


def published_shards(run: Location) -> list[int]:
    """The shards whose publish stage has finished (``publish/NNNNN_stats.json``); an error when
    there is no run or no such shard, a warning for ingested shards not published yet."""
    if not run.is_dir():
        raise RunError(f"{run}: no such run folder (give the run's output_dir)")
    published = shards_with_stats(run / layout.MARKERS)
    if not published:
        raise RunError(
            f"{run}: no shard has finished the publish stage "
            f"(no {layout.MARKERS}/NNNNN_stats.json): run the pipeline to the end first"
        )
    pending = sorted(set(shards_with_stats(run / "shards")) - set(published))
    if pending:
        log.warning(
            "%s: %d ingested shards are not published yet (first %s); exporting the %d published",
            run,
            len(pending),
            shard_name(pending[0]),
            len(published),
        )
    return published


def shard_records(stage_dir: Location, shard: int, model: type[R]) -> list[tuple[R, str | None]]:
    """The shard's records of ``model`` with each one's ``split`` (None where records carry
    none), from ``{shard}.parquet`` in the stage folder or in a per-split folder below it."""
    found: list[tuple[R, str | None]] = []
    paths: list[Location] = list(stage_dir.rglob(f"{shard_name(shard)}.parquet"))
    for path in sorted(paths, key=str):
        table = (
            pq.read_table(path.path, filesystem=path.fs) if is_remote(path) else pq.read_table(path)
        )
        for row in table.to_pylist():
            fields = {k: v for k, v in row.items() if k in model.model_fields}
            found.append((model.model_validate(fields), row.get("split")))
    return found


def shard_images(run: Location, shard: int, keys: set[str]) -> Iterator[tuple[str, bytes]]:
    """(image key, JPEG bytes) of the ingested shard's samples among ``keys``, in tar order."""
    for sample in read_tar(run / "shards" / f"{shard_name(shard)}.tar"):
        if sample["__key__"] in keys:
            yield sample["__key__"], sample["jpg"]
