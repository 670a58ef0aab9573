"""Run a server so that it cannot outlive the process that started it.

Standalone (stdlib and psutil, nothing heavy): negdata runs it by path under its own python as
the leader of a new session, with the server command after ``--``::

    python watchdog.py OWNER_PID LIFELINE_FD GRACE_S -- COMMAND...

It starts COMMAND as its child, in the watchdog's process group, and holds the read end of a pipe
(LIFELINE_FD) whose write end only the owner holds. It stops the server when the pipe reaches
end-of-file or it is no longer the owner's child (the owner died, however: SIGKILL included),
when it receives SIGTERM, SIGINT or SIGHUP, or when the server exits by itself. Stopping sends
SIGTERM to the whole group (the server's own children included), and SIGKILL to whatever is
still there GRACE_S seconds later. It then exits with the server's exit code (128 + N for a
server ended by signal N).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from types import FrameType

import psutil

POLL_S = 0.5  # how often the owner is checked, besides the lifeline pipe and signals
KILL_WAIT_S = 5.0  # how long SIGKILLed processes get to disappear


def _say(message: str) -> None:
    print(f"negdata watchdog {os.getpid()}: {message}", file=sys.stderr, flush=True)


def _others() -> list[int]:
    """The live processes of this process group other than the watchdog (zombies are gone)."""
    group, me = os.getpgrp(), os.getpid()
    found = []
    for proc in psutil.process_iter(["status"]):
        if proc.pid == me or proc.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        with contextlib.suppress(OSError):
            if os.getpgid(proc.pid) == group:
                found.append(proc.pid)
    return found


def _stop(server: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM the group, let every member exit, SIGKILL whatever remains after ``grace``."""
    deadline = time.monotonic() + grace
    os.killpg(os.getpgrp(), signal.SIGTERM)  # reaches the watchdog too, which only notes it
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=grace)
    while _others() and time.monotonic() < deadline:
        time.sleep(0.1)
    leftover = _others()
    if leftover:
        _say(f"{len(leftover)} process(es) still running {grace:.0f} s after SIGTERM; killing")
    deadline = time.monotonic() + KILL_WAIT_S
    while leftover and time.monotonic() < deadline:
        for pid in leftover:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
        leftover = _others()
    server.wait()


def _watch(
    server: subprocess.Popen[bytes], owner: int, lifeline: int, wake: int, received: list[int]
) -> None:
    """Return once the server has exited, a stop signal came, or the owner is gone."""
    reason = ""
    while not reason:
        if server.poll() is not None:
            reason = f"the server exited with code {server.returncode}"
        elif received:
            reason = f"received {signal.Signals(received[0]).name}"
        elif os.getppid() != owner:
            reason = f"owner {owner} is gone"
        else:
            ready, _, _ = select.select([lifeline, wake], [], [], POLL_S)
            if wake in ready:
                os.read(wake, 512)
            if lifeline in ready and not os.read(lifeline, 512):
                reason = f"owner {owner} closed the lifeline"
    _say(f"{reason}; stopping the server's process group")


def watch(owner: int, lifeline: int, grace: float, command: list[str]) -> int:
    """Run ``command`` until it exits or the owner goes; the server's exit code."""
    received: list[int] = []

    def _note(signum: int, frame: FrameType | None) -> None:
        if signum != signal.SIGCHLD:
            received.append(signum)

    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)  # a signal wakes the select below at once
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(signum, _note)
    server = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    _watch(server, owner, lifeline, wake_read, received)
    _stop(server, grace)
    code = server.returncode
    return code if code >= 0 else 128 - code


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[3] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    return watch(int(argv[0]), int(argv[1]), float(argv[2]), argv[4:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
