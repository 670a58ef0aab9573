"""Ingest: sources, fetching over file:// and a loopback HTTP server, images, img2dataset layout."""

from __future__ import annotations

import functools
import http.server
import io
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import webdataset as wds
from PIL import Image

from negdata.config import Config
from negdata.ingest.sources import read_rows
from negdata.ingest.stage import run_ingest


def _jpeg(size: tuple[int, int], color: str = "red") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "JPEG")
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
    """Local files under ``tmp_path`` and the loopback server allowed; small test images too."""
    return Config.model_validate(
        {
            "run": {"output_dir": str(tmp_path / "run")},
            "input": {
                "path": str(tsv),
                "samples_per_shard": per_shard,
                "files_root": str(tmp_path),
            },
            "ingest": {
                "image_size": 64,
                "min_image_size": 8,
                "workers": 2,
                "allowed_hosts": ["127.0.0.1"],
                "allow_file_urls": True,
            },
            "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
        }
    )


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
        (corrupt.with_name("uncaptioned.jpg").as_uri(), ""),
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


class _SlowFirst(http.server.SimpleHTTPRequestHandler):
    """Serves its folder; a path under /slow/ answers 0.5 s late."""

    def do_GET(self) -> None:
        if self.path.startswith("/slow/"):
            time.sleep(0.5)
            self.path = self.path.removeprefix("/slow")
        super().do_GET()


def test_a_shard_longer_than_the_rows_in_flight_keeps_row_order(tmp_path: Path) -> None:
    """Rows stream through a window twice the rows held at once (here 2 fetches + 2 decodes:
    8 rows); slow rows finish after later ones, and tar and table still follow the rows."""
    root = tmp_path / "www"
    root.mkdir()
    for i in range(24):
        (root / f"{i}.jpg").write_bytes(_jpeg((20 + i, 20)))
    handler = functools.partial(_SlowFirst, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    slow = {0, 9, 10}
    rows = [
        f"{base}{'/slow' if i in slow else ''}/{i}.jpg\tphoto {i}\n" if i % 7 else
        f"{base}/absent-{i}.jpg\tphoto {i}\n"
        for i in range(24)
    ]  # fmt: skip
    (tsv := tmp_path / "in.tsv").write_text("".join(rows))
    cfg = _config(tmp_path, tsv, per_shard=24)
    cfg = cfg.model_copy(
        update={"ingest": cfg.ingest.model_copy(update={"concurrency": 2, "workers": 1})}
    )
    try:
        stats = run_ingest(cfg, 0, "h")
    finally:
        server.shutdown()
        server.server_close()

    kept = [i for i in range(24) if i % 7]
    assert stats["successes"] == len(kept) and stats["failures_by_reason"] == {"http_error": 4}
    shard_dir = cfg.run.output_dir / "shards"
    table = pq.read_table(shard_dir / "00000.parquet").to_pylist()
    assert [r["caption"] for r in table] == [f"photo {i}" for i in range(24)]
    samples = list(wds.WebDataset(str(shard_dir / "00000.tar"), shardshuffle=False))
    assert [s["__key__"] for s in samples] == [f"00000{i:04d}" for i in kept]
    assert [s["txt"].decode() for s in samples] == [f"photo {i}" for i in kept]
    assert [json.loads(s["json"])["original_width"] for s in samples] == [20 + i for i in kept]


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


def test_hostile_rows_are_counted_and_nothing_partial_is_visible(
    tmp_path: Path, http_root: tuple[str, Path]
) -> None:
    base, root = http_root
    (root / "page.jpg").write_bytes(b"<!doctype html><html><body>not found</body></html>")
    (root / "empty.jpg").write_bytes(b"")
    cmyk = io.BytesIO()
    Image.new("CMYK", (64, 48), (255, 0, 0, 0)).save(cmyk, "JPEG")
    (root / "cmyk.jpg").write_bytes(cmyk.getvalue())
    frames = [Image.new("P", (40, 40), i) for i in (1, 2)]
    gif = io.BytesIO()
    frames[0].save(gif, "GIF", save_all=True, append_images=frames[1:])
    (root / "anim.gif").write_bytes(gif.getvalue())
    port = base.rsplit(":", 1)[1]
    lines = [
        f"{base}/page.jpg\thtml served as image/jpeg\n".encode(),
        f"{base}/empty.jpg\tzero bytes\n".encode(),
        f"{base}/cmyk.jpg\ta cmyk jpeg\r\n".encode(),
        f"{base}/anim.gif\tan animated gif\n".encode(),
        f"http://127.0.0.2:{port}/cmyk.jpg\ta loopback address outside the allowed set\n".encode(),
        b"data:image/png;base64,iVBORw0KGgo=\ta data url\n",
        b"only-one-field\n",
        f"{base}/latin.jpg\tcaf".encode() + b"\xe9 in latin-1\n",
    ]
    tsv = tmp_path / "in.tsv"
    tsv.write_bytes(b"".join(lines))
    cfg = _config(tmp_path, tsv)

    stats = run_ingest(cfg, 0, "h")

    assert stats["successes"] == 2  # the CMYK JPEG and the first frame of the GIF
    assert stats["failures_by_reason"] == {
        "bad_row": 1,
        "empty_body": 1,
        "invalid_utf8": 1,
        "not_an_image": 1,
        "refused_address": 1,
        "unsupported_url": 1,
    }
    shard_dir = cfg.run.output_dir / "shards"
    assert sorted(p.name for p in shard_dir.iterdir()) == [
        "00000.parquet",
        "00000.tar",
        "00000_stats.json",
    ]


def test_existing_webdataset_shards_are_read_without_fetching(
    tmp_path: Path, webdataset_crawl: Path
) -> None:
    cfg = Config.model_validate(
        {
            "run": {"output_dir": str(tmp_path / "run")},
            "input": {
                "path": str(webdataset_crawl / "{00000..00001}.tar"),
                "format": "webdataset",
                "samples_per_shard": 4,
            },
            "ingest": {"image_size": 64, "min_image_size": 64, "workers": 1},
            "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
        }
    )

    first, second = run_ingest(cfg, 0, "h"), run_ingest(cfg, 1, "h")

    assert (first["successes"], second["successes"]) == (4, 1)  # no network was needed
    rows = pq.read_table(cfg.run.output_dir / "shards" / "00001.parquet").to_pylist()
    assert rows[0]["url"] == "https://example.invalid/000010001.jpg"
    assert rows[0]["caption"] == "photo 1-1"
