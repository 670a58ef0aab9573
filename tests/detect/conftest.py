"""A real ingested shard of two photos that ship in packages, for tests of evidence sources."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from negdata.config import Config
from negdata.ingest.stage import run_ingest
from negdata.sample import package_file

BUS = package_file("ultralytics", "assets/bus.jpg")  # 810x1080, ingested at 384x512
COFFEE = package_file("skimage", "data/coffee.png")

IngestTwoPhotos = Callable[[dict[str, Any]], Config]


@pytest.fixture
def ingest_two_photos(tmp_path: Path) -> IngestTwoPhotos:
    """``ingest_two_photos(detect)``: shard 0 of the bus and the coffee photo, ingested under
    ``tmp_path / "out"`` with ``detect`` as the config's detect section."""

    def ingest(detect: dict[str, Any]) -> Config:
        (tmp_path / "in.tsv").write_text(f"{BUS.as_uri()}\ta bus\n{COFFEE.as_uri()}\tcoffee\n")
        cfg = Config.model_validate(
            {
                "run": {"output_dir": str(tmp_path / "out")},
                "input": {
                    "path": str(tmp_path / "in.tsv"),
                    "files_root": os.path.commonpath([BUS, COFFEE]),
                },
                "ingest": {"allow_file_urls": True},
                "detect": detect,
            }
        )
        run_ingest(cfg, 0, "h")
        return cfg

    return ingest
