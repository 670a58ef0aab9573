"""Nothing a test session started outlives pytest, however pytest ends: a pytest of its own,
with this suite's fixtures (tests/conftest.py as a plugin), starts the session's S3 server and
a process of its own session (as a cluster test's worker is), and is SIGKILLed, as the OOM
killer would."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

from negdata.llm.processes import port_listener
from tests.reaper import MARK_ENV

ROOT = Path(__file__).resolve().parents[1]
INNER = """
import json, os, subprocess, sys, time
from pathlib import Path

def test_hold(s3_options):
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                              start_new_session=True)
    found = {"endpoint": s3_options["endpoint_url"], "worker": worker.pid,
             "mark": os.environ["NEGDATA_TEST_SESSION"]}
    Path(os.environ["INNER_FOUND"]).write_text(json.dumps(found))
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_sigkilled_pytest_leaves_no_server_and_no_process_behind(tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text(INNER)
    found_file = tmp_path / "found.json"
    env = {k: v for k, v in os.environ.items() if k != MARK_ENV}
    inner = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT),
         str(tmp_path / "test_inner.py")],
        cwd=ROOT, env={**env, "INNER_FOUND": str(found_file)}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not found_file.exists():
            assert inner.poll() is None, "the inner pytest ended early"
            assert time.monotonic() < deadline, "the inner test never started"
            time.sleep(0.1)
        found = json.loads(found_file.read_text())
        assert found["mark"] != os.environ[MARK_ENV]  # a session of its own
        server = port_listener(int(found["endpoint"].rsplit(":", 1)[1]))
        assert server is not None
        reaper = [
            p
            for p in psutil.Process(inner.pid).children()
            if "tests/reaper.py" in " ".join(p.cmdline())
        ]
        assert len(reaper) == 1
        started = [server.pid, os.getpgid(server.pid), found["worker"], reaper[0].pid]
        assert all(_alive(pid) for pid in started)

        os.kill(inner.pid, signal.SIGKILL)  # pytest alone, as the OOM killer ends it
        inner.wait()

        deadline = time.monotonic() + 30
        while [pid for pid in started if _alive(pid)]:
            assert time.monotonic() < deadline, [pid for pid in started if _alive(pid)]
            time.sleep(0.2)
        assert port_listener(int(found["endpoint"].rsplit(":", 1)[1])) is None
    finally:
        if inner.poll() is None:
            os.killpg(inner.pid, signal.SIGKILL)
            inner.wait()
