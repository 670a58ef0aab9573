"""The process's worker pool: its workers never see Ctrl-C, from the first moment of their start
(a Ctrl-C to the terminal's process group while one starts printed a KeyboardInterrupt
traceback from inside multiprocessing's bootstrap)."""

from __future__ import annotations

import signal

from negdata.workers import forget, worker_pool


def _interrupts() -> tuple[bool, object]:
    """Whether SIGINT is blocked in this process, and its handler."""
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(
        signal.SIGINT
    )


def test_a_worker_starts_with_ctrl_c_blocked_and_the_parent_keeps_it() -> None:
    try:
        blocked, handler = worker_pool(3).submit(_interrupts).result(timeout=120)
    finally:
        forget(3)
    assert blocked  # from the start: the mask it was started with
    assert handler == signal.SIG_IGN  # and ignored once its initializer ran
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # not the parent's
