"""Local input: off by default, confined to input.files_root, and read as warily as the web.

Real files, a real FIFO, the real /dev/zero and /proc, real symlinks and a real loopback HTTP
server; nothing is mocked. A row's fate is read back from the shard's Parquet, as a user would.
"""

from __future__ import annotations

import contextlib
import http.server
import io
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pyarrow.parquet as pq
import pytest
from PIL import Image

from negdata.config import Config, IngestConfig
from negdata.ingest.fetch import FetchError, LocalFiles, read_local
from negdata.ingest.sources import read_rows
from negdata.ingest.stage import run_ingest

T = TypeVar("T")
SECRET = b"API_TOKEN=hunter2\x00HOME=/root\x00"

if TYPE_CHECKING:
    from tests.conftest import Reply, Respond


def _image(size: tuple[int, int] = (256, 192), image_format: str = "JPEG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "red").save(out, image_format)
    return out.getvalue()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The files root, holding one good image, ``in.jpg``."""
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "in.jpg").write_bytes(_image())
    return folder


@pytest.fixture
def private(tmp_path: Path) -> Path:
    """A readable image outside the files root, which no row may publish."""
    path = tmp_path / "private.jpg"
    path.write_bytes(_image())
    return path


def _raw(tmp_path: Path, urls: list[str]) -> dict[str, Any]:
    """A config over one shard of ``urls``, each with a caption, with every default kept."""
    tsv = tmp_path / "in.tsv"
    tsv.write_text("".join(f"{url}\tphoto {i}\n" for i, url in enumerate(urls)))
    return {
        "run": {"output_dir": str(tmp_path / "run")},
        "input": {"path": str(tsv)},
        "ingest": {"workers": 1, "allowed_hosts": ["127.0.0.1"]},
        "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
    }


def _config(
    tmp_path: Path, urls: list[str], files_root: Path | None = None, **ingest: Any
) -> Config:
    """``_raw`` with local input on, confined to ``files_root`` (default ``tmp_path/root``)."""
    raw = _raw(tmp_path, urls)
    raw["input"]["files_root"] = str(files_root or tmp_path / "root")
    raw["ingest"].update(allow_file_urls=True, **ingest)
    return Config.model_validate(raw)


def _ingest(cfg: Config) -> list[dict[str, Any]]:
    run_ingest(cfg, 0, "h")
    rows: list[dict[str, Any]] = pq.read_table(
        cfg.run.output_dir / "shards" / "00000.parquet"
    ).to_pylist()
    return rows


def _reasons(rows: list[dict[str, Any]]) -> list[str | None]:
    return [r["error_message"].split(":", 1)[0] if r["error_message"] else None for r in rows]


def _within(seconds: float, work: Callable[[], T]) -> T:
    """``work()`` on a daemon thread: the test fails after ``seconds`` instead of hanging."""
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds}s"
    if failed:
        raise failed[0]
    return done[0]


def test_file_input_is_off_by_default_and_nothing_is_read(tmp_path: Path, root: Path) -> None:
    assert IngestConfig().allow_file_urls is False
    urls = [(root / "in.jpg").as_uri(), str(root / "in.jpg")]

    rows = _ingest(Config.model_validate(_raw(tmp_path, urls)))

    assert _reasons(rows) == ["unsupported_url", "unsupported_url"]
    assert all("local files are off" in r["error_message"] for r in rows)
    assert [r["sha256"] for r in rows] == [None, None]  # a good image, never opened
    assert _reasons(_ingest(_config(tmp_path, urls))) == [None, None]  # once turned on


def test_paths_outside_files_root_are_refused(tmp_path: Path, root: Path, private: Path) -> None:
    (root / "link.jpg").symlink_to(private)
    (root / "away").symlink_to(tmp_path, target_is_directory=True)
    urls = [
        private.as_uri(),
        str(private),
        "../private.jpg",
        (root / "link.jpg").as_uri(),
        str(root / "away" / "private.jpg"),
        "in.jpg",  # relative to the root: inside
    ]

    rows = _ingest(_config(tmp_path, urls))

    assert _reasons(rows) == ["outside_root"] * 5 + [None]
    assert [r["url"] for r in rows] == urls


def test_file_url_with_a_host_is_refused(tmp_path: Path, root: Path) -> None:
    path = root / "in.jpg"
    urls = [f"file://files.example.com{path}", f"file://localhost{path}"]
    rows = _ingest(_config(tmp_path, urls))
    assert _reasons(rows) == ["unsupported_url", None]
    assert "host 'files.example.com'" in rows[0]["error_message"]


def test_a_symlink_swapped_in_after_the_rows_were_read_cannot_escape(
    tmp_path: Path, root: Path, private: Path
) -> None:
    (root / "sub").mkdir()
    (root / "sub" / "in.jpg").write_bytes(_image())
    cfg = _config(tmp_path, [str(root / "in.jpg"), str(root / "sub" / "in.jpg")])
    rows = read_rows(cfg.input)
    assert [r.error for r in rows] == [None, None]

    (root / "in.jpg").unlink()
    (root / "in.jpg").symlink_to(private)  # the file itself
    (root / "sub" / "in.jpg").unlink()
    (root / "sub").rmdir()
    (root / "sub").symlink_to(tmp_path, target_is_directory=True)  # a folder on its path
    (tmp_path / "in.jpg").write_bytes(_image())

    for row in rows:
        with pytest.raises(FetchError) as caught:
            read_local(row.url, LocalFiles.from_config(cfg))
        assert caught.value.reason == "outside_root"


def test_dev_zero_is_never_read(tmp_path: Path, root: Path) -> None:
    outside = _ingest(_config(tmp_path, ["file:///dev/zero", "/dev/zero"]))
    assert _reasons(outside) == ["outside_root", "outside_root"]

    under_dev = _within(60, lambda: _ingest(_config(tmp_path, ["zero"], files_root=Path("/dev"))))

    assert _reasons(under_dev) == ["not_a_file"]
    assert under_dev[0]["error_message"] == "not_a_file: /dev/zero is not a regular file"


def test_a_fifo_is_refused_without_hanging(tmp_path: Path, root: Path) -> None:
    fifo = root / "pipe.jpg"
    os.mkfifo(fifo)  # opened for reading the usual way, it would wait for a writer forever
    try:
        rows = _within(60, lambda: _ingest(_config(tmp_path, [fifo.as_uri()])))
    finally:
        with contextlib.suppress(OSError):  # a reader stuck in open() is let go, if any
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert _reasons(rows) == ["not_a_file"]


def test_a_file_over_max_body_bytes_is_refused(tmp_path: Path, root: Path) -> None:
    size = (root / "in.jpg").stat().st_size
    just_fits = _ingest(_config(tmp_path, ["in.jpg"], max_body_bytes=size))
    too_big = _ingest(_config(tmp_path, ["in.jpg"], max_body_bytes=size - 1))
    assert _reasons(just_fits) == [None]
    assert _reasons(too_big) == ["body_too_large"]
    assert too_big[0]["error_message"].endswith(f"{size} bytes, over {size - 1}")


def test_a_local_read_over_total_timeout_s_is_a_timeout(tmp_path: Path, root: Path) -> None:
    rows = _ingest(_config(tmp_path, ["in.jpg"], total_timeout_s=1e-9))  # any read takes longer
    assert _reasons(rows) == ["timeout"]


def test_no_byte_of_a_refused_file_is_stored(tmp_path: Path, root: Path) -> None:
    (root / "environ.jpg").write_bytes(SECRET)

    rows = _ingest(_config(tmp_path, ["environ.jpg"]))
    proc = _ingest(_config(tmp_path, ["/proc/self/environ"], files_root=Path("/proc")))

    assert rows[0]["error_message"] == (
        f"not_an_image: {len(SECRET)} bytes; no image signature matched"
    )
    assert _reasons(proc) == ["not_an_image"]  # read, since /proc was let in on purpose
    pattern = r"not_an_image: \d+ bytes; no image signature matched"
    assert re.fullmatch(pattern, proc[0]["error_message"])


@pytest.fixture
def counting_server(loopback_http: Callable[[Respond], str]) -> tuple[str, list[str]]:
    """A loopback HTTP server answering every path with an image; yields its host and port
    and the list of paths requested, with their Authorization headers."""
    seen: list[str] = []
    body = _image()

    def respond(request: http.server.BaseHTTPRequestHandler) -> Reply:
        seen.append(f"{request.path} {request.headers.get('Authorization')}")
        return 200, body, {}

    return loopback_http(respond).removeprefix("http://"), seen


def test_a_url_with_credentials_is_stored_without_them_and_never_fetched(
    tmp_path: Path, counting_server: tuple[str, list[str]]
) -> None:
    host, seen = counting_server
    urls = [f"http://user:hunter2@{host}/a.jpg", f"http://{host}/b.jpg"]

    rows = _ingest(_config(tmp_path, urls))

    assert _reasons(rows) == ["credentials_in_url", None]
    assert rows[0]["url"] == f"http://{host}/a.jpg"
    assert seen == ["/b.jpg None"]  # one request, for the other row, with no Authorization
    assert all(b"hunter2" not in p.read_bytes() for p in (tmp_path / "run" / "shards").iterdir())


def test_default_limits_refuse_tiny_and_long_thin_images(tmp_path: Path, root: Path) -> None:
    (root / "dot.png").write_bytes(_image((1, 1), "PNG"))
    (root / "strip.png").write_bytes(_image((2000, 200), "PNG"))
    (root / "wide.png").write_bytes(_image((384, 128), "PNG"))  # 3:1 and 128 px: just inside

    rows = _ingest(_config(tmp_path, ["dot.png", "strip.png", "wide.png"]))

    assert _reasons(rows) == ["image_too_small", "aspect_ratio_too_large", None]
    assert rows[1]["error_message"] == "aspect_ratio_too_large: 2000x200 is over 3:1"


def test_every_line_lands_in_the_parquet_under_its_own_key(tmp_path: Path, root: Path) -> None:
    cfg = _config(tmp_path, [])
    cfg.input.local_path.write_text(
        "in.jpg\ta photo\n\nin.jpg?\ta\tcut caption\nhttp://[::1/x.jpg\tmalformed\n"
    )

    rows = _ingest(cfg)

    assert [r["key"] for r in rows] == [f"00000{i:04d}" for i in range(4)]
    assert [r["error_message"] for r in rows[1:3]] == [
        "bad_row: blank line",
        "bad_row: 3 tab-separated fields, expected 2",
    ]
    assert _reasons(rows) == [None, "bad_row", "bad_row", "unsupported_url"]
