"""The local server never outlives the negdata process that started it, and a server left by a
dead run never blocks the next one. Real processes throughout: first a stand-in server (a
python process with a child of its own, as vLLM has its engine core) under the watchdog, then
the real vLLM server started by a separate negdata process that is killed. (The real server of
a run whose whole process group is SIGKILLed, and the next run on its port, are tested in
tests/test_stop.py, where the run is the flow.)"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from negdata.config import LLMConfig
from negdata.llm import LocalServer
from negdata.llm.processes import start_guarded

ROOT = Path(__file__).resolve().parents[2]
SERVER = [  # a server with a child of its own, both running until stopped
    sys.executable,
    "-c",
    "import subprocess, sys, time;"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)']);"
    "time.sleep(3600)",
]
OWNER = f"""
import os, sys, time
from negdata.llm.processes import start_guarded
watchdog, _ = start_guarded({SERVER!r}, grace=5.0, env=os.environ, stdout=sys.stderr.buffer)
print(watchdog.pid, flush=True)
time.sleep(3600)
"""


def group(pgid: int) -> list[psutil.Process]:
    """The live processes of process group ``pgid``."""
    found = []
    for proc in psutil.process_iter(["status"]):
        if proc.info["status"] != psutil.STATUS_ZOMBIE:
            with contextlib.suppress(OSError):
                if os.getpgid(proc.pid) == pgid:
                    found.append(proc)
    return found


def gone(procs: list[psutil.Process]) -> bool:
    """Whether every one of ``procs`` has exited (a zombie has: only its exit status is left)."""
    for proc in procs:
        try:
            if proc.status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            pass
    return True


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """Process groups the test started; whatever is left of them is killed afterwards."""
    started: list[int] = []
    yield started
    for pgid in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)


def test_sigkill_of_the_owner_alone_stops_the_server_and_its_children(
    groups: list[int],
) -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER], cwd=ROOT, stdout=subprocess.PIPE, start_new_session=True
    )
    groups.append(owner.pid)
    assert owner.stdout is not None
    server_group = int(owner.stdout.readline())
    groups.append(server_group)
    assert wait_until(lambda: len(group(server_group)) == 3)  # watchdog, server, its child
    server = group(server_group)

    os.kill(owner.pid, signal.SIGKILL)  # the owner alone: its process group lives on
    owner.wait()

    assert wait_until(lambda: gone(server), timeout=30.0)
    assert not group(server_group)


def test_the_watchdog_exits_with_the_server_exit_code_and_leaves_nothing() -> None:
    server = [
        sys.executable,
        "-c",
        "import subprocess, sys;"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)']);"
        "sys.exit(3)",
    ]
    with open(os.devnull, "wb") as sink:
        watchdog, lifeline = start_guarded(server, grace=5.0, env=os.environ, stdout=sink)
    try:
        assert watchdog.wait(timeout=30) == 3
        assert not group(watchdog.pid)  # the server's orphaned child was stopped too
    finally:
        os.close(lifeline)


def test_closing_the_lifeline_stops_the_server() -> None:
    with open(os.devnull, "wb") as sink:
        watchdog, lifeline = start_guarded(SERVER, grace=5.0, env=os.environ, stdout=sink)
    assert wait_until(lambda: len(group(watchdog.pid)) == 3)

    os.close(lifeline)

    assert watchdog.wait(timeout=30) == 128 + signal.SIGTERM
    assert not group(watchdog.pid)


RUN = """
import sys, time
from negdata.config import LLMConfig
from negdata.llm import LocalServer
server = LocalServer(LLMConfig.model_validate_json(sys.argv[1]))
server.start()
print(server.pid, flush=True)
time.sleep(3600)
"""


def local_llm(port: int) -> LLMConfig:
    base = LLMConfig()
    return base.model_copy(
        update={"serve": base.serve.model_copy(update={"host": "127.0.0.1", "port": port})}
    )


def start_run(
    cfg: LLMConfig, groups: list[int], env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """A negdata process, in a session of its own, that starts the local server and idles;
    returns it and the server's process group once the server answers."""
    run = subprocess.Popen(
        [sys.executable, "-c", RUN, cfg.model_dump_json()],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    groups.append(run.pid)
    assert run.stdout is not None
    server_group = int(run.stdout.readline())
    groups.append(server_group)
    return run, server_group


def listener(port: int) -> psutil.Process:
    (pid,) = {
        c.pid
        for c in psutil.net_connections(kind="tcp")
        if c.status == psutil.CONN_LISTEN and c.laddr.port == port
    }
    return psutil.Process(pid)


def answers(base_url: str) -> bool:
    return httpx.get(f"{base_url}/models", timeout=10.0).status_code == 200


@pytest.mark.slow
def test_a_server_orphaned_by_a_dead_run_is_replaced_by_the_next_start(
    tmp_path: Path,
    free_port: int,
    groups: list[int],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cfg = local_llm(free_port)
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))  # where the logs go
    run, server_group = start_run(cfg, groups, dict(os.environ))
    vllm = listener(free_port)
    os.kill(server_group, signal.SIGKILL)  # the watchdog first, so that nothing stops vLLM
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    leftover = group(server_group)
    assert vllm in leftover and answers(cfg.base_url)  # orphaned, and still serving

    with caplog.at_level(logging.WARNING, logger="negdata.llm.server"), LocalServer(cfg) as server:
        assert gone(leftover)
        assert answers(server.base_url) and listener(free_port).pid != vllm.pid

    assert f"replaced a leftover vLLM server (pid {vllm.pid}) of a dead run" in caplog.text
