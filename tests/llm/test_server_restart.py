"""A vLLM server killed in the middle of a shard: the run waits, resumes on the restarted server
and finishes with every sample accounted for, paying for each request once (response cache and
the servers' own counters agree); a rerun of the finished shard is answered entirely from the
cache."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from negdata.config import Config, LLMConfig
from negdata.llm import LocalServer
from negdata.llm.cache import shard_folder
from negdata.llm.metrics import read_counters
from negdata.pipeline import run_stage
from negdata.records import PlanRecord, Reject, read_parquet
from negdata.sample import build_sample
from negdata.stages import STAGES, stage_done

PLAN = next(s for s in STAGES if s.name == "plan")


def _cached(folder: Path) -> int:
    """Answers the shard's response cache holds (whole lines of its parts)."""
    return sum(part.read_text().count("\n") for part in folder.glob("*.jsonl"))


IMAGES = 4  # of the sample's 14: the kill comes after 2 replies, with 2 left to ask for
KILL_AFTER = 2


def _config(tmp_path: Path, llm: LLMConfig) -> Config:
    """The sample's first ``IMAGES`` rows with ``llm``'s server, asked one request at a time."""
    files = build_sample(tmp_path / "sample")
    rows = tmp_path / "input.tsv"
    rows.write_text("".join(files.tsv.read_text().splitlines(keepends=True)[:IMAGES]))
    cfg = Config.model_validate(
        {
            "run": {"output_dir": str(tmp_path / "out")},
            "input": {
                "path": str(rows),
                "samples_per_shard": IMAGES,
                "files_root": str(files.tsv.parent),
            },
            "ingest": {"allow_file_urls": True},
            "detect": {"sources": [{"kind": "labels", "path": str(files.labels)}]},
            "plan": {"vocabulary_fill": True},
            "compose": {"prompts_dir": str(Path("prompts").resolve())},
        }
    )
    one_at_a_time = {"max_concurrency": 1, "max_tokens": 320, "server_wait_s": 300}
    return cfg.model_copy(update={"llm": llm.model_copy(update=one_at_a_time)})


@pytest.mark.slow
def test_server_killed_mid_shard_is_waited_for_and_nothing_is_paid_twice(
    tmp_path: Path, vllm_process: LocalServer, vllm_server: LLMConfig
) -> None:
    """The server crashed is the session's (``vllm_process``), restarted on its port with a
    log of its own; the one request at a time keeps the kill mid-shard."""
    cfg = _config(tmp_path, vllm_server)
    for stage in STAGES[:2]:  # ingest, detect
        run_stage(cfg, stage, 0)
    cache = shard_folder(cfg.run.output_dir, 0)
    assert isinstance(cache, Path)
    server = vllm_process
    at_kill: dict[str, int] = {}
    failed: list[BaseException] = []

    def crash_then_restart() -> None:
        try:
            while _cached(cache) < KILL_AFTER:
                time.sleep(0.2)
            assert server.pid is not None
            os.killpg(server.pid, signal.SIGKILL)  # a crash: no graceful shutdown
            server.stop()
            at_kill["cached"] = _cached(cache)
            server.log_path = tmp_path / "restarted.log"
            server.start()
        except BaseException as exc:  # the run then waits in vain: say why, not that it waited
            failed.append(exc)
            raise

    crasher = threading.Thread(target=crash_then_restart)
    try:
        crasher.start()
        stats = run_stage(cfg, PLAN, 0)
        crasher.join()
        counters = read_counters(cfg.llm.base_url, api_key=cfg.llm.api_key)
    finally:
        crasher.join()
        server.start()  # the session's server, for the tests after this one: a no-op if up
        assert not failed, f"killing and restarting the server failed: {failed[0]!r}"

    out = cfg.run.output_dir / "objects"
    planned = {r.key for r in read_parquet(out / "00000.parquet", PlanRecord)}
    rejected = {r.key for r in read_parquet(out / "00000_rejects.parquet", Reject)}
    assert stage_done(cfg, PLAN, 0)
    assert planned | rejected == {f"{i:09d}" for i in range(IMAGES)} and not planned & rejected
    assert stats["planned"] + sum(stats["rejected"].values()) == IMAGES
    # Every reply the first server delivered was kept; the second server generated only the rest.
    assert KILL_AFTER <= at_kill["cached"] < _cached(cache)
    assert counters is not None
    assert counters.values["requests"] == _cached(cache) - at_kill["cached"]
    assert stats["llm_requests"] >= at_kill["cached"] + counters.values["requests"]

    before = read_parquet(out / "00000.parquet", PlanRecord)
    no_server = cfg.llm.model_copy(
        update={"local": False, "endpoint": "http://127.0.0.1:9/v1", "server_wait_s": 0}
    )
    (out / "00000_stats.json").unlink()
    again = run_stage(cfg.model_copy(update={"llm": no_server}), PLAN, 0)
    assert again["llm_requests"] == 0 and again["llm_cache_hits"] > 0  # 100% cache hits
    assert again["llm_succeeded"] == stats["llm_succeeded"]
    assert read_parquet(out / "00000.parquet", PlanRecord) == before
