"""``make gpu-prepare``: the folder a bare GPU machine runs ``bench/detect_gpu.sh`` from holds
what the detect path imports there, and stays under what a device call can carry."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.gpu_prepare import (
    WHEELS,
    PrepareError,
    check_size,
    device_packages,
    download_command,
    pins,
)

ROOT = Path(__file__).resolve().parents[1]
# Distributions the machine provides under another name, or with a package that needs them.
PROVIDED = frozenset(
    {
        "dill",  # imported by torch only when installed
        "opencv-python",  # cv2: the machine's opencv-python-headless
        "pytz",  # pandas's own requirement, installed with the machine's pandas
        # huggingface_hub's here (2.x, through open_clip): the machine's own huggingface-hub
        # ran the encoder without them (bench/detect_gpu.sh ENCODER=ViT-B-32, 2026-12-04)
        *("httpx2", "httpcore2", "h2", "hpack", "hyperframe", "sniffio", "truststore"),
    }
)
_RUN_AND_LIST = """
import atexit, json, pathlib, runpy, sys
out = pathlib.Path(sys.argv[1])
atexit.register(lambda: out.write_text(json.dumps(sorted(sys.modules))))
sys.argv = ["bench.detect", "--images", "2", "--batch", "2", "--device", "cpu",
            "--decode-workers", "1", "--baseline", "tensors",
            "--encoder", "tests/data/tiny-clip.json"]
runpy.run_module("bench.detect", run_name="__main__")
"""


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_wheels_cover_what_the_detect_benchmark_imports(tmp_path: Path) -> None:
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", _RUN_AND_LIST, str(listing)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    tops = {m.split(".")[0] for m in json.loads(listing.read_text())}
    assert {"ultralytics", "torch", "negdata"} <= tops  # the run really detected
    owners = importlib.metadata.packages_distributions()
    carried = {_norm(w) for w in WHEELS}
    missing = {
        top: owners[top]
        for top in tops - set(sys.stdlib_module_names)
        if top in owners
        and not {_norm(d) for d in owners[top]} & (device_packages() | carried | PROVIDED)
        and not any(_norm(d) == "negdata" for d in owners[top])
    }
    assert not missing, f"imported by the detect path, on neither the machine nor .gpu/: {missing}"


def test_the_wheels_are_the_versions_tested_here() -> None:
    command = download_command(Path("/tmp/x"))
    assert {"--no-deps", "--only-binary=:all:"} <= set(command)
    assert command[command.index("--python-version") + 1] == "3.12"
    for pin in pins():
        name, version = pin.split("==")
        assert version == importlib.metadata.version(name)
        assert pin in command


def test_a_folder_over_the_limit_is_refused(tmp_path: Path) -> None:
    (tmp_path / "wheels").mkdir()
    (tmp_path / "wheels" / "a.whl").write_bytes(b"\0" * (2 * 2**20))
    assert check_size(tmp_path, limit_mib=3) == pytest.approx(2.0)
    with pytest.raises(PrepareError, match="over the 1 MiB"):
        check_size(tmp_path, limit_mib=1)
