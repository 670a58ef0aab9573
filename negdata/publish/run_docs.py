"""Write the data card (``README.md``) and the report (``report.html``) of a run.

At the end of every run, after stats.json, and by ``negdata report RUN``. Each file is published
atomically, and only when its text changed, so a rerun that does nothing changes no file.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from negdata.config import Config
from negdata.publish.card import dataset_card
from negdata.publish.report_html import render_report
from negdata.publish.run_facts import run_facts
from negdata.shards import Location, write_if_changed

log = logging.getLogger(__name__)

CARD = "README.md"
REPORT = "report.html"


def write_run_docs(cfg: Config, summary: dict[str, Any], contents_limit: int) -> list[Location]:
    """Write both files into the output folder; returns their paths."""
    started = time.monotonic()
    facts = run_facts(cfg, summary, contents_limit)
    out = cfg.run.output_dir
    written: list[Location] = []
    for name, text in ((CARD, dataset_card(facts)), (REPORT, render_report(facts))):
        path = out / name
        write_if_changed(path, text)
        written.append(path)
    log.info(
        "data card and report written to %s (%d gallery images, %.1f s)",
        out,
        len(facts.gallery),
        time.monotonic() - started,
    )
    return written
