"""The local server's processes: started under a watchdog as a process group of their own, which
cannot outlive negdata; stopped as a group; recognised on their port after a dead run.

The group inherits three environment variables, which psutil reads back from the process that
listens on the port: ``NEGDATA_LLM_SERVER`` (the port), ``NEGDATA_LLM_OWNER`` (the pid of the
negdata process that started the server) and ``NEGDATA_LLM_OWNER_STARTED`` (that process's
start time, so that a reused pid is not taken for the owner).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import psutil

WATCHDOG_SCRIPT = Path(__file__).with_name("watchdog.py")
MARK_PORT = "NEGDATA_LLM_SERVER"
MARK_OWNER = "NEGDATA_LLM_OWNER"
MARK_OWNER_STARTED = "NEGDATA_LLM_OWNER_STARTED"
KILL_WAIT_S = 5.0  # how long SIGKILLed processes get to disappear
START_TIME_SLACK_S = 1.0  # start times read twice may differ by rounding


def owner_marks(port: int) -> dict[str, str]:
    """The environment marks of a server on ``port`` started by this process."""
    me = psutil.Process()
    return {
        MARK_PORT: str(port),
        MARK_OWNER: str(me.pid),
        MARK_OWNER_STARTED: repr(me.create_time()),
    }


def start_guarded(
    command: list[str], *, grace: float, env: Mapping[str, str], stdout: IO[bytes]
) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``command`` under the watchdog, which leads a new session and process group.

    Returns the watchdog's process (its pid is the group id) and the write end of its lifeline
    pipe, which only this process holds: closing it, or dying, stops the server."""
    lifeline_read, lifeline_write = os.pipe()
    watchdog = [sys.executable, str(WATCHDOG_SCRIPT), str(os.getpid()), str(lifeline_read)]
    try:
        proc = subprocess.Popen(
            [*watchdog, str(grace), "--", *command],
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.STDOUT,
            env=dict(env),
            start_new_session=True,
            pass_fds=(lifeline_read,),
        )
    except BaseException:
        os.close(lifeline_write)
        raise
    finally:
        os.close(lifeline_read)
    return proc, lifeline_write


def group_members(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (zombies count as gone)."""
    found = []
    for proc in psutil.process_iter(["status"]):
        if proc.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        with contextlib.suppress(OSError):
            if os.getpgid(proc.pid) == pgid:
                found.append(proc.pid)
    return found


def stop_group(pgid: int, grace: float) -> bool:
    """SIGTERM process group ``pgid``, SIGKILL what is left after ``grace`` seconds, and wait
    until it is gone; True when something had to be killed."""
    if pgid <= 1 or pgid == os.getpgrp():
        raise ValueError(f"refusing to stop process group {pgid}")
    deadline = time.monotonic() + grace
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGTERM)
    while group_members(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if not group_members(pgid):
        return False
    deadline = time.monotonic() + KILL_WAIT_S
    while group_members(pgid) and time.monotonic() < deadline:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        time.sleep(0.1)
    return True


def port_listener(port: int) -> psutil.Process | None:
    """The process listening on TCP ``port`` of this machine, if psutil can tell."""
    try:
        connections = psutil.net_connections(kind="inet")
    except psutil.AccessDenied:  # macOS without root: ask process by process
        for proc in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if any(_listens(c, port) for c in proc.net_connections(kind="inet")):
                    return proc
        return None
    for conn in connections:
        if conn.pid and _listens(conn, port):
            with contextlib.suppress(psutil.Error):
                return psutil.Process(conn.pid)
    return None


def _listens(conn: Any, port: int) -> bool:
    return conn.status == psutil.CONN_LISTEN and bool(conn.laddr) and conn.laddr.port == port


@dataclass(frozen=True)
class Owner:
    """The negdata process that started a server, and whether it still runs."""

    pid: int
    alive: bool


def server_owner(proc: psutil.Process, port: int) -> Owner | None:
    """Who started ``proc`` as negdata's server on ``port``, from the marks it carries; None
    when it carries none (not negdata's server), or they cannot be read."""
    try:
        env = proc.environ()
    except psutil.Error:
        return None
    if env.get(MARK_PORT) != str(port):
        return None
    try:
        pid, started = int(env[MARK_OWNER]), float(env[MARK_OWNER_STARTED])
    except (KeyError, ValueError):
        return None
    return Owner(pid, _runs(pid, started))


def _runs(pid: int, started: float) -> bool:
    """Whether process ``pid`` that started at ``started`` still runs (not a reused pid)."""
    try:
        proc = psutil.Process(pid)
        same: bool = abs(proc.create_time() - started) < START_TIME_SLACK_S
        return same and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
    except psutil.Error:  # cannot tell: never take a live owner's server away
        return True
