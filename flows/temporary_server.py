"""A Prefect API server for one run started from a shell, when no ``PREFECT_API_URL`` is set.

Prefect would start a temporary server by itself, but as a plain child: in the terminal's
process group, writing to the terminal. Ctrl-C then reaches it directly, and it prints its own
shutdown tracebacks over the one line negdata prints. This one is the same server (uvicorn on
Prefect's app, no UI), started under negdata's watchdog (``negdata/llm/processes.py``): in a
process group of its own, silent, and ended with this process however this process ends.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx

from negdata.llm.processes import start_guarded

log = logging.getLogger("negdata.flow")

START_TIMEOUT_S = 120.0
STOP_GRACE_S = 5.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{url}/health", timeout=2.0).status_code == 200:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the temporary Prefect server at {url} did not start")
        time.sleep(0.2)


@contextlib.contextmanager
def temporary_server() -> Iterator[str]:
    """Start the server, point this process's Prefect at it, stop it at the end."""
    import prefect
    from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

    port = _free_port()
    url = f"http://127.0.0.1:{port}/api"
    command = [
        sys.executable, "-m", "uvicorn", "--app-dir", str(prefect.__module_path__.parent),
        "--factory", "prefect.server.api.server:create_app", "--host", "127.0.0.1",
        "--port", str(port), "--log-level", "error", "--lifespan", "on",
    ]  # fmt: skip
    env = {
        **os.environ,
        **get_current_settings().to_environment_variables(exclude_unset=True),
        "PREFECT_UI_ENABLED": "0",
        "PREFECT__SERVER_EPHEMERAL": "1",
        "PREFECT__SERVER_FINAL": "1",
    }
    with open(os.devnull, "wb") as sink:
        proc, lifeline = start_guarded(command, grace=STOP_GRACE_S, env=env, stdout=sink)
    try:
        _wait_healthy(url, proc)
        log.info("Prefect: a temporary API server at %s", url)
        with temporary_settings({PREFECT_API_URL: url}):
            yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=2 * STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(lifeline)
