"""The dask engine (``run.engine: dask``): the same flow with its shard tasks on a Dask cluster
through prefect-dask, here a LocalCluster of two worker processes that the run starts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from flows.engines import engine
from negdata.config import ConfigError, load_config
from tests.conftest import PrefectServer, SampleRun, sample_run_config, written_outputs

SHARDS = "0-3"  # of the session's sample run (4 per shard)
COUNT = 4
DETECTED = re.compile(r"detect shard (\d{5}):")
YOLO_LOADED = re.compile(r"yolo:\S+: \d+ classes -> \d+ labels on \S+, loaded in")


def _generate(config: Path, prefect: PrefectServer) -> str:
    """``python flows/generate.py`` over SHARDS with the session's Prefect server; its stderr."""
    env = {**os.environ, **prefect.env}
    done = subprocess.run(
        [sys.executable, "flows/generate.py", "--shards", SHARDS, "--config", str(config)],
        env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr


@pytest.mark.slow
def test_two_dask_worker_processes_write_what_one_process_writes_loading_yolo_once_each(
    tmp_path: Path, sample_run: SampleRun, prefect_server: PrefectServer
) -> None:
    """The one process is the session's run of the sample (tests/conftest.py), whose response
    cache the dask run starts with."""
    config = sample_run_config(sample_run, tmp_path, "dask", engine="dask", dask_workers=2)

    log = _generate(config, prefect_server)

    assert sorted(DETECTED.findall(log)) == [f"{s:05d}" for s in range(COUNT)]
    assert 1 <= len(YOLO_LOADED.findall(log)) <= 2  # once per worker process, not per shard
    reference_outputs = written_outputs(sample_run.out, range(COUNT))
    assert len(reference_outputs) > COUNT * 4
    assert written_outputs(tmp_path / "dask") == reference_outputs


def _dask_config(tmp_path: Path, **run: Any) -> Path:
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["run"] = {**raw["run"], **run}
    config = tmp_path / "dask.yaml"
    config.write_text(yaml.safe_dump(raw))
    return config


def test_engine_defaults_to_threads_and_takes_dask(tmp_path: Path) -> None:
    assert load_config("configs/sample.yaml").run.engine == "threads"
    cfg = load_config(_dask_config(tmp_path, engine="dask", dask_address="tcp://head:8786"))
    assert (cfg.run.engine, cfg.run.dask_address) == ("dask", "tcp://head:8786")


@pytest.mark.parametrize(
    ("run", "error"),
    [
        ({"engine": "ray"}, r"run\.engine: Input should be 'threads' or 'dask'"),
        ({"dask_address": "tcp://head:8786"}, r"run\.dask_address is set but run\.engine is not"),
        ({"engine": "dask", "dask_workers": 0}, r"run\.dask_workers: .*greater than or equal"),
    ],
)
def test_a_bad_engine_setting_is_one_error_naming_the_key(
    tmp_path: Path, run: dict[str, Any], error: str
) -> None:
    with pytest.raises(ConfigError, match=error):
        load_config(_dask_config(tmp_path, **run))


def test_the_dask_engine_without_prefect_dask_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "prefect_dask", None)  # import prefect_dask fails
    cfg = load_config(_dask_config(tmp_path, engine="dask"))
    with (
        pytest.raises(ValueError, match=r"prefect-dask is not installed: pip install"),
        engine(cfg),
    ):
        pass


def test_a_dask_address_where_nothing_answers_is_one_error_naming_it(
    tmp_path: Path, free_port: int
) -> None:
    address = f"tcp://127.0.0.1:{free_port}"
    cfg = load_config(
        _dask_config(tmp_path, engine="dask", dask_address=address, dask_connect_timeout_s=2)
    )
    answers = rf"run\.dask_address {address}: no Dask scheduler answers"
    with pytest.raises(ValueError, match=answers), engine(cfg):
        pass
