"""Retrying a finished shard's transient failures merges the recovered rows, touching no other."""

from __future__ import annotations

import http.server
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow.parquet as pq
import pytest
import yaml
from PIL import Image

from negdata.config import Config, LLMConfig
from negdata.ingest.stage import run_ingest
from negdata.pipeline import retry_failed_ingest, run_stage
from negdata.shards import stats_path, write_stats
from negdata.stages import STAGES
from negdata.wds import read_tar

if TYPE_CHECKING:
    from tests.conftest import PrefectServer, Reply, Respond


def _jpeg(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (192, 128), color).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def flaky_server(loopback_http: Callable[[Respond], str]) -> tuple[str, dict[str, Any]]:
    """A real loopback server: /flaky.jpg answers 503 while ``state["down"]``; /gone.jpg is 404."""
    state: dict[str, Any] = {"down": True, "hits": {}}
    images = {"/ok.jpg": _jpeg("red"), "/flaky.jpg": _jpeg("blue")}

    def respond(request: http.server.BaseHTTPRequestHandler) -> Reply:
        path = request.path.split("?", 1)[0]
        state["hits"][path] = state["hits"].get(path, 0) + 1
        if (path == "/flaky.jpg" and state["down"]) or path not in images:
            return (503 if path == "/flaky.jpg" else 404), b"", {}
        return 200, images[path], {"Content-Type": "image/jpeg"}

    return loopback_http(respond), state


def _raw(tmp_path: Path, rows: str, **ingest: Any) -> dict[str, Any]:
    """A config over the TSV ``rows`` (one shard) that may fetch from the loopback server."""
    tsv = tmp_path / "in.tsv"
    tsv.write_text(rows)
    return {
        "run": {"output_dir": str(tmp_path / "run")},
        "input": {"path": str(tsv), "samples_per_shard": 10},
        "ingest": {"workers": 1, "allowed_hosts": ["127.0.0.1"], **ingest},
        "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "labels.json")}]},
    }


def test_retry_fetches_only_transient_failures_and_merges_them_in_order(
    tmp_path: Path, flaky_server: tuple[str, dict[str, Any]]
) -> None:
    base, state = flaky_server
    rows = f"{base}/ok.jpg\ta red photo\n{base}/flaky.jpg\ta blue photo\n{base}/gone.jpg\tdeleted\n"
    cfg = Config.model_validate(_raw(tmp_path, rows, image_size=64, retries=0))
    first = run_stage(cfg, STAGES[0], 0)
    detected = cfg.run.output_dir / "evidence"
    write_stats(detected, 0, "h", {})  # a later stage that saw the shard before the retry
    shards = cfg.run.output_dir / "shards"
    ok_before = next(read_tar(shards / "00000.tar"))
    assert first["failures_by_reason"] == {"http_error": 2}

    state["down"] = False
    hits_before = dict(state["hits"])
    again = retry_failed_ingest(cfg, 0)

    assert again["retried"] == 1 and again["successes"] == 2
    assert again["failures_by_reason"] == {"http_error": 1}  # the 404 is not retried
    assert state["hits"]["/flaky.jpg"] == hits_before["/flaky.jpg"] + 1
    assert state["hits"]["/ok.jpg"] == hits_before["/ok.jpg"]
    assert state["hits"]["/gone.jpg"] == hits_before["/gone.jpg"]
    samples = list(read_tar(shards / "00000.tar"))
    assert [s["__key__"] for s in samples] == ["000000000", "000000001"]
    assert samples[0] == ok_before  # the row that had succeeded is carried over untouched
    rows = pq.read_table(shards / "00000.parquet").to_pylist()
    assert [r["status"] for r in rows] == ["success", "success", "failed"]
    assert not stats_path(detected, 0).exists()  # detect will see the recovered image


def test_dedup_keeps_the_first_copy_of_an_image(
    tmp_path: Path, flaky_server: tuple[str, dict[str, Any]]
) -> None:
    base, _ = flaky_server
    rows = f"{base}/ok.jpg\ta red photo\n{base}/ok.jpg?mirror=1\tthe same photo again\n"
    cfg = Config.model_validate(_raw(tmp_path, rows, dedup=True))

    stats = run_ingest(cfg, 0, "h")

    assert stats["successes"] == 1 and stats["failures_by_reason"] == {"duplicate_image": 1}
    rows = pq.read_table(cfg.run.output_dir / "shards" / "00000.parquet").to_pylist()
    assert rows[1]["error_message"] == "duplicate_image: same image as 000000000"


def test_retry_with_nothing_transient_changes_nothing(
    tmp_path: Path, flaky_server: tuple[str, dict[str, Any]]
) -> None:
    base, _ = flaky_server
    rows = f"{base}/ok.jpg\ta red photo\n{base}/gone.jpg\tdeleted\n"
    cfg = Config.model_validate(_raw(tmp_path, rows))
    run_stage(cfg, STAGES[0], 0)
    detected = cfg.run.output_dir / "evidence"
    write_stats(detected, 0, "h", {})
    shards = cfg.run.output_dir / "shards"
    before = {p.name: p.stat().st_mtime_ns for p in shards.iterdir()}

    again = retry_failed_ingest(cfg, 0)

    assert (again["retried"], again["recovered"]) == (0, 0)  # a 404 is not transient
    assert {p.name: p.stat().st_mtime_ns for p in shards.iterdir()} == before
    assert stats_path(detected, 0).exists()  # later stages keep their work


def test_the_flow_retries_then_redoes_the_later_stages_of_that_shard(
    tmp_path: Path,
    flaky_server: tuple[str, dict[str, Any]],
    vllm_server: LLMConfig,
    prefect_api: PrefectServer,
) -> None:
    from flows.generate import generate

    base, state = flaky_server
    rows = (
        f"{base}/ok.jpg\ta red photo of a cat\n{base}/flaky.jpg\ta blue photo of a dog\n"
        f"{base}/gone.jpg\ta deleted photo\n"
    )
    raw = _raw(tmp_path, rows, image_size=64, retries=0)
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({f"{base}/ok.jpg": ["cat"], f"{base}/flaky.jpg": ["dog"]}))
    raw["llm"] = {**vllm_server.model_dump(mode="json"), "local": False}
    raw["plan"] = {"vocabulary_fill": True}
    raw["compose"] = {"template_fallback": True, "prompts_dir": str(Path("prompts").resolve())}
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    first = generate(shards="0", config=str(config))
    assert first["stages"]["ingest"]["successes"] == 1
    assert first["stages"]["detect"]["count"] == 1

    state["down"] = False
    again = generate(shards="0", config=str(config), retry_failed=True)

    assert (again["this_run"]["retried"], again["this_run"]["recovered"]) == (1, 1)
    assert again["this_run"]["ran"] == [
        "compose/00000", "detect/00000", "plan/00000", "publish/00000",
    ]  # fmt: skip
    assert again["this_run"]["skipped"] == ["ingest/00000"]
    assert again["stages"]["ingest"]["successes"] == 2
    assert again["stages"]["detect"]["count"] == 2  # the recovered image went through
    evidence = pq.read_table(tmp_path / "run" / "evidence" / "00000.parquet").to_pylist()
    assert [e["key"] for e in evidence] == ["000000000", "000000001"]

    last = generate(shards="0", config=str(config), retry_failed=True)
    assert (last["this_run"]["retried"], last["this_run"]["ran"]) == (0, [])  # the 404 stays
