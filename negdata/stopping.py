"""Stop within seconds on SIGTERM or Ctrl-C, keeping finished work and saying how to resume.

Every stage publishes its files whole and its done marker last, so a run may stop at any
moment: what is finished is on disk, what is in flight is redone by the next run. A stop
therefore does not wait for work in flight. It ends this process's children (the decode
workers, Prefect's temporary server, the LLM server with its own processes), removes the
temporary files of writes in progress, gives back the shard leases it holds (a rerun need not
wait for them to expire), prints one line (what was finished, how to resume) and
exits with 128 + the signal number; nothing else this process would print meanwhile is shown.
A second signal during the stop exits at once.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType

import psutil

from negdata.leases import release_held
from negdata.shards import remove_unfinished

CHILD_GRACE_S = 2.0  # children get this long to exit on SIGTERM before they are killed
CHILD_ROUNDS = 3
HOOK_TIMEOUT_S = 3.0
SIGNALS = (signal.SIGINT, signal.SIGTERM)
# Set once a stop begins: code that would start a process (a decode pool) refuses, so no child
# starts after the stop has looked for them and outlives this process.
STOPPING = threading.Event()


def stop_children(grace: float = CHILD_GRACE_S) -> None:
    """SIGTERM every descendant of this process (the whole group of one that leads its own
    process group, like the LLM server), then SIGKILL whatever is left after ``grace``."""
    me = psutil.Process()
    # A thread may still be starting a child (a decode pool grows on demand) while the first
    # ones are stopped: look again until none is left, so none outlives this process.
    for _ in range(CHILD_ROUNDS):
        children = me.children(recursive=True)
        if not children:
            return
        _stop(children, grace)


def _stop(children: list[psutil.Process], grace: float) -> None:
    groups = {c.pid for c in children if _leads_group(c.pid)}
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pgid in groups:
            _signal_group(pgid, sig)
        for child in children:
            with contextlib.suppress(psutil.Error):
                child.send_signal(sig)
        _, children = psutil.wait_procs(children, timeout=grace)
        groups = {pgid for pgid in groups if _signal_group(pgid, 0)}
        if not children and not groups:
            return


def _leads_group(pid: int) -> bool:
    try:
        return os.getpgid(pid) == pid
    except ProcessLookupError:
        return False


def _signal_group(pgid: int, sig: int) -> bool:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def ignore_interrupts() -> None:
    """For worker processes: Ctrl-C reaches the whole terminal's process group, and the parent
    alone decides how to stop (a worker would print a KeyboardInterrupt traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _hold_log_handlers() -> None:
    """Let the log lines being written end and keep any more from starting, so that none
    follows the stop's one line: a line written before stderr was silenced may still be in
    ``write()``, blocked on a full pipe (for at most ``HOOK_TIMEOUT_S``: a pipe nobody reads
    never drains). Never released: the process exits."""
    for name in ("negdata", None):
        for handler in logging.getLogger(name).handlers:
            if handler.lock is not None:
                handler.lock.acquire(timeout=HOOK_TIMEOUT_S)


def _silence_stderr() -> int:
    """Point this process's stderr at /dev/null; returns a descriptor of the real one."""
    real = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    return real


def stop_on_signals(
    describe: Callable[[], str], before_exit: Callable[[str], None] | None = None
) -> None:
    """From now on, SIGINT and SIGTERM stop the process within seconds; ``describe()`` says
    what was finished, for the one line printed at the end. ``before_exit(reason)`` runs first
    (at most ``HOOK_TIMEOUT_S``), to tell an orchestrator. Call from the main thread."""
    stopping = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        if stopping.is_set():
            os._exit(128 + signum)
        stopping.set()
        STOPPING.set()
        name = signal.Signals(signum).name
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        stderr = _silence_stderr()  # threads that lose their peers would print tracebacks
        if before_exit is not None:
            _bounded(before_exit, f"stopped by {name}")
        stop_children()
        remove_unfinished()
        release_held()
        _hold_log_handlers()
        line = (
            f"negdata: stopped by {name}; {describe()}; in-flight work was dropped and finished "
            "work is kept: rerun the same command to resume\n"
        )
        os.write(stderr, line.encode())
        os._exit(128 + signum)

    for sig in SIGNALS:
        signal.signal(sig, handler)


def _bounded(hook: Callable[[str], None], reason: str) -> None:
    """Run ``hook(reason)`` in a thread for at most ``HOOK_TIMEOUT_S``; its errors are ignored:
    the stop goes on whatever an orchestrator answers."""

    def run() -> None:
        with contextlib.suppress(Exception):
            hook(reason)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HOOK_TIMEOUT_S)
