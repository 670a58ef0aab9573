"""Runs that read from and write to an object store: a real S3-compatible server (moto in server
mode, the ``s3_options`` fixture) on loopback, reached through s3fs as any fsspec URL would be."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import s3fs
from upath import UPath

from negdata.config import Config
from negdata.pipeline import pending, run_stage
from negdata.shards import atomic_path, write_json_atomic
from negdata.stages import STAGES, stage_done, stage_hash

INGEST = STAGES[0]


def _config(
    tmp_path: Path, crawl: str, out: str, storage_options: dict[str, Any] | None = None
) -> Config:
    options = storage_options or {}
    return Config.model_validate(
        {
            "run": {"output_dir": out, "storage_options": options},
            "input": {
                "path": f"{crawl}/{{00000..00001}}.tar",
                "format": "webdataset",
                "samples_per_shard": 4,
                "storage_options": options,
            },
            "ingest": {"image_size": 64, "min_image_size": 64, "workers": 1},  # 100x80 photos
            "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
        }
    )


def _files(root: UPath) -> dict[str, bytes]:
    """Every file under ``root`` by relative path; the stats without their timing and config
    hash (which names the input path, local in one run and s3:// in the other)."""
    files = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name.endswith("_stats.json"):
            stats = json.loads(data)
            stats.pop("duration_s")
            stats.pop("config_hash")
            data = json.dumps(stats, sort_keys=True).encode()
        files[path.relative_to(root).as_posix()] = data
    return files


def test_a_write_that_fails_leaves_no_object(bucket: str, s3_options: dict[str, Any]) -> None:
    final = UPath(f"s3://{bucket}/run/shards/00000.tar", **s3_options)

    with pytest.raises(RuntimeError, match="killed"), atomic_path(final) as tmp:
        tmp.write_bytes(b"half of a shard")
        raise RuntimeError("killed while writing")

    assert not final.exists()
    assert s3fs.S3FileSystem(**s3_options).find(bucket) == []  # no temporary object either


def test_a_written_object_is_whole_and_replaces_the_old_one(
    bucket: str, s3_options: dict[str, Any]
) -> None:
    final = UPath(f"s3://{bucket}/run/stats.json", **s3_options)

    write_json_atomic(final, {"shards": [0]})
    write_json_atomic(final, {"shards": [0, 1]})

    assert json.loads(final.read_text()) == {"shards": [0, 1]}
    assert s3fs.S3FileSystem(**s3_options).find(bucket) == [f"{bucket}/run/stats.json"]


def test_ingest_from_and_to_s3_matches_a_local_run_and_resumes(
    tmp_path: Path, bucket: str, s3_options: dict[str, Any], webdataset_crawl: Path
) -> None:
    fs = s3fs.S3FileSystem(**s3_options)
    fs.put(str(webdataset_crawl), f"{bucket}/crawl", recursive=True)
    local = _config(tmp_path, str(webdataset_crawl), str(tmp_path / "out"))
    remote = _config(tmp_path, f"s3://{bucket}/crawl", f"s3://{bucket}/out", s3_options)

    local_stats = [run_stage(local, INGEST, shard) for shard in (0, 1)]
    remote_stats = [run_stage(remote, INGEST, shard) for shard in (0, 1)]

    assert [s["successes"] for s in remote_stats] == [4, 1]
    assert [s["successes"] for s in local_stats] == [4, 1]
    out = remote.run.output_dir
    assert out.protocol == "s3"
    assert _files(out) == _files(local.run.output_dir)  # the same bytes, object for object
    assert sorted(fs.ls(f"{bucket}/out/shards")) == [
        f"{bucket}/out/shards/{name}"
        for name in (
            "00000.parquet", "00000.tar", "00000_stats.json",
            "00001.parquet", "00001.tar", "00001_stats.json",
        )
    ]  # fmt: skip

    assert pending(remote, [0, 1])[0][0].name == "detect"  # ingest's markers are read back
    assert run_stage(remote, INGEST, 1)["skipped"] is True

    fs.rm(f"{bucket}/out/shards/00001_stats.json")  # as if the run died before the marker
    fs.rm(f"{bucket}/out/shards/00001.tar")
    assert (INGEST, 1) in pending(remote, [0, 1])
    assert run_stage(remote, INGEST, 1)["skipped"] is False
    assert _files(out) == _files(local.run.output_dir)


def test_markers_another_worker_writes_or_removes_are_seen(
    tmp_path: Path, bucket: str, s3_options: dict[str, Any], webdataset_crawl: Path
) -> None:
    remote = _config(tmp_path, str(webdataset_crawl), f"s3://{bucket}/out", s3_options)
    run_stage(remote, INGEST, 0)
    shards = remote.run.output_dir / "shards"
    assert [p.name for p in shards.glob("*_stats.json")] == ["00000_stats.json"]  # a listing
    marker = json.dumps({"config_hash": stage_hash(remote, INGEST)}).encode()

    other = s3fs.S3FileSystem(**s3_options, skip_instance_cache=True)  # another worker's
    other.pipe(f"{bucket}/out/shards/00001_stats.json", marker)
    other.rm(f"{bucket}/out/shards/00000_stats.json")

    assert [p.name for p in shards.glob("*_stats.json")] == ["00001_stats.json"]
    assert pending(remote, [0, 1])[0] == (INGEST, 0)
    assert stage_done(remote, INGEST, 1)
