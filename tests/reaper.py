"""Nothing a test session started outlives it, however pytest ends (SIGKILL and the OOM killer
included).

``pytest_configure`` (tests/conftest.py) marks the session's environment with
``NEGDATA_TEST_SESSION=<a fresh id>`` and starts this script, standalone (stdlib and psutil)::

    python tests/reaper.py MARK OWNER_PID LIFELINE_FD

It holds the read end of a pipe whose write end only pytest holds. When the pipe reaches
end-of-file or the reaper is no longer pytest's child (pytest has exited, whatever the way; a
child forked by pytest may still hold the pipe), it ends every process whose environment
carries the mark: what the session's fixtures and tests started and what those started in turn
(an environment is inherited), wherever they were reparented to. SIGTERM first, so that a
watchdog can stop its server's group; SIGKILL for whatever is left after a grace period.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

import psutil

MARK_ENV = "NEGDATA_TEST_SESSION"
GRACE_S = 3.0  # from SIGTERM to SIGKILL
POLL_S = 0.5  # how often the owner is checked, besides the lifeline
GIVE_UP_S = 60.0  # a process that keeps starting new ones is not chased for longer


def marked(mark: str) -> list[psutil.Process]:
    """The live processes, other than this one, whose environment carries ``mark``."""
    found = []
    me = os.getpid()
    for proc in psutil.process_iter():
        if proc.pid == me:
            continue
        with contextlib.suppress(psutil.Error, OSError):
            if proc.status() != psutil.STATUS_ZOMBIE and proc.environ().get(MARK_ENV) == mark:
                found.append(proc)
    return found


def _signal(procs: list[psutil.Process], signum: int) -> None:
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.send_signal(signum)


def reap(mark: str, grace: float = GRACE_S) -> None:
    """End every process marked ``mark``: SIGTERM, SIGKILL after ``grace``, until none is left
    (or ``GIVE_UP_S`` have passed)."""
    deadline = time.monotonic() + GIVE_UP_S
    left = marked(mark)
    _signal(left, signal.SIGTERM)
    until = time.monotonic() + grace
    while left and time.monotonic() < until:
        time.sleep(0.1)
        left = marked(mark)
    while left and time.monotonic() < deadline:
        _signal(left, signal.SIGKILL)
        time.sleep(0.1)
        left = marked(mark)


def start_reaper(mark: str) -> tuple[subprocess.Popen[bytes], int]:
    """Start the reaper for ``mark``; returns it and the lifeline's write end, which the caller
    keeps open for as long as it lives (and never passes to a child)."""
    read_end, write_end = os.pipe()
    env = {k: v for k, v in os.environ.items() if k != MARK_ENV}  # not one of its own victims
    try:
        proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), mark, str(os.getpid()), str(read_end)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            pass_fds=(read_end,),
            start_new_session=True,  # Ctrl-C in the terminal does not reach it
        )
    except BaseException:
        os.close(write_end)
        raise
    finally:
        os.close(read_end)
    return proc, write_end


def main(argv: list[str]) -> int:
    mark, owner, lifeline = argv[0], int(argv[1]), int(argv[2])
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)  # only the owner's end ends it
    while os.getppid() == owner:
        ready, _, _ = select.select([lifeline], [], [], POLL_S)
        if ready and not os.read(lifeline, 512):
            break
    reap(mark)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
