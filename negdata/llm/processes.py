"""The local server's processes: started under a watchdog as a process group of their own, which
cannot outlive negdata, and stopped as a group."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO

import psutil

WATCHDOG_SCRIPT = Path(__file__).with_name("watchdog.py")
KILL_WAIT_S = 5.0  # how long SIGKILLed processes get to disappear


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
