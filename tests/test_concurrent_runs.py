"""Runs started by hand on one output folder share the work: no shard is processed twice."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from negdata.config import LLMConfig
from tests.conftest import STAGE_FILES, PrefectServer, SampleRun, copy_sample_run, forget

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
FLOW = [sys.executable, "flows/generate.py"]
# Each stage logs one such line per shard it really worked on (not for a shard found done).
WORKED = re.compile(r"(ingest|detect|plan|compose|publish) shard (\d{5}):")


def _together(
    *commands: list[str], env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess[str]]:
    """Start every command at once; their results once all have ended."""
    procs = [
        subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for c in commands
    ]
    results = []
    for command, proc in zip(commands, procs, strict=True):
        out, err = proc.communicate(timeout=900)
        results.append(subprocess.CompletedProcess(command, proc.returncode, out, err))
    return results


def _worked(results: list[subprocess.CompletedProcess[str]]) -> Counter[tuple[str, str]]:
    return Counter(m.groups() for r in results for m in WORKED.finditer(r.stderr))


def test_two_detect_commands_on_one_output_detect_each_shard_once(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    unused = LLMConfig(endpoint="http://127.0.0.1:1/v1")  # ingest and detect ask no LLM
    config, _ = sample_config(tmp_path, unused)
    ingest = subprocess.run(
        [*CLI, "stage", "ingest", "--shards", "0-3", "--config", str(config)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert ingest.returncode == 0, ingest.stderr
    detect = [*CLI, "stage", "detect", "--shards", "0-3", "--config", str(config)]

    results = _together(detect, detect)

    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    assert _worked(results) == {("detect", f"{s:05d}"): 1 for s in range(4)}


def test_two_flows_on_one_output_process_each_stage_of_each_shard_once(
    tmp_path: Path, sample_run: SampleRun, prefect_server: PrefectServer
) -> None:
    """On a copy of the session's run of the sample with every stage of shards 0-3 forgotten:
    the work is all there to do again, the LLM replies in the copied response cache. The two
    flows report to the session's Prefect server (the leases on the output folder, not
    Prefect, keep them apart)."""
    config, out = copy_sample_run(sample_run, tmp_path)
    forget(out, tuple(STAGE_FILES), range(4))
    flow = [*FLOW, "--shards", "0-3", "--config", str(config)]

    results = _together(flow, flow, env={**os.environ, **prefect_server.env})

    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    stages = ("ingest", "detect", "plan", "compose", "publish")
    assert _worked(results) == {(st, f"{s:05d}"): 1 for st in stages for s in range(4)}
    assert list((out / "negcap").glob("*/00003.tar"))
