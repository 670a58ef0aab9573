"""Fixtures shared across the test suite."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import http.server
import io
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
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
from negdata.llm.cache import FOLDER
from negdata.llm.processes import start_guarded
from negdata.sample import SampleFiles, build_sample, package_file
from tests.reaper import MARK_ENV, start_reaper

pytest_plugins = ["tests.scheduling"]  # how make test spreads the suite over its workers

SampleConfig = Callable[..., tuple[Path, SampleFiles]]
# A loopback server's answer to a GET: (status, body, extra headers), or None to close the
# connection without answering. An error status with an empty body is sent as an error page.
Reply = tuple[int, bytes, dict[str, str]] | None
Respond = Callable[[http.server.BaseHTTPRequestHandler], Reply]


def pytest_configure(config: pytest.Config) -> None:
    """Everything this session starts carries its mark, and the reaper ends whatever is left of
    it once pytest has exited, however (tests/reaper.py). In-process flows find no Prefect to
    start by itself: they use the session's server (``prefect_api``), which stops with it."""
    mark = uuid.uuid4().hex
    os.environ[MARK_ENV] = mark
    # Prefect's own temporary API server is a plain child that outlives a killed pytest; a flow
    # run in this process without PREFECT_API_URL is an error instead. flows/generate.py run
    # as a command starts its own, under negdata's watchdog, whatever this says.
    os.environ["PREFECT_SERVER_EPHEMERAL_ENABLED"] = "false"
    _, lifeline = start_reaper(mark)
    config.stash[_LIFELINE] = lifeline  # open until this process exits


_LIFELINE = pytest.StashKey[int]()


def _peak_rss_kib() -> int | None:
    """This process's peak memory: the kernel's high-water mark of its resident set."""
    with contextlib.suppress(OSError, StopIteration):
        status = Path("/proc/self/status").read_text()
        return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmHWM")))
    return None


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its peak memory to the controller (``pytest_testnodedown``)."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["peak_rss_kib"] = _peak_rss_kib()


_WORKER_PEAKS = pytest.StashKey[dict[str, int]]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    peak = getattr(node, "workeroutput", {}).get("peak_rss_kib")
    if peak is not None:
        node.config.stash.setdefault(_WORKER_PEAKS, {})[node.gateway.id] = peak


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The peak memory of pytest and of each of its workers, beside the slowest tests: each
    process of the suite is to stay under 2 GB."""
    peaks = {"pytest": _peak_rss_kib(), **terminalreporter.config.stash.get(_WORKER_PEAKS, {})}
    terminalreporter.write_line(
        "peak RSS: " + ", ".join(f"{name} {kib // 1024} MiB" for name, kib in peaks.items() if kib)
    )


def _detection_state() -> tuple[set[str], set[str]]:
    """The keys of the detector models and of the detector processes this process holds."""
    detectors = sys.modules.get("negdata.detect.detectors")
    devices = sys.modules.get("negdata.detect.devices")
    return (
        set(detectors._loaded) if detectors else set(),
        set(devices._fleets) if devices else set(),
    )


def _let_go(models: set[str], fleets: set[str], pools: bool) -> None:
    """Forget the detector models ``models``, stop the detector processes ``fleets`` and,
    with ``pools``, the worker pools (negdata/workers.py)."""
    detectors = sys.modules.get("negdata.detect.detectors")
    if detectors is not None:
        for key in models:
            detectors._loaded.pop(key, None)
    devices = sys.modules.get("negdata.detect.devices")
    if devices is not None:
        with devices._fleets_lock:
            stopping = [devices._fleets.pop(key) for key in fleets if key in devices._fleets]
        for fleet in stopping:
            fleet.stop()
    workers = sys.modules.get("negdata.workers")
    if workers is not None and pools:
        workers.forget_all()


@pytest.fixture(autouse=True)
def _detection_let_go() -> Iterator[None]:
    """Detection keeps in each process what it starts, for the life of a run: loaded models,
    detector processes (one per device), worker pools. In pytest a run's life is a test's:
    the models and detector processes a test started are let go after it (those of a module's
    fixtures after the module), or they pile up, a model up to half a GB, a detector process
    a copy of torch and Ultralytics. The worker pools, slow to start, last a module."""
    models, fleets = _detection_state()
    yield
    now_models, now_fleets = _detection_state()
    _let_go(now_models - models, now_fleets - fleets, pools=False)


@pytest.fixture(autouse=True, scope="module")
def _module_let_go() -> Iterator[None]:
    """After a module: all of the above, and the memory freed is handed back to the system
    (glibc keeps it otherwise; pytest's RSS would only grow)."""
    yield
    _let_go(*_detection_state(), pools=True)
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


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


SAMPLE_SHARDS = "0-4"  # the sample's 14 rows and 3 bad ones, at 4 per shard


class SampleRun(NamedTuple):
    """A finished run of the flow over the bundled sample: its config and what the flow
    returned."""

    config: Path
    summary: dict[str, Any]

    @property
    def out(self) -> Path:
        return Path(yaml.safe_load(self.config.read_text())["run"]["output_dir"])


@pytest.fixture(scope="session")
def sample_run(
    tmp_path_factory: pytest.TempPathFactory,
    vllm_server: LLMConfig,
    prefect_server: PrefectServer,
) -> SampleRun:
    """The flow over the bundled sample plus three bad rows (a corrupt JPEG, a missing file, an
    empty caption), run once per session (``run_flow``) with the real YOLO weights, the
    session's vLLM server and its Prefect server: what tests/test_flow.py checks, and what
    the stop, restart, concurrency and cluster tests copy (``copy_sample_run``) and attack,
    its LLM replies in the copied response cache. Nothing may change it: copy it first."""
    root = tmp_path_factory.mktemp("sample-run")
    corrupt = root / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    images = build_sample(root / "sample").tsv.parent / "images"
    bad_rows = (
        f"{corrupt.as_uri()}\ta corrupt photo of a dog\n"
        f"{(root / 'missing.jpg').as_uri()}\ta photo that was deleted\n"
        f"{next(images.iterdir()).as_uri()}\t\n"
    )
    config, _ = _sample_config(root, vllm_server, bad_rows)
    summary = run_flow(prefect_server, shards=SAMPLE_SHARDS, config=str(config))
    return SampleRun(config, summary)


_FLOW = """
import json, sys
from flows.generate import generate
summary = generate(**json.loads(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    json.dump(summary, out)
"""


def run_flow(prefect: PrefectServer, **parameters: Any) -> dict[str, Any]:
    """``flows.generate.generate(**parameters)``, the flow function a Prefect worker runs, in a
    python of its own talking to ``prefect``; what it returns. Not in pytest: a run loads the
    detectors, spaCy and the rest, half a GB that pytest would then hold."""
    with tempfile.TemporaryDirectory() as folder:
        returned = Path(folder) / "summary.json"
        done = subprocess.run(
            [sys.executable, "-c", _FLOW, json.dumps(parameters), str(returned)],
            env={**os.environ, **prefect.env}, capture_output=True, text=True, timeout=900,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        summary: dict[str, Any] = json.loads(returned.read_text())
        return summary


# The files each stage writes for shard S (``S*`` in these folders of the output).
STAGE_FILES = {
    "ingest": ("shards",),
    "detect": ("evidence",),
    "plan": ("objects",),
    "compose": ("captions",),
    "publish": ("negcap/*", "negcap_parquet/*", "negmcq/*", "rejects", "publish"),
}


def forget(out: Path, stages: tuple[str, ...], shards: range | list[int]) -> None:
    """Delete what ``stages`` wrote for ``shards`` under ``out``, done markers included, as if
    they had never run."""
    for stage in stages:
        for folder in STAGE_FILES[stage]:
            for shard in shards:
                for path in out.glob(f"{folder}/{shard:05d}*"):
                    path.unlink()


def copy_sample_run(
    run: SampleRun, dest: Path, name: str = "out", **settings: Any
) -> tuple[Path, Path]:
    """A copy of ``run``'s output folder (its response cache included) at ``dest / name``, and
    a config that writes there (``dest / f"{name}.yaml"``), with ``run:`` ``settings`` added;
    it reads the same input, so every done marker still holds. Returns (config, output)."""
    out = dest / name
    shutil.copytree(run.out, out)
    raw = yaml.safe_load(run.config.read_text())
    raw["run"] = {**raw["run"], "output_dir": str(out), **settings}
    config = dest / f"{name}.yaml"
    config.write_text(yaml.safe_dump(raw))
    return config, out


def sample_run_config(run: SampleRun, dest: Path, name: str, **settings: Any) -> Path:
    """A config for ``run``'s input and settings writing to the empty ``dest / name``, whose
    response cache is a copy of ``run``'s: a new run that pays no LLM time."""
    out = dest / name
    out.mkdir(parents=True)
    shutil.copytree(run.out / FOLDER, out / FOLDER)
    raw = yaml.safe_load(run.config.read_text())
    raw["run"] = {**raw["run"], "output_dir": str(out), **settings}
    config = dest / f"{name}.yaml"
    config.write_text(yaml.safe_dump(raw))
    return config


def written_outputs(out: Path, shards: range | None = None) -> dict[str, bytes]:
    """Every tar and Parquet file under an output folder (of ``shards`` only, when given), by
    relative path: what two runs compare byte for byte."""
    names = None if shards is None else tuple(f"{s:05d}" for s in shards)
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.suffix in (".tar", ".parquet")
        and not p.name.startswith(".")
        and (names is None or p.name.startswith(names))
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


# The suite's servers share the two cores with everything else the suite runs: unbound, one
# thread (llm.serve.cpu_threads) serves them in under half the time of vLLM's two bound ones.
SERVER_THREADS = 1


@pytest.fixture(scope="session")
def vllm_process(
    tmp_path_factory: pytest.TempPathFactory, prefect_starting: StartingPrefect
) -> Iterator[LocalServer]:
    """The real vLLM CPU server on a free loopback port, once per session, started with an API
    key as a cluster's is (every test that talks to it sends the key). The session's Prefect
    server starts beside it: nearly every test that runs a flow needs both. Tests talk to it
    through ``vllm_server``; the one that crashes a server mid-shard crashes this one and
    restarts it (tests/llm/test_server_restart.py), sparing a start of its own."""
    base = LLMConfig(api_key=secrets.token_urlsafe(16))
    serve = base.serve.model_copy(
        update={"host": "127.0.0.1", "port": _free_port(), "cpu_threads": SERVER_THREADS}
    )
    cfg = base.model_copy(update={"serve": serve})
    log_path = tmp_path_factory.mktemp("vllm") / "vllm.log"
    with LocalServer(cfg, log_path=log_path) as server:
        yield server


@pytest.fixture(scope="session")
def vllm_server(vllm_process: LocalServer) -> LLMConfig:
    """The session's vLLM server (``vllm_process``): its config, with its endpoint."""
    return vllm_process.cfg.model_copy(update={"endpoint": vllm_process.base_url})


@contextlib.contextmanager
def guarded_server(
    command: list[str], env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` under negdata's watchdog (a process group of its own that cannot outlive
    this process, SIGKILL included), logging to ``log``; stopped at the end (SIGTERM to the
    watchdog, which stops the group). Yields the watchdog."""
    with log.open("wb") as sink:
        watchdog, lifeline = start_guarded(command, grace=10.0, env=env, stdout=sink)
    try:
        yield watchdog
    finally:
        watchdog.terminate()
        try:
            watchdog.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(watchdog.pid, signal.SIGKILL)
            watchdog.wait()
        os.close(lifeline)


def wait_ready(
    watchdog: subprocess.Popen[bytes],
    log: Path,
    ready: Callable[[], bool],
    what: str,
    timeout: float = 120.0,
) -> None:
    """Return once ``ready()``; an error naming ``what`` and quoting its log if the server
    exits first or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while not ready():
        if watchdog.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{what} did not start; the end of {log}:\n{tail}")
        time.sleep(0.2)


def _answers(url: str, *, healthy: bool = False) -> bool:
    try:
        status = httpx.get(url, timeout=2.0).status_code
    except httpx.TransportError:
        return False
    return status == 200 or not healthy


@pytest.fixture(scope="session")
def s3_options(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A real S3-compatible server (moto in server mode) on a free loopback port, once per
    session; yields the fsspec storage options that reach it. The key and secret are given so
    that botocore never goes looking for credentials elsewhere (environment, metadata service)."""
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("moto") / "moto.log"
    command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    with guarded_server(command, dict(os.environ), log) as watchdog:
        wait_ready(watchdog, log, lambda: _answers(endpoint), "the moto server", timeout=60.0)
        yield {
            "endpoint_url": endpoint,
            "key": "negdata-test",
            "secret": "negdata-test",
        }


class PrefectServer(NamedTuple):
    """A Prefect server's API URL and the basic-auth credentials it demands."""

    url: str
    auth: str

    @property
    def env(self) -> dict[str, str]:
        """What a client (worker, deploy step, flow) needs in its environment to reach it."""
        return {"PREFECT_API_URL": self.url, "PREFECT_API_AUTH_STRING": self.auth}

    @property
    def basic_auth(self) -> tuple[str, str]:
        user, password = self.auth.split(":", 1)
        return user, password

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON answer to a POST of ``body`` to the API's ``path``, with the credentials."""
        reply = httpx.post(f"{self.url}{path}", json=body or {}, auth=self.basic_auth,
                           timeout=10.0)  # fmt: skip
        reply.raise_for_status()
        return reply.json()


class StartingPrefect(NamedTuple):
    server: PrefectServer
    watchdog: subprocess.Popen[bytes]
    log: Path


@pytest.fixture(scope="session")
def prefect_starting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StartingPrefect]:
    """The session's Prefect server (``prefect_server``), started but not yet waited for, so
    that it starts while the vLLM server does (``vllm_process``)."""
    port = _free_port()
    auth = f"negdata:{secrets.token_urlsafe(12)}"
    home = tmp_path_factory.mktemp("prefect")
    env = {
        **os.environ,
        "PREFECT_HOME": str(home),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_UI_ENABLED": "false",
        "PREFECT_SERVER_API_AUTH_STRING": auth,
    }
    env.pop("PREFECT_API_URL", None)
    command = [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
               "--port", str(port)]  # fmt: skip
    with guarded_server(command, env, home / "server.log") as watchdog:
        yield StartingPrefect(
            PrefectServer(f"http://127.0.0.1:{port}/api", auth), watchdog, home / "server.log"
        )


@pytest.fixture(scope="session")
def prefect_server(prefect_starting: StartingPrefect) -> PrefectServer:
    """A real Prefect server on a free loopback port, with a PREFECT_HOME of its own and basic
    auth on, as a cluster's server runs, once per session; under the watchdog, so that it
    stops with this process however it ends. Its flow runs and artifacts are every test's:
    a test tells its own apart (by config, by output folder)."""
    server, watchdog, log = prefect_starting
    health = f"{server.url}/health"
    wait_ready(watchdog, log, lambda: _answers(health, healthy=True), "the Prefect server")
    return server


@contextlib.contextmanager
def using_prefect(server: PrefectServer) -> Iterator[PrefectServer]:
    """Flows run in this process talk to ``server`` (as flows/generate.py points its own at
    a temporary server): Prefect starts no server of its own."""
    from prefect.settings import PREFECT_API_AUTH_STRING, PREFECT_API_URL, temporary_settings

    with temporary_settings(updates={PREFECT_API_URL: server.url,
                                     PREFECT_API_AUTH_STRING: server.auth}):  # fmt: skip
        yield server


@pytest.fixture
def prefect_api(prefect_server: PrefectServer) -> Iterator[PrefectServer]:
    """For a test that runs a flow in this process: see ``using_prefect``."""
    with using_prefect(prefect_server):
        yield prefect_server


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
