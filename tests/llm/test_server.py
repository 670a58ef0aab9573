"""Building the served model folder and starting the local vLLM server."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from negdata.config import LLMConfig, ServeConfig
from negdata.llm import LLMServerError, LocalServer, ensure_model, find_gguf, wait_until_ready


def test_find_gguf_locates_the_packaged_smollm2_file() -> None:
    gguf = find_gguf()

    assert gguf.suffix == ".gguf"
    assert gguf.is_file()


def test_ensure_model_builds_once_then_reuses_the_folder() -> None:
    model_dir = ensure_model(ServeConfig())
    before = {path.name: path.stat().st_mtime_ns for path in [model_dir, *model_dir.iterdir()]}

    no_venv = ServeConfig(python=Path("/nonexistent/bin/python"))  # a rebuild would fail
    again = ensure_model(no_venv)

    after = {path.name: path.stat().st_mtime_ns for path in [model_dir, *model_dir.iterdir()]}
    assert again == model_dir
    assert after == before
    assert (model_dir / "config.json").is_file()


def test_missing_vllm_venv_names_the_setting_and_the_fix(tmp_path: Path) -> None:
    serve = ServeConfig(python=tmp_path / "venv/bin/python", model_dir=tmp_path / "model")

    with pytest.raises(LLMServerError, match=r"llm\.serve\.python: .* run `make llm-env`"):
        ensure_model(serve)


def test_local_server_refuses_a_port_already_in_use() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        serve = ServeConfig(host="127.0.0.1", port=busy.getsockname()[1])

        with pytest.raises(LLMServerError, match=r"llm\.serve\.port"):
            LocalServer(LLMConfig(serve=serve)).start()


def test_wait_until_ready_times_out_when_nothing_answers() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{unused.getsockname()[1]}/v1"

        with pytest.raises(LLMServerError, match="did not answer within 1 s"):
            wait_until_ready(url, timeout=1.0)


def test_gpu_settings_become_vllm_serve_flags(tmp_path: Path) -> None:
    python = tmp_path / "bin" / "python"  # a GPU venv's interpreter; nothing is started
    python.parent.mkdir()
    python.touch()
    serve = ServeConfig(
        python=python,
        port=8000,
        enforce_eager=False,
        tensor_parallel_size=2,
        gpu_memory_utilization=0.9,
        max_num_seqs=256,
        extra_args=["--enable-prefix-caching"],
    )

    cmd = LocalServer(LLMConfig(model="llama-8b", serve=serve)).command(Path("/models/llama"))

    assert cmd[:3] == [str(python), "-m", "vllm.entrypoints.openai.api_server"]
    flags = dict(zip(cmd[3::2], cmd[4::2], strict=False))
    assert flags["--model"] == "/models/llama" and flags["--served-model-name"] == "llama-8b"
    assert flags["--tensor-parallel-size"] == "2" and flags["--max-num-seqs"] == "256"
    assert flags["--gpu-memory-utilization"] == "0.9"
    assert "--enforce-eager" not in cmd and cmd[-1] == "--enable-prefix-caching"


def test_cpu_defaults_keep_eager_mode_and_leave_gpu_flags_out() -> None:
    cmd = LocalServer(LLMConfig()).command(Path("/m"))

    assert "--enforce-eager" in cmd and "--gpu-memory-utilization" not in cmd
    assert "--max-num-seqs" not in cmd
