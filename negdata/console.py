"""What a person running negdata sees: log lines on stderr, and one line for every mistake.

``main_guard`` wraps a command-line entry point: any error ends the program with one line,
``negdata: <what was wrong>``, and a non-zero exit; ``--debug`` shows the traceback and debug
logs instead. Prefect's own run loggers repeat every failure with two tracebacks, so they are
quietened unless debugging.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from typing import NoReturn

from tqdm import tqdm

from negdata import __version__
from negdata.shards import ShardError

# Errors that describe a mistake in what the user asked for or set up, not a bug: their
# message alone says what to change. negdata's own error classes are written that way too.
USER_ERRORS: tuple[type[BaseException], ...] = (ValueError, OSError)
EXIT_ERROR = 1
EXIT_USAGE = 2
PREFECT_RUN_LOGGERS = ("prefect.flow_runs", "prefect.task_runs")

VERSION = f"negdata {__version__}"


class Parser(argparse.ArgumentParser):
    """argparse, with a usage mistake said in one line (``--help`` shows the usage)."""

    def error(self, message: str) -> NoReturn:
        print(f"negdata: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """``--version`` and ``--debug``, which every negdata command has."""
    parser.add_argument("--version", action="version", version=VERSION)
    parser.add_argument("--debug", action="store_true", help="debug logs and error tracebacks")


class _Handler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes through tqdm on a terminal, so that log lines do not tear the progress bars.
    A line and its newline go in one write: a stop (negdata/stopping.py) may silence stderr
    between two writes, and its one line must not follow half of another."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            tqdm.write(self.format(record) + "\n", file=sys.stderr, end="")
        except Exception:
            self.handleError(record)


class _Formatter(logging.Formatter):
    """The time and the message; warnings and errors say so."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        if record.levelno < logging.WARNING:
            return line
        time, _, message = line.partition(" ")
        return f"{time} {record.levelname.lower()}: {message}"


def setup_logging(debug: bool = False) -> None:
    """For a command run from a shell: negdata's log lines on stderr with the time; debug lines
    and Prefect's run logs only with ``debug``."""
    root = logging.getLogger("negdata")
    root.handlers[:] = [_stderr_handler()]
    root.setLevel(logging.DEBUG if debug else logging.INFO)
    root.propagate = False
    for name in PREFECT_RUN_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET if debug else logging.CRITICAL)


def log_to_stderr() -> None:
    """Make sure negdata's info lines are shown: in a flow run that a Prefect worker started,
    Prefect's console handler shows them (and, with ``PREFECT_LOGGING_EXTRA_LOGGERS=negdata``,
    its UI); where nothing would, they go to stderr as ``setup_logging`` shows them."""
    root = logging.getLogger("negdata")
    if root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    if not root.handlers and not logging.getLogger().handlers:
        root.addHandler(_stderr_handler())


def _stderr_handler() -> logging.Handler:
    handler = _Handler()
    handler.setFormatter(_Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    return handler


def one_line(exc: BaseException) -> str:
    """The error's first line (a server's log tail, say, follows only with --debug), led by
    its type unless it is a user mistake or one of negdata's own errors."""
    refused = _refused_by_prefect(exc)
    if refused:
        return refused
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = lines[0] if lines else type(exc).__name__
    if isinstance(exc, USER_ERRORS) or type(exc).__module__.startswith("negdata."):
        return text
    return f"{type(exc).__name__}: {text} (rerun with --debug for the traceback)"


def _refused_by_prefect(exc: BaseException) -> str | None:
    """What to do when the Prefect server at ``PREFECT_API_URL`` refused our credentials."""
    import httpx  # Prefect's client errors are httpx's

    api = os.environ.get("PREFECT_API_URL", "").rstrip("/")
    if not api or not isinstance(exc, httpx.HTTPStatusError):
        return None
    status = exc.response.status_code
    if status not in (401, 403) or not str(exc.request.url).startswith(api):
        return None
    refused = f"the Prefect server at {api} refused"
    if os.environ.get("PREFECT_API_AUTH_STRING"):
        named = "NEGDATA_PREFECT_AUTH" if os.environ.get("NEGDATA_PREFECT_AUTH") else None
        where = named or "PREFECT_API_AUTH_STRING"
        return (
            f"{refused} the credentials in {where} (HTTP {status}): set it to the server's "
            "user:password (its PREFECT_SERVER_API_AUTH_STRING)"
        )
    if os.environ.get("NEGDATA_PREFECT_AUTH"):
        return (
            f"{refused} a client without credentials (HTTP {status}): NEGDATA_PREFECT_AUTH is "
            "set, but only make's targets pass it on; outside make, export "
            'PREFECT_API_AUTH_STRING="$NEGDATA_PREFECT_AUTH" (or use make prefect ARGS=...)'
        )
    return (
        f"{refused} a client without credentials (HTTP {status}): set NEGDATA_PREFECT_AUTH "
        "(for make's targets) or PREFECT_API_AUTH_STRING to the server's user:password"
    )


@contextlib.contextmanager
def main_guard(debug: bool) -> Iterator[None]:
    """End the program with one line and a non-zero exit on any error (unless ``debug``): 2 for
    a usage mistake (a ``--shards`` selection that is malformed or past the input), else 1."""
    try:
        yield
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:
        if debug:
            raise
        print(f"negdata: {one_line(exc)}", file=sys.stderr)
        sys.exit(EXIT_USAGE if isinstance(exc, ShardError) else EXIT_ERROR)
