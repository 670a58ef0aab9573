"""The process's worker pool: its workers never see Ctrl-C, from the first moment of their start
(a Ctrl-C to the terminal's process group while one starts printed a KeyboardInterrupt
traceback from inside multiprocessing's bootstrap), and never run the parent's main module."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

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


MAIN = """
import os
with open(os.environ["IMPORTS"], "a") as log:
    log.write(__name__ + "\\n")
if __name__ == "__main__":
    import multiprocessing
    from negdata.workers import forget, worker_pool
    assert list(worker_pool(2).map(abs, range(-4, 0))) == [4, 3, 2, 1]
    forget(2)
    with multiprocessing.get_context("spawn").Pool(1) as plain:
        plain.apply(os.getpid)
"""


def test_a_worker_does_not_run_the_parents_main_module(tmp_path: Path) -> None:
    """A flow run's main module imports Prefect and every stage; multiprocessing's own spawn
    runs it again in each child (the plain pool, once), negdata's workers never."""
    script, imports = tmp_path / "flow_like.py", tmp_path / "imports.txt"
    script.write_text(MAIN)
    done = subprocess.run(
        [sys.executable, str(script)], env={**os.environ, "IMPORTS": str(imports)},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert imports.read_text().split() == ["__main__", "__mp_main__"]
