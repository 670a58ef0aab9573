"""How the CPU server computes: ``llm.serve.dtype`` (what is passed to vLLM, what ``auto`` stands
for on which machine) and ``llm.serve.cpu_threads``, and what the session's real server was
given of them."""

from __future__ import annotations

import sys
from pathlib import Path

import psutil
import pytest

from negdata.config import LLMConfig, ServeConfig
from negdata.llm import LocalServer
from negdata.llm import dtype as dtype_module
from negdata.llm.dtype import BFLOAT16_FLAGS, auto_dtype, cpu_flags, is_cpu_build, served_dtype


def _dtype(dtype: str) -> str | None:
    command = LocalServer(LLMConfig(serve=ServeConfig(dtype=dtype))).command(Path("/m"))
    return command[command.index("--dtype") + 1] if "--dtype" in command else None


def test_a_dtype_other_than_auto_is_passed_to_vllm() -> None:
    assert _dtype("float32") == "float32"
    assert _dtype("bfloat16") == "bfloat16"  # even where it is emulated


def test_auto_is_float32_for_a_cpu_build_on_a_cpu_without_bfloat16_else_vllms_choice() -> None:
    assert auto_dtype(True, frozenset({"sse4_2", "avx2", "fma"})) == "float32"
    assert auto_dtype(True, frozenset({"avx2", "avx512f", "avx512_bf16"})) is None
    assert auto_dtype(True, frozenset({"avx2", "amx_bf16"})) is None
    assert auto_dtype(True, frozenset({"fp", "asimd", "bf16"})) is None  # Arm
    assert auto_dtype(False, frozenset({"avx2"})) is None  # a GPU build
    assert auto_dtype(True, None) is None  # flags not known


def test_cpu_flags_are_read_from_x86_and_arm_cpuinfo(tmp_path: Path) -> None:
    x86, arm, neither = tmp_path / "x86", tmp_path / "arm", tmp_path / "neither"
    x86.write_text("processor\t: 0\nflags\t\t: fpu avx2 fma\n\nprocessor\t: 1\nflags\t: fpu\n")
    arm.write_text("processor\t: 0\nFeatures\t: fp asimd bf16\n")
    neither.write_text("processor\t: 0\n")

    assert cpu_flags(x86) == {"fpu", "avx2", "fma"}
    assert cpu_flags(arm) == {"fp", "asimd", "bf16"}
    assert cpu_flags(neither) is None
    assert cpu_flags(tmp_path / "absent") is None


@pytest.mark.parametrize(
    ("flags", "dtype", "asked"), [("avx2", "float32", True), ("amx_bf16", None, False)]
)
def test_the_build_is_asked_only_where_the_cpu_has_no_bfloat16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: str, dtype: str | None, asked: bool
) -> None:
    """A python that says it has a CPU build of vLLM and leaves a mark when it is asked."""
    python, mark = tmp_path / "python", tmp_path / "asked"
    python.write_text(f"#!/bin/sh\ntouch {mark}\n")
    python.chmod(0o755)
    monkeypatch.setattr(dtype_module, "cpu_flags", lambda: frozenset({"fpu", flags}))

    assert served_dtype(ServeConfig(), python) == dtype
    assert mark.exists() == asked


def test_the_vllm_venv_is_a_cpu_build_and_a_python_without_vllm_is_not() -> None:
    assert is_cpu_build(ServeConfig().python)  # what `make llm-env` installs
    assert not is_cpu_build(Path(sys.executable))  # negdata's own venv has no vLLM
    assert not is_cpu_build(Path("/nonexistent/python"))


def test_auto_on_this_machine_follows_its_cpu() -> None:
    """The suite's servers run here: the CPU build, on a CPU that has bfloat16 or not."""
    native = bool(cpu_flags() and cpu_flags() & BFLOAT16_FLAGS)
    assert _dtype("auto") == (None if native else "float32")


@pytest.mark.slow
def test_the_sessions_server_computes_in_what_auto_stands_for_here(
    vllm_process: LocalServer,
) -> None:
    """vLLM logs the dtype its engine was made with."""
    expected = _dtype("auto") or "bfloat16"  # vLLM's own choice on a CPU
    assert f"dtype=torch.{expected}," in vllm_process.log_path.read_text()


@pytest.mark.slow
def test_the_sessions_server_computes_with_one_unbound_thread(vllm_process: LocalServer) -> None:
    """vLLM reads both from the environment it is started with (``llm.serve.cpu_threads: 1``)."""
    assert vllm_process.pid is not None
    [server] = [
        p for p in psutil.Process(vllm_process.pid).children(recursive=True)
        if "vllm.entrypoints.openai.api_server" in p.cmdline()
    ]  # fmt: skip
    env = server.environ()
    assert (env["OMP_NUM_THREADS"], env["VLLM_CPU_OMP_THREADS_BIND"]) == ("1", "nobind")
