"""JPEG decoding and letterboxing for pixel detectors, in a small pool of worker processes.

A worker turns a batch of JPEG bytes into one uint8 array per input size: each image letterboxed
to a square of that size exactly as Ultralytics' predictor preprocesses a batch of differently
shaped images (its ``LetterBox`` with ``auto=False``: scaled to fit, centred, padded with 114),
so boxes map back to the original image the same way. ``letterbox`` is those few lines of
OpenCV, pinned to Ultralytics' own class by tests/detect/test_decode_pipeline.py, so that a
worker never imports Ultralytics, and with it torch: 1.6 s and 600 MB a worker. The arrays stay
RGB: letterboxing treats the channels alike, so the predictor's BGR round trip is skipped, not
changed. A JPEG that does not decode is a counted reject (``undecodable_image``), not an error.

The workers are the process's shared pool (``negdata.workers``): fresh (spawned) processes,
never forks of a process that holds a model, each gone when the process that started it is.
"""

from __future__ import annotations

import io
import os
import re
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from PIL import Image

from negdata.workers import pool_for

UNDECODABLE = "undecodable_image"
_ADDRESS = re.compile(r" ?<[^<>]* at 0x[0-9a-fA-F]+>")


@dataclass(frozen=True)
class RawSample:
    """One sample of an ingested shard as read from its tar."""

    key: str
    url: str
    caption: str
    jpg: bytes


@dataclass
class DecodedBatch:
    """A batch's samples that decoded, their letterboxed pixels per input size (one array of
    shape (n, size, size, 3) per size), their original (height, width), and the rejects."""

    samples: list[RawSample]
    pixels: dict[int, np.ndarray] = field(default_factory=dict)
    shapes: list[tuple[int, int]] = field(default_factory=list)
    rejects: list[tuple[RawSample, str, str]] = field(default_factory=list)


def decode_workers_default() -> int:
    return min(4, os.cpu_count() or 1)


def _rgb(jpg: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(jpg)) as image:
        return np.asarray(image.convert("RGB"))


def _detail(exc: Exception) -> str:
    """The error as a reject's detail, without the object addresses PIL puts in some (a rerun
    writes the same rejects)."""
    return f"{type(exc).__name__}: {_ADDRESS.sub('', str(exc))}"


def letterbox(rgb: np.ndarray, size: int) -> np.ndarray:
    """``rgb`` (height, width, 3) scaled to fit a ``size`` square, keeping its ratio (a side
    never under 1 pixel), and centred on padding of 114: Ultralytics'
    ``LetterBox((size, size), auto=False)``."""
    height, width = rgb.shape[:2]
    ratio = min(size / height, size / width)
    new_width, new_height = max(round(width * ratio), 1), max(round(height * ratio), 1)
    if (width, height) != (new_width, new_height):
        rgb = cv2.resize(rgb, (new_width, new_height), interpolation=cv2.INTER_LINEAR)
    pad_x, pad_y = (size - new_width) / 2, (size - new_height) / 2
    top, bottom = round(pad_y - 0.1), round(pad_y + 0.1)
    left, right = round(pad_x - 0.1), round(pad_x + 0.1)
    padded: np.ndarray = cv2.copyMakeBorder(
        rgb, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114)
    )
    return padded


def decode_batch(samples: list[RawSample], sizes: tuple[int, ...]) -> DecodedBatch:
    """Decode and letterbox one batch (runs in a pool worker)."""
    out = DecodedBatch(samples=[])
    boxed: dict[int, list[np.ndarray]] = {size: [] for size in sizes}
    for sample in samples:
        try:
            rgb = _rgb(sample.jpg)
        except (OSError, ValueError, Image.DecompressionBombError) as exc:
            out.rejects.append((sample, UNDECODABLE, _detail(exc)))
            continue
        out.samples.append(sample)
        out.shapes.append((rgb.shape[0], rgb.shape[1]))
        for size in sizes:
            boxed[size].append(letterbox(rgb, size))
    out.pixels = {
        size: np.stack(arrays) if arrays else np.zeros((0, size, size, 3), np.uint8)
        for size, arrays in boxed.items()
    }
    return out


def decoded_batches(
    batches: Iterable[list[RawSample]],
    sizes: tuple[int, ...],
    workers: int,
    ahead: int | None = None,
) -> Iterator[DecodedBatch]:
    """Decode ``batches`` in the pool, in order, with at most ``ahead`` batches in flight
    (default: two per worker), so decoding runs ahead of the consumer but memory stays flat."""
    limit = ahead or 2 * workers
    pending: deque[Future[Any]] = deque()
    try:
        with pool_for(workers, "detect.decode_workers") as pool:
            for batch in batches:
                pending.append(pool.submit(decode_batch, batch, sizes))
                if len(pending) >= limit:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
