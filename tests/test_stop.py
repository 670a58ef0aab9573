"""SIGTERM and Ctrl-C stop the flow within seconds: in-flight work dropped, finished work kept,
every process it started ended, one line saying what was done; a rerun then finishes the job.

Each test works on a copy of the session's run of the sample (tests/conftest.py) with the
stages it stops in forgotten, so the flow does that work again (its LLM replies from the copied
response cache) and is stopped while doing it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest
import yaml

from tests.conftest import STAGE_FILES, copy_sample_run, forget

if TYPE_CHECKING:
    from tests.conftest import PrefectServer, SampleRun

STOP_WITHIN_S = 10.0
SHARDS = range(4)  # the flow is run on shards 0-3
LLM_STAGES = ("plan", "compose", "publish")


def _start(config: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "flows/generate.py", "--shards", "0-3", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's job would be
        env=env,
    )


def _wait_for(path_glob: tuple[Path, str], proc: subprocess.Popen[str]) -> None:
    """Block until a file matching the glob exists: a kill point from observed progress."""
    folder, pattern = path_glob
    deadline = time.monotonic() + 300
    while not list(folder.glob(pattern)):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"no {pattern} in {folder}"
        time.sleep(0.05)


def _rerun_finishes(config: Path, env: dict[str, str] | None = None) -> str:
    """The same command again runs to the end and publishes every shard; gives its stderr."""
    rerun = subprocess.run(
        [sys.executable, "flows/generate.py", "--shards", "0-3", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert "shards 00000-00003 published" in rerun.stdout
    return rerun.stderr


def _copy(sample_run: SampleRun, tmp_path: Path, redo: tuple[str, ...]) -> tuple[Path, Path]:
    """A copy of the session's run with ``redo`` forgotten for shards 0-3 and shard 4 (which
    the flow here does not select) forgotten entirely; its config and output folder."""
    config, out = copy_sample_run(sample_run, tmp_path)
    forget(out, tuple(STAGE_FILES), [4])
    forget(out, redo, SHARDS)
    return config, out


def _group(pgid: int) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) == pgid:
                found.append(process)
        except (ProcessLookupError, psutil.Error):
            continue
    return found


@pytest.mark.parametrize(
    ("sig", "to_group", "after", "redo"),
    [
        (signal.SIGTERM, False, ("objects", "*_stats.json"), LLM_STAGES),  # mid LLM stages
        # Ctrl-C in a terminal, mid ingest
        (signal.SIGINT, True, ("shards", "*_stats.json"), tuple(STAGE_FILES)),
    ],
)
def test_a_signal_stops_the_flow_within_seconds_and_a_rerun_finishes(
    tmp_path: Path,
    sample_run: SampleRun,
    prefect_server: PrefectServer,
    sig: signal.Signals,
    to_group: bool,
    after: tuple[str, str],
    redo: tuple[str, ...],
) -> None:
    config, out = _copy(sample_run, tmp_path, redo)
    proc = _start(config)
    _wait_for((out / after[0], after[1]), proc)

    sent = time.monotonic()
    if to_group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=60)
    took = time.monotonic() - sent

    assert took < STOP_WITHIN_S, took
    assert proc.returncode == 128 + sig
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith(f"negdata: stopped by {sig.name}; ")
    assert "stage-shards done" in last and "rerun the same command to resume" in last
    assert _group(proc.pid) == []  # Prefect's server, decode workers: all gone

    _rerun_finishes(config, {**os.environ, **prefect_server.env})  # no server of its own to start
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]  # none left behind
    tars = {n for p in (out / "negcap").glob("*/sizes.json") for n in json.loads(p.read_text())}
    assert sorted(tars) == [f"{s:05d}.tar" for s in range(4)]


def _listener(port: int) -> psutil.Process | None:
    pids = {
        c.pid
        for c in psutil.net_connections(kind="tcp")
        if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid
    }
    return psutil.Process(pids.pop()) if pids else None


def _gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.mark.slow
def test_sigkill_of_the_flow_ends_its_llm_server_and_a_rerun_starts_a_fresh_one(
    tmp_path: Path,
    free_port: int,
    sample_run: SampleRun,
    prefect_server: PrefectServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The flow starts its own vLLM server (llm.local); a scheduler SIGKILLs the flow's whole
    process group mid-run. The server, in a process group of its own, must go too, with every
    process it started, and the next run must get the port, finish, and stop its own server
    cleanly. The flows run against the session's Prefect server, as a scheduled one would (and
    start no Prefect server of their own)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("NEGDATA_CACHE", str(cache))  # the server's log goes there
    # A temporary directory short enough for the server's folder of socket files (server.py).
    temp = Path(tempfile.mkdtemp(prefix="nd-", dir="/tmp"))
    own_folder = temp / f"negdata-vllm-{free_port}"
    config, _ = _copy(sample_run, tmp_path, LLM_STAGES)
    raw = yaml.safe_load(config.read_text())
    raw["llm"] = {**raw["llm"], "local": True, "endpoint": None}
    raw["llm"]["serve"] = {**raw["llm"]["serve"], "host": "127.0.0.1", "port": free_port}
    config.write_text(yaml.safe_dump(raw))
    env = {**os.environ, **prefect_server.env, "TMPDIR": str(temp)}
    try:
        proc = _start(config, env)
        deadline = time.monotonic() + 300
        while (server := _listener(free_port)) is None:  # vLLM listens once it is ready
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the flow's server never listened"
            time.sleep(0.1)
        assert os.getpgid(server.pid) != proc.pid
        server_group = os.getpgid(server.pid)
        family = _group(server_group)
        assert len(family) >= 3  # watchdog, vLLM, its engine core
        # The model is in the engine's process (llm.serve.worker_process): no worker of its own.
        assert not [p for p in family if p.name().startswith("VLLM::Worker")]
        assert own_folder.is_dir()

        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()

        deadline = time.monotonic() + 60
        while not (all(map(_gone, family)) and _listener(free_port) is None):
            assert time.monotonic() < deadline, "the server outlived the killed flow"
            time.sleep(0.2)
        assert all(map(_gone, _group(server_group)))  # nor one it started since
        # Nothing of the server in the temporary directory but its own folder (cleared by the
        # next start on the port); its log is where logs go, one file per host and port.
        assert {p.name for p in temp.glob("negdata-*")} <= {own_folder.name}
        assert [p.name for p in (cache / "logs").iterdir()] == [
            f"vllm-{socket.gethostname()}-{free_port}.log"
        ]

        stderr = _rerun_finishes(config, env)
        assert _listener(free_port) is None  # the rerun's own server stopped with it
        assert "did not exit within" not in stderr  # stopped by SIGTERM: nothing was killed
        # vLLM's socket files went into the server's own folder, removed at each clean stop.
        assert not list(temp.glob("negdata-*"))
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def test_a_stopped_run_is_marked_crashed_on_the_prefect_server(
    tmp_path: Path,
    sample_run: SampleRun,
    prefect_server: PrefectServer,
) -> None:
    """On a shared Prefect server a stopped run must not stay "Running" forever. The session's
    server holds every test's runs: this test's are those of its config."""
    config, out = _copy(sample_run, tmp_path, LLM_STAGES)
    proc = _start(config, {**os.environ, **prefect_server.env})
    _wait_for((out / "objects", "*_stats.json"), proc)

    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)

    assert proc.returncode == 128 + signal.SIGTERM
    runs = prefect_server.post("/flow_runs/filter")
    mine = [r for r in runs if r["parameters"].get("config") == str(config)]
    assert [(r["state_type"], r["state"]["message"]) for r in mine] == [
        ("CRASHED", "stopped by SIGTERM")
    ]


CHATTY = """
import logging, threading, time
from negdata.console import setup_logging
from negdata.stopping import stop_on_signals

setup_logging()
stop_on_signals(lambda: "3 of 4 stage-shards done")
log = logging.getLogger("negdata.flow")


def chatter() -> None:
    for n in range(10**9):
        log.info("plan shard %05d: 4 planned", n)


for _ in range(2):
    threading.Thread(target=chatter, daemon=True).start()
print("logging", flush=True)
time.sleep(600)
"""


def test_the_stop_line_is_a_line_of_its_own_while_other_threads_log() -> None:
    """A stop silences stderr and prints its one line; a log line another thread is writing
    at that moment must not run into it (it did, when a line and its newline were two
    writes: a stopped flow's last line read '... 4 plannednegdata: stopped by SIGTERM; ...')."""
    for _ in range(10):
        proc = subprocess.Popen(
            [sys.executable, "-c", CHATTY],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stdout.readline() == "logging\n"
        time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 128 + signal.SIGTERM
        last = stderr.strip().splitlines()[-1]
        assert last.startswith("negdata: stopped by SIGTERM; 3 of 4 stage-shards done"), last
