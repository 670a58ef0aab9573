"""What a person sees from the command line: one line for every mistake, a non-zero exit, no
traceback (unless --debug); a summary that only reads; progress that suits a log file."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from negdata import __version__
from negdata.progress import Progress

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
FLOW = [sys.executable, "flows/generate.py"]


def _run(command: list[str], timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def _ends_in_one_line(result: subprocess.CompletedProcess[str], *expected: str) -> str:
    """The error line, after checking there is no traceback and the exit is non-zero."""
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("negdata: ")
    for text in expected:
        assert text in last, last
    return last


def _config(tmp_path: Path, **changes: object) -> Path:
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["run"]["output_dir"] = str(tmp_path / "out")
    for dotted, value in changes.items():
        section, key = dotted.split("__")
        raw[section][key] = value
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["stage", "ingest", "--shards", "5-2"], ["'5-2' is not an increasing range"]),
        (["stage", "ingest", "--config", "tests"], ["tests", "Is a directory"]),
        (["stage", "ingest", "--config", "nope.yaml"], ["config file not found: nope.yaml"]),
        (["stage", "ingest", "--shards", "0-99999999"], ["past the input's last shard, 3"]),
        (["stage", "polish"], ["unknown stage 'polish'"]),
        (["stage", "detect", "--retry-failed"], ["--retry-failed"]),
        (["stage", "ingest", "--shard-count", "3"], ["unrecognized arguments: --shard-count"]),
        (["summary", "--config", "configs/missing.yaml"], ["configs/missing.yaml"]),
    ],
)
def test_cli_mistakes_end_in_one_line(args: list[str], expected: list[str]) -> None:
    result = _run([*CLI, *args])

    line = _ends_in_one_line(result, *expected)
    assert result.stderr.strip() == line  # nothing else was printed


def test_debug_shows_the_traceback() -> None:
    result = _run([*CLI, "--debug", "stage", "ingest", "--shards", "5-2"])

    assert result.returncode != 0 and "Traceback" in result.stderr


def test_version() -> None:
    result = _run([*CLI, "--version"])

    assert result.returncode == 0 and result.stdout.strip() == f"negdata {__version__}"


def test_flow_mistakes_end_in_one_line_before_prefect_starts(tmp_path: Path) -> None:
    config = _config(tmp_path, detect__t_absent="lots")
    bad_key = _run([*FLOW, "--config", str(config)])
    past_the_end = _run([*FLOW, "--shards", "0-99999999"])

    _ends_in_one_line(bad_key, "detect.t_absent")
    assert bad_key.stderr.count("\n") == 1
    _ends_in_one_line(past_the_end, "shard 99999999", "last shard, 3")
    assert not (tmp_path / "out").exists()  # nothing was written, no empty shard


def test_a_failure_inside_the_flow_ends_in_one_line(tmp_path: Path, free_port: int) -> None:
    """The remote LLM server does not answer: Prefect is running by then, and its two
    tracebacks of the failed flow run must not reach the user."""
    llm = {"local": False, "endpoint": f"http://127.0.0.1:{free_port}/v1", "timeout_s": 1}
    config = _config(tmp_path)
    raw = yaml.safe_load(config.read_text())
    raw["llm"] = {**raw["llm"], **llm}
    config.write_text(yaml.safe_dump(raw))

    result = _run([*FLOW, "--shards", "0", "--config", str(config)])

    _ends_in_one_line(result, f"127.0.0.1:{free_port}", "no LLM server answered within 1 s")
    assert "Finished in state" not in result.stderr
    assert "LLM server: waiting for" in result.stderr  # each start-up step says what it waits for


def test_summary_of_a_partial_run_only_reads(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert _run([*CLI, "stage", "ingest", "--shards", "1", "--config", str(config)]).returncode == 0
    before = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}

    result = _run([*CLI, "summary", "--config", str(config)])

    assert result.returncode == 0, result.stderr
    assert "no shard published yet" in result.stdout
    assert "ingest 1, detect 0" in result.stdout
    assert {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()} == before


def test_an_input_with_no_usable_row_is_a_warning(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.tsv"
    garbage.write_text("".join(f"not a row {i}\n" for i in range(6)))
    config = _config(tmp_path, input__path=str(garbage))

    result = _run([*CLI, "stage", "ingest", "--shards", "0", "--config", str(config)])

    assert result.returncode == 0, result.stderr
    warning = [line for line in result.stderr.splitlines() if "warning:" in line]
    assert len(warning) == 1 and "no usable row" in warning[0] and "4 bad_row" in warning[0]


def test_progress_off_a_terminal_is_a_line_per_quarter(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="negdata.progress")
    with Progress(8, "detect 00007", line_gap_s=0) as bar:  # pytest's stderr is no terminal
        for _ in range(8):
            bar.update()

    assert [r.getMessage() for r in caplog.records] == [
        "detect 00007: 2/8",
        "detect 00007: 4/8",
        "detect 00007: 6/8",
    ]  # the stage logs its own line at the end
