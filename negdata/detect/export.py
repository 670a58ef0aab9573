"""``negdata detect export``: YOLO ``.pt`` weights -> ONNX or a TensorRT engine, as Ultralytics
exports them, for a ``kind: yolo`` source's ``weights``.

Both are exported with a dynamic batch dimension (up to ``batch`` for an engine), so the detect
stage can feed them its full batches and a shard's shorter last one. An engine is built for the
GPU it is exported on, so it needs one; ONNX exports anywhere (the ``onnx`` extra).
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Literal

from negdata.detect.yolo import ultralytics_offline

log = logging.getLogger(__name__)

Format = Literal["onnx", "engine"]
FORMATS: tuple[Format, ...] = ("onnx", "engine")


def export_weights(
    weights: Path,
    fmt: Format,
    imgsz: int = 640,
    half: bool = False,
    batch: int = 16,
    out: Path | None = None,
) -> Path:
    """Export ``weights`` and return the file written: beside the weights, or ``out``."""
    import torch

    if weights.suffix != ".pt":
        raise ValueError(f"--weights: {weights} is not a .pt file (export starts from PyTorch)")
    if not weights.is_file():
        raise FileNotFoundError(f"--weights: weights file not found: {weights}")
    cuda = torch.cuda.is_available()
    if fmt == "engine" and not cuda:
        raise RuntimeError(
            "--format engine: a TensorRT engine is built on the GPU it will run on, and this "
            "machine has no CUDA device (export --format onnx here, or run this on the GPU host)"
        )
    ultralytics_offline()
    from ultralytics.models import YOLO
    from ultralytics.utils import LOGGER

    level = LOGGER.level
    LOGGER.setLevel(logging.WARNING)  # its progress lines go to stdout, which prints the path
    try:
        written = YOLO(str(weights), task="detect").export(
            format=fmt,
            imgsz=imgsz,
            quantize=16 if half and cuda else None,
            dynamic=True,
            batch=batch,
            device=0 if cuda else "cpu",
            verbose=False,
        )
    finally:
        LOGGER.setLevel(level)
    path = Path(written)
    if out is not None and out.resolve() != path.resolve():
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(path, out)
        path = out
    log.info("exported %s -> %s", weights, path)
    return path
