"""Progress of long work: a bar on a terminal, a plain log line per step in a log file.

On a terminal each unit of work (a stage of a shard) gets a tqdm bar; several shards' bars stack
instead of overwriting each other, and finished bars are cleared. When stderr is not a terminal
(a log file, a cluster job, CI), bars would interleave their cursor codes, so instead a line is
logged at each ``LINE_STEP`` of the work reached at least ``LINE_GAP_S`` after the last line,
and every ``LINE_INTERVAL_S`` seconds of a long step; each stage logs its own line at the end.
"""

from __future__ import annotations

import logging
import sys
import time
from types import TracebackType

from tqdm import tqdm

log = logging.getLogger("negdata.progress")

LINE_STEP = 0.25  # off a terminal, a line each quarter of the work (when the last line is
LINE_GAP_S = 5.0  # at least this old: small units of work make no lines but their own) ...
LINE_INTERVAL_S = 30.0  # ... and each half minute of long steps


def on_terminal() -> bool:
    return sys.stderr.isatty()


class Progress:
    """``with Progress(total, "ingest 00003") as bar: ... bar.update()``."""

    def __init__(self, total: int, desc: str, *, line_gap_s: float = LINE_GAP_S) -> None:
        self.total = total
        self.desc = desc
        self.line_gap_s = line_gap_s
        self.done = 0
        self._last_line = time.monotonic()
        self._next_share = LINE_STEP
        self._bar = tqdm(total=total, desc=desc, leave=False) if on_terminal() else None

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
            return
        share = self.done / self.total if self.total else 1.0
        now = time.monotonic()
        since = now - self._last_line
        if self.done < self.total and (
            (share >= self._next_share and since >= self.line_gap_s) or since >= LINE_INTERVAL_S
        ):
            while self._next_share <= share:
                self._next_share += LINE_STEP
            self._last_line = now
            log.info("%s: %d/%d", self.desc, self.done, self.total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
