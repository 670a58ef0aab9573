"""Fixtures shared across the test suite."""

from __future__ import annotations

import http.server
import io
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import tarfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

# Hugging Face datasets reads this once, at import: the tests that load outputs with it never
# reach the Hub (datasets 5 takes HF_HUB_OFFLINE too, which the Makefile sets).
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import httpx
import pytest
import yaml
from PIL import Image

from negdata.cli import PERSON_WEIGHTS
from negdata.config import LLMConfig
from negdata.llm import LocalServer
from negdata.sample import SampleFiles, build_sample, package_file

SampleConfig = Callable[..., tuple[Path, SampleFiles]]
# A loopback server's answer to a GET: (status, body, extra headers), or None to close the
# connection without answering. An error status with an empty body is sent as an error page.
Reply = tuple[int, bytes, dict[str, str]] | None
Respond = Callable[[http.server.BaseHTTPRequestHandler], Reply]


@pytest.fixture
def loopback_http() -> Iterator[Callable[[Respond], str]]:
    """``serve(respond)`` starts a real HTTP server on 127.0.0.1 whose GETs ``respond(request)``
    answers, and returns its base URL; every server is shut down after the test."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def serve(respond: Respond) -> str:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                reply = respond(self)
                if reply is None:
                    self.close_connection = True
                    return
                status, body, headers = reply
                if status >= 400 and not body:
                    self.send_error(status)
                    return
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def _sample_config(
    root: Path, llm: LLMConfig, rows: str = "", name: str = "config.yaml"
) -> tuple[Path, SampleFiles]:
    """A config for the bundled sample built under ``root`` (plus ``rows`` of TSV appended to
    its input), writing to ``root/out``, with the real person weights and the given LLM
    server as a remote one; returns the config file and the sample's files."""
    files = build_sample(root / "sample")
    (root / "input.tsv").write_text(files.tsv.read_text() + rows)
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["run"]["output_dir"] = str(root / "out")
    raw["input"]["path"] = str(root / "input.tsv")
    raw["input"]["files_root"] = str(root)  # the sample's photos and any rows' files
    raw["detect"]["sources"][0]["path"] = str(files.labels)
    raw["detect"]["sources"][1]["weights"] = str(package_file(*PERSON_WEIGHTS))
    raw["llm"] = {**llm.model_dump(mode="json"), "local": False}
    raw["compose"]["prompts_dir"] = str(Path("prompts").resolve())
    config = root / name
    config.write_text(yaml.safe_dump(raw))
    return config, files


@pytest.fixture(scope="session")
def sample_config() -> SampleConfig:
    """``sample_config(root, llm, rows="")``: see ``_sample_config``."""
    return _sample_config


def written_outputs(out: Path) -> dict[str, bytes]:
    """Every tar and Parquet file under an output folder, by relative path: what two runs
    compare byte for byte."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.suffix in (".tar", ".parquet") and not p.name.startswith(".")
    }


def _ephemeral_low() -> int:
    """The first port the kernel hands out as a connection's local port."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _free_port() -> int:
    """A free loopback port below the ephemeral range: a server stopped and started again on it
    (a restart test) cannot find it taken meanwhile as the local port of some connection, nor
    can a client retrying against it connect to itself (TCP's simultaneous open)."""
    low = min(_ephemeral_low(), 32768)
    while True:
        port = random.randrange(low // 2, low)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port


@pytest.fixture
def free_port() -> int:
    """A loopback port nothing listens on right now."""
    return _free_port()


@pytest.fixture(scope="session")
def vllm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LLMConfig]:
    """The real vLLM CPU server on a free loopback port, once per session, started with an API
    key as a cluster's is (every test that talks to it sends the key); yields its config."""
    base = LLMConfig(api_key=secrets.token_urlsafe(16))
    serve = base.serve.model_copy(update={"host": "127.0.0.1", "port": _free_port()})
    cfg = base.model_copy(update={"serve": serve})
    log_path = tmp_path_factory.mktemp("vllm") / "vllm.log"
    with LocalServer(cfg, log_path=log_path) as server:
        yield cfg.model_copy(update={"endpoint": server.base_url})


@pytest.fixture(scope="session")
def s3_options() -> Iterator[dict[str, Any]]:
    """A real S3-compatible server (moto in server mode) on a free loopback port, once per
    session; yields the fsspec storage options that reach it. The key and secret are given so
    that botocore never goes looking for credentials elsewhere (environment, metadata service)."""
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(endpoint, timeout=1.0)
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("moto server did not start") from None
                time.sleep(0.2)
        yield {
            "endpoint_url": endpoint,
            "key": "negdata-test",
            "secret": "negdata-test",
        }
    finally:
        server.terminate()
        server.wait(timeout=30)


class PrefectServer(NamedTuple):
    """A Prefect server's API URL and the basic-auth credentials it demands."""

    url: str
    auth: str

    @property
    def env(self) -> dict[str, str]:
        """What a client (worker, deploy step, flow) needs in its environment to reach it."""
        return {"PREFECT_API_URL": self.url, "PREFECT_API_AUTH_STRING": self.auth}


@pytest.fixture(scope="module")
def prefect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrefectServer]:
    """A real Prefect server on a free loopback port, with a PREFECT_HOME of its own and basic
    auth on, as a cluster's server runs, once per test module."""
    port = _free_port()
    auth = f"negdata:{secrets.token_urlsafe(12)}"
    env = {
        **os.environ,
        "PREFECT_HOME": str(tmp_path_factory.mktemp("prefect")),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_UI_ENABLED": "false",
        "PREFECT_SERVER_API_AUTH_STRING": auth,
    }
    env.pop("PREFECT_API_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
         "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    api = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{api}/health", timeout=2.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the Prefect server did not start")
            time.sleep(0.3)
        yield PrefectServer(api, auth)
    finally:
        server.terminate()
        server.wait(timeout=60)


@pytest.fixture
def bucket(s3_options: dict[str, Any]) -> str:
    """A new, empty bucket on the loopback S3 server."""
    import s3fs

    name = f"negdata-{uuid.uuid4().hex[:12]}"
    s3fs.S3FileSystem(**s3_options).mkdir(name)
    return name


@pytest.fixture
def webdataset_crawl(tmp_path: Path) -> Path:
    """A folder with two WebDataset tars of 3 and 2 samples (jpg, txt "photo {tar}-{i}", json
    with the original url), as an earlier crawl would have left them; written with tarfile
    alone, so that reading them does not lean on negdata's own writer."""
    folder = tmp_path / "crawl"
    folder.mkdir()
    for t, count in enumerate((3, 2)):
        with tarfile.open(folder / f"{t:05d}.tar", "w") as tar:
            for i in range(count):
                key = f"{t:05d}{i:04d}"
                jpeg = io.BytesIO()
                Image.new("RGB", (100 + i, 80), "red").save(jpeg, "JPEG")
                members = {
                    "jpg": jpeg.getvalue(),
                    "txt": f"photo {t}-{i}".encode(),
                    "json": json.dumps({"url": f"https://example.invalid/{key}.jpg"}).encode(),
                }
                for ext, data in members.items():
                    info = tarfile.TarInfo(f"{key}.{ext}")
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
    return folder
