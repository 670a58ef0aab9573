"""One command in a child process, measured: wall time, the CPU time of its whole process tree,
the peak resident memory of its largest process and of the tree, and the files it wrote.

CPU comes from the kernel (``os.wait4``: the child's own usage and that of every descendant it
waited for, as decode pools are); the peaks are sampled (``psutil``, every ``SAMPLE_S``), so
they can miss a spike shorter than that. (The kernel's ``ru_maxrss`` is no measure here: a
forked child's counts its parent's size at the fork.)
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

from bench.ingest import machine_busy_s

SAMPLE_S = 0.1
MIB = 1024 * 1024

Snapshot = dict[str, tuple[int, int]]  # relative path -> (size, mtime in ns)


@dataclass(frozen=True)
class Measured:
    wall_s: float
    cpu_s: float
    largest_rss_mib: float  # the largest process's peak
    tree_rss_mib: float  # the peak of the tree's summed resident memory, sampled
    machine_cpu_s: float  # by every process on the machine meanwhile, this one's included
    written: dict[str, int]  # files added or changed under the watched folder -> bytes

    @property
    def written_bytes(self) -> int:
        return sum(self.written.values())


def snapshot(folder: Path) -> Snapshot:
    found: Snapshot = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            stat = path.stat()
            found[path.relative_to(folder).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return found


def _rss(process: psutil.Process) -> list[int]:
    """The RSS of ``process`` and of each of its descendants."""
    found = []
    for member in [process, *process.children(recursive=True)]:
        try:
            found.append(member.memory_info().rss)
        except psutil.Error:  # ended between the listing and the reading
            continue
    return found


class _TreeSampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak = 0  # of the tree's sum
        self.largest = 0  # of one process
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(SAMPLE_S):
            try:
                sizes = _rss(self.process)
            except psutil.Error:  # the child has ended
                return
            self.peak = max(self.peak, sum(sizes))
            self.largest = max([self.largest, *sizes])


class CommandFailed(RuntimeError):
    """The measured command exited with an error; the message names its log."""


def measure(command: list[str], log: Path, watch: Path, cwd: Path) -> Measured:
    """Run ``command`` in ``cwd`` (stdout and stderr to ``log``) and measure it; ``watch`` is
    the folder whose new and changed files it is credited with."""
    before = snapshot(watch)
    log.parent.mkdir(parents=True, exist_ok=True)
    started, busy = time.perf_counter(), machine_busy_s()
    with log.open("wb") as sink:
        child = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, cwd=cwd)
        sampler = _TreeSampler(child.pid)
        sampler.start()
        _, status, usage = os.wait4(child.pid, 0)
    wall, machine = time.perf_counter() - started, machine_busy_s() - busy
    sampler.stop.set()
    sampler.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise CommandFailed(f"{' '.join(command[-6:])} exited with {child.returncode}; see {log}")
    after = snapshot(watch)
    written = {
        path: size for path, (size, mtime) in after.items() if before.get(path) != (size, mtime)
    }
    return Measured(
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        largest_rss_mib=sampler.largest / MIB,
        tree_rss_mib=sampler.peak / MIB,
        machine_cpu_s=machine,
        written=written,
    )
