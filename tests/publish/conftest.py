"""A finished run for the data card and report tests (``bench/synthetic_run.py``), and the
paths of the report screenshots, which the end of pytest's output lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.synthetic_run import build_run
from negdata.config import Config
from negdata.pipeline import summarize

IMAGES = 30  # more than the gallery's 24, over 4 shards of 8
SCREENSHOTS: list[Path] = []


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Config, dict[str, Any]]:
    """A synthetic run's config and its summary, written as a run's end writes it."""
    cfg = build_run(tmp_path_factory.mktemp("run"), IMAGES, samples_per_shard=8)
    return cfg, summarize(cfg)


@pytest.fixture(scope="session")
def screenshots() -> list[Path]:
    """Where a test puts the path of each screenshot it keeps (listed at the end)."""
    return SCREENSHOTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SCREENSHOTS:
        terminalreporter.section("report screenshots")
        for path in SCREENSHOTS:
            terminalreporter.write_line(str(path))
