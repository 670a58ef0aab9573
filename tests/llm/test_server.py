"""Building the served model folder and starting the local vLLM server."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from negdata.config import LLMConfig, ServeConfig
from negdata.llm import LLMServerError, LocalServer, ensure_model, find_gguf, wait_until_ready
from negdata.llm.server import executor_env, threads_env


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


def test_a_port_held_by_another_program_is_refused_in_one_line_that_names_it() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        serve = ServeConfig(host="127.0.0.1", port=port)

        with pytest.raises(LLMServerError) as refused:
            LocalServer(LLMConfig(serve=serve)).start()

    message = str(refused.value)
    assert message == (
        f"llm.serve.port: port {port} is in use by pid {os.getpid()} "
        f"({psutil.Process().name()}); stop it or choose another llm.serve.port"
    )
    assert "\n" not in message


LISTENER = """
import socket, sys, time
sock = socket.socket()
sock.bind(("127.0.0.1", int(sys.argv[1])))
sock.listen()
print("listening", flush=True)
time.sleep(3600)
"""


def _listen_marked(port: int, owner: int, owner_started: float) -> subprocess.Popen[bytes]:
    """A process listening on ``port`` that carries a negdata server's marks for ``owner``."""
    marks = {
        "NEGDATA_LLM_SERVER": str(port),
        "NEGDATA_LLM_OWNER": str(owner),
        "NEGDATA_LLM_OWNER_STARTED": repr(owner_started),
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", LISTENER, str(port)],
        stdout=subprocess.PIPE,
        env={**os.environ, **marks},
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == b"listening\n"
    return proc


def test_a_server_of_a_live_negdata_run_is_left_alone(free_port: int) -> None:
    me = psutil.Process()
    other_run = _listen_marked(free_port, me.pid, me.create_time())
    try:
        serve = ServeConfig(host="127.0.0.1", port=free_port)

        with pytest.raises(LLMServerError) as refused:
            LocalServer(LLMConfig(serve=serve)).start()

        message = str(refused.value)
        assert f"another negdata run (pid {me.pid}) serves on port {free_port}" in message
        assert message.startswith("llm.serve.port: ") and "\n" not in message
        assert other_run.poll() is None
    finally:
        other_run.kill()
        other_run.wait()


def test_a_leftover_server_whose_owner_pid_was_reused_is_replaced(
    free_port: int, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    me = psutil.Process()  # alive, but not the process that started the leftover
    leftover = _listen_marked(free_port, me.pid, me.create_time() - 3600)
    try:
        serve = ServeConfig(
            host="127.0.0.1",
            port=free_port,
            python=tmp_path / "venv/bin/python",  # the start stops short of running vLLM
            model_dir=tmp_path / "model",
        )

        with (
            caplog.at_level(logging.WARNING, logger="negdata.llm.server"),
            pytest.raises(LLMServerError, match=r"^llm\.serve\.python: "),
        ):
            LocalServer(LLMConfig(serve=serve)).start()

        assert leftover.wait(timeout=5) == -15  # stopped with SIGTERM
        assert f"replaced a leftover vLLM server (pid {leftover.pid})" in caplog.text
    finally:
        leftover.kill()
        leftover.wait()


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


def test_the_model_stays_in_the_engine_process_unless_workers_are_asked_for() -> None:
    """The environment each server gets (tests/llm/test_server_lifetime.py checks the real
    server's processes): one device keeps the model in vLLM's engine process; the setting
    or several devices bring vLLM's worker processes back."""
    assert executor_env(ServeConfig()) == {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"}
    assert executor_env(ServeConfig(worker_process=True)) == {}
    assert executor_env(ServeConfig(tensor_parallel_size=2)) == {}


def test_cpu_threads_are_that_many_unbound_threads_and_unset_leaves_vllms_binding() -> None:
    assert threads_env(ServeConfig()) == {}
    assert threads_env(ServeConfig(cpu_threads=3)) == {
        "OMP_NUM_THREADS": "3", "VLLM_CPU_OMP_THREADS_BIND": "nobind",
    }  # fmt: skip
