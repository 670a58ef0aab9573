"""Ingest: sources, fetching over file:// and a loopback HTTP server, images, img2dataset layout."""

from __future__ import annotations

import functools
import http.server
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import webdataset as wds
from PIL import Image

from negdata.config import Config
from negdata.ingest.images import ImageError, reencode
from negdata.ingest.sources import read_rows
from negdata.ingest.stage import run_ingest


def _jpeg(size: tuple[int, int], color: str = "red", exif_orientation: int | None = None) -> bytes:
    img = Image.new("RGB", size, color)
    out = io.BytesIO()
    if exif_orientation is None:
        img.save(out, "JPEG")
    else:
        exif = Image.Exif()
        exif[0x0112] = exif_orientation
        img.save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


@pytest.fixture
def http_root(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real HTTP server on 127.0.0.1 serving a temporary folder."""
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", root
    server.shutdown()
    server.server_close()


def _config(tmp_path: Path, tsv: Path, per_shard: int = 10) -> Config:
    return Config.model_validate(
        {
            "run": {"output_dir": str(tmp_path / "run")},
            "input": {"path": str(tsv), "samples_per_shard": per_shard},
            "ingest": {"image_size": 64, "workers": 2},
            "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
        }
    )


def test_reencode_applies_exif_orientation_and_downscales() -> None:
    rotated = reencode(_jpeg((200, 100), exif_orientation=6), longest_side=50, quality=90)
    assert (rotated.original_width, rotated.original_height) == (100, 200)
    assert (rotated.width, rotated.height) == (25, 50)
    assert Image.open(io.BytesIO(rotated.jpeg)).format == "JPEG"


def test_reencode_never_upscales() -> None:
    small = reencode(_jpeg((30, 20)), longest_side=512, quality=90)
    assert (small.width, small.height) == (30, 20)


def test_reencode_rejects_bytes_that_are_no_image() -> None:
    with pytest.raises(ImageError):
        reencode(b"definitely not a jpeg", longest_side=64, quality=90)


def test_bad_rows_become_counted_rejects(tmp_path: Path, http_root: tuple[str, Path]) -> None:
    base, root = http_root
    (root / "ok.jpg").write_bytes(_jpeg((120, 80)))
    local = tmp_path / "local.jpg"
    local.write_bytes(_jpeg((80, 120), "blue"))
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(_jpeg((80, 80))[:200])
    rows = [
        (f"{base}/ok.jpg", "a red square served over http"),
        (local.as_uri(), "a blue rectangle on disk"),
        (corrupt.as_uri(), "a truncated jpeg"),
        ((tmp_path / "missing.jpg").as_uri(), "a file that does not exist"),
        (local.as_uri(), ""),
        (f"{base}/absent.jpg", "a 404 over http"),
    ]
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(f"{u}\t{c}\n" for u, c in rows))
    cfg = _config(tmp_path, tsv)

    stats = run_ingest(cfg, 0, "h")

    assert stats["count"] == 6 and stats["successes"] == 2
    assert stats["failures_by_reason"] == {
        "decode_error": 1,
        "empty_caption": 1,
        "http_error": 1,
        "missing_file": 1,
    }
    shard_dir = cfg.run.output_dir / "shards"
    table = pq.read_table(shard_dir / "00000.parquet").to_pylist()
    assert [r["key"] for r in table] == [f"00000{i:04d}" for i in range(6)]
    assert [r["status"] for r in table] == ["success", "success"] + ["failed"] * 4
    samples = list(wds.WebDataset(str(shard_dir / "00000.tar"), shardshuffle=False))
    assert [s["__key__"] for s in samples] == ["000000000", "000000001"]
    meta = json.loads(samples[1]["json"])
    assert meta["caption"] == samples[1]["txt"].decode() == "a blue rectangle on disk"
    assert (meta["width"], meta["height"]) == (43, 64)
    stats_file = json.loads((shard_dir / "00000_stats.json").read_text())
    assert stats_file["config_hash"] == "h" and stats_file["failed"] == 4


def test_rows_split_into_shards_by_position(tmp_path: Path) -> None:
    image = tmp_path / "x.jpg"
    image.write_bytes(_jpeg((10, 10)))
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(f"{image.as_uri()}\tcaption {i}\n" for i in range(5)))
    cfg = _config(tmp_path, tsv, per_shard=2)
    stats = run_ingest(cfg, 2, "h")
    assert stats["count"] == 1
    samples = list(wds.WebDataset(str(cfg.run.output_dir / "shards/00002.tar"), shardshuffle=False))
    assert samples[0]["__key__"] == "000020000" and samples[0]["txt"] == b"caption 4"


def test_parquet_and_csv_sources(tmp_path: Path) -> None:
    pq.write_table(
        pa.table({"url": ["file:///a.jpg", "file:///b.jpg"], "caption": ["a", "b"]}),
        tmp_path / "in.parquet",
    )
    (tmp_path / "in.csv").write_text('filepath,title\n/x/a.jpg,"a dog, running"\n')
    parquet_cfg = _config(tmp_path, tmp_path / "in.parquet").input.model_copy(
        update={"format": "parquet"}
    )
    csv_cfg = _config(tmp_path, tmp_path / "in.csv").input.model_copy(
        update={"format": "csv", "url_column": "filepath", "caption_column": "title"}
    )
    assert [(r.url, r.caption) for r in read_rows(parquet_cfg)] == [
        ("file:///a.jpg", "a"),
        ("file:///b.jpg", "b"),
    ]
    assert [(r.url, r.caption) for r in read_rows(csv_cfg)] == [("/x/a.jpg", "a dog, running")]
