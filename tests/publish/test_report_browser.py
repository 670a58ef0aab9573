"""report.html in a real headless browser: Debian's chromium (``make test`` installs it) driven by
Playwright, which never downloads a browser of its own here. The page is opened from disk, a
full-page screenshot is kept (its path is listed at the end of pytest's output), and what the
page shows is checked against the run's files."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from PIL import Image
from playwright.sync_api import Page, sync_playwright

from negdata.config import Config

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="module")
def page(
    finished_run: tuple[Config, Any],
    tmp_path_factory: pytest.TempPathFactory,
    screenshots: list[Path],
) -> Iterator[tuple[Page, list[str], Path]]:
    """The report open in chromium with every request it made, and its screenshot."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("chromium is not installed: `make test` installs it (apt-get install chromium)")
    folder = tmp_path_factory.mktemp("browser")
    report = Path(finished_run[0].run.output_dir.path) / "report.html"
    requests: list[str] = []
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            folder / "profile",  # a fresh --user-data-dir
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1200, "height": 900},
        )
        context.on("request", lambda request: requests.append(request.url))
        tab = context.new_page()
        tab.goto(report.as_uri(), wait_until="load")
        screenshot = folder / "report.png"
        tab.screenshot(path=str(screenshot), full_page=True)
        screenshots.append(screenshot)
        yield tab, requests, screenshot
        context.close()


def test_the_page_is_titled_for_the_run(page: tuple[Page, Any, Any]) -> None:
    assert page[0].title() == "negdata report: out"


def test_the_funnel_shows_the_counts_of_stats_json(
    page: tuple[Page, Any, Any], finished_run: tuple[Config, Any]
) -> None:
    stats = json.loads((finished_run[0].run.output_dir / "stats.json").read_text())
    rows = page[0].eval_on_selector_all(
        ".funnel .row",
        "rows => rows.map(r => [r.dataset.statsKey, r.querySelector('.num').textContent])",
    )
    assert len(rows) == 8
    for key, shown in rows:
        value: Any = stats
        for part in key.split("."):
            value = value[part]
        assert int(shown) == value, key


def test_gallery_images_load_with_their_boxes(
    page: tuple[Page, Any, Any], finished_run: tuple[Config, Any]
) -> None:
    tab = page[0]
    widths = tab.eval_on_selector_all(".item img", "imgs => imgs.map(i => i.naturalWidth)")
    assert len(widths) == finished_run[0].report.gallery_images == 24  # of 30 images
    assert all(w > 0 for w in widths)
    cfg, out = finished_run[0], finished_run[0].run.output_dir
    boxes = {  # only boxes at t_present are drawn: a person at 0.05 on a cat is no person
        row["key"]: sum(b["score"] >= cfg.detect.t_present for b in row["boxes"])
        for row in pq.read_table(sorted((out / "evidence").glob("*.parquet"))).to_pylist()
    }
    drawn = tab.eval_on_selector_all(
        ".item", "items => items.map(i => [i.dataset.key, i.querySelectorAll('rect.box').length])"
    )
    assert {key: n for key, n in drawn} == {key: boxes[key] for key, _ in drawn}
    assert sum(n for _, n in drawn) > 0
    visible = tab.eval_on_selector("rect.box", "r => r.getBoundingClientRect().width")
    assert visible > 0


def test_the_correct_mcq_answer_is_marked(
    page: tuple[Page, Any, Any], finished_run: tuple[Config, Any]
) -> None:
    out = finished_run[0].run.output_dir
    questions = {
        row["image_key"]: row
        for row in pq.read_table(sorted((out / "negmcq").glob("*/*.parquet"))).to_pylist()
    }
    marked = page[0].eval_on_selector_all(
        ".item",
        "items => items.filter(i => i.querySelector('.question')).map(i => "
        "[i.dataset.key, [...i.querySelectorAll('.mcq li')].map(li => li.className), "
        "i.querySelector('.mcq li.correct').textContent])",
    )
    assert marked
    for key, classes, text in marked:
        right = questions[key]["correct_answer"]
        assert classes.index("correct") == right and classes.count("correct") == 1
        assert text == questions[key][f"caption_{right}"]


def test_caption_markup_shows_as_text(page: tuple[Page, Any, Any]) -> None:
    tab = page[0]
    assert tab.evaluate("document.scripts.length") == 0
    assert tab.evaluate("document.querySelectorAll('.orig b').length") == 0
    texts = tab.eval_on_selector_all(".orig", "ps => ps.map(p => p.textContent)")
    assert '<script>alert("caption")</script> a <b>bold</b> cat & "friends"' in texts


def test_the_page_requests_nothing_but_itself(page: tuple[Page, list[str], Any]) -> None:
    tab, requests, _ = page
    assert [url for url in requests if url != tab.url and not url.startswith("data:")] == []


def test_the_screenshot_is_not_blank(page: tuple[Page, Any, Path]) -> None:
    image = Image.open(page[2]).convert("RGB")
    assert image.height > 900  # the full page, not the viewport
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 1000
