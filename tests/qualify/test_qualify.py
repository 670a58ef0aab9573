"""``negdata qualify`` against the session's real vLLM server (SmolLM2): it runs, prints every
gate's pass rate, its numbers add up, and it writes nothing; a server that is not there, or
serves another model, is one line before any model runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple, get_args

import pytest
import yaml

from negdata.config import LLMConfig
from negdata.publish.stage import DUPLICATE
from negdata.qualify.images import load_images
from negdata.qualify.table import SUMMARY
from negdata.validate.gates import CaptionReason, McqReason

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
# Six of the 20: enough for every gate to have candidates, and a third of the tokens. The 135M
# model's captions pass one time in ten, so some are refused (test_the_numbers_add_up).
IMAGES = 6


def _config(folder: Path, name: str, **llm: Any) -> Path:
    """configs/sample.yaml with the given ``llm`` settings, a remote server's, writing (were
    anything written) under ``folder / name``."""
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["run"]["output_dir"] = str(folder / name)
    raw["llm"] = {**raw["llm"], **llm, "local": False}
    raw["compose"]["prompts_dir"] = str(Path("prompts").resolve())
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def _qualify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "qualify", *args], capture_output=True, text=True, timeout=600, check=False
    )


class Qualified(NamedTuple):
    config: Path
    stdout: str
    stderr: str
    result: dict[str, Any]


@pytest.fixture(scope="module")
def qualified(vllm_server: LLMConfig, tmp_path_factory: pytest.TempPathFactory) -> Qualified:
    """One ``negdata qualify --json`` run of SmolLM2 on the session's server, on the first
    ``IMAGES`` of the shipped images."""
    folder = tmp_path_factory.mktemp("qualify")
    config = _config(folder, "smollm2", **vllm_server.model_dump(mode="json"))
    raw = yaml.safe_load(config.read_text())
    raw["compose"]["captions_per_image"] = 1  # fewer tokens, the same checks
    config.write_text(yaml.safe_dump(raw))
    out = folder / "qualify.json"
    done = _qualify("--config", str(config), "--images", str(IMAGES), "--json", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    [result] = json.loads(out.read_text())
    return Qualified(config, done.stdout, done.stderr, result)


@pytest.mark.slow
def test_every_gate_is_printed_with_its_pass_rate(qualified: Qualified) -> None:
    gates = [*get_args(CaptionReason), DUPLICATE, *get_args(McqReason)]
    for gate in gates:
        found = re.search(rf"^  {gate} +(\d\.\d{{3}}) \((\d+)\)$", qualified.stdout, re.M)
        assert found, f"no pass rate for {gate}:\n{qualified.stdout}"
        assert 0.0 <= float(found.group(1)) <= 1.0
    printed = {g["gate"] for g in qualified.result["caption_gates"] + qualified.result["mcq_gates"]}
    assert printed == set(gates)


@pytest.mark.slow
def test_the_summary_row_is_the_models_and_agrees_with_the_json(qualified: Qualified) -> None:
    q = qualified.result
    header, row = qualified.stdout.splitlines()[:2]
    headings = ["images", *(heading for heading, _, _ in SUMMARY)]
    assert header.split() == ["model", *" ".join(headings).split()]
    cells = dict(zip(headings, row.split()[1:], strict=True))

    assert row.split()[0] == "SmolLM2-135M-Instruct" == q["model"]
    assert int(cells["images"]) == q["images"] == IMAGES < len(load_images())
    assert float(cells["captions/img"]) == round(q["captions_per_image"], 2)
    assert float(cells["MCQs/img"]) == round(q["mcqs_per_image"], 2)
    assert float(cells["tokens/img"]) == round(q["tokens_per_image"])


@pytest.mark.slow
def test_the_numbers_add_up(qualified: Qualified) -> None:
    q = qualified.result
    images = q["images"]
    assert 0 < q["plan_answered"] <= images
    assert 0 < q["captions_written"] <= q["captions_requested"] <= images
    assert q["captions_published"] <= q["captions_written"]
    # Each candidate is published or refused by exactly one gate.
    refused = sum(g["refused"] for g in q["caption_gates"])
    assert q["captions_published"] + refused == q["captions_written"]
    assert q["mcqs_published"] + sum(g["refused"] for g in q["mcq_gates"]) == q["mcqs_built"]
    assert q["mcqs_built"] <= images
    assert q["mcq_options"] == 4 * q["mcqs_published"]
    for gate in q["caption_gates"] + q["mcq_gates"]:
        assert 0.0 <= gate["pass_rate"] <= 1.0
    for rate in ("caption_pass_rate", "mcq_pass_rate"):
        assert 0.0 <= q[rate] <= 1.0
    assert q["captions_per_image"] == q["captions_published"] / images
    assert 0 <= q["false_captions"] <= q["captions_published"]
    assert 0 <= q["false_options"] <= q["mcq_options"]
    assert q["prompt_tokens"] > 0 and q["completion_tokens"] > 0
    assert q["tokens_per_image"] == (q["prompt_tokens"] + q["completion_tokens"]) / images
    assert q["distinct_2"] is None or 0.0 < q["distinct_2"] <= 1.0
    # What a 135M model writes: the gates refuse much of it (SmolLM2 rarely even negates).
    assert q["captions_published"] < q["captions_written"]


@pytest.mark.slow
def test_a_qualification_writes_nothing_to_the_run_folder(qualified: Qualified) -> None:
    """No response cache, no outputs: the config's run folder is left as it was."""
    assert not (qualified.config.parent / "smollm2").exists()


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("negdata: "), done.stderr
    return lines[0]


@pytest.mark.parametrize("images", ["0", "-3", "six"])
def test_a_number_of_images_below_one_is_refused_before_any_server_is_asked(images: str) -> None:
    done = _qualify("--config", "configs/sample.yaml", "--images", images)

    assert done.returncode == 2
    assert f"--images: {images!r} is not a whole number of at least 1" in done.stderr


def test_an_unreachable_server_is_one_line(tmp_path: Path, free_port: int) -> None:
    endpoint = f"http://127.0.0.2:{free_port}/v1"
    config = _config(tmp_path, "nowhere", endpoint=endpoint)

    line = _one_line(_qualify("--config", str(config)))

    assert f"{config}: no OpenAI-compatible server answers at {endpoint}/models" in line
    assert "ConnectError" in line


@pytest.mark.slow
def test_every_server_is_checked_before_the_first_model_runs(
    vllm_server: LLMConfig, tmp_path: Path, free_port: int
) -> None:
    """A second config's mistake costs nothing: the first model's run has not started."""
    good = _config(tmp_path, "good", **vllm_server.model_dump(mode="json"))
    other = _config(
        tmp_path, "other", **{**vllm_server.model_dump(mode="json"), "model": "Qwen2.5-7B"}
    )
    gone = _config(tmp_path, "gone", endpoint=f"http://127.0.0.1:{free_port}/v1")

    wrong_model = _one_line(_qualify("--config", str(good), "--config", str(other)))
    unreachable = _one_line(_qualify("--config", str(good), "--config", str(gone)))

    assert wrong_model == (
        f"negdata: {other}: {vllm_server.base_url} serves SmolLM2-135M-Instruct, "
        "not llm.model 'Qwen2.5-7B'"
    )
    assert f"negdata: {gone}: no OpenAI-compatible server answers" in unreachable
