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

A worker writes a batch's pixels into a file of a RAM folder (``SHM_DIR``) that the consumer maps
too (``_Slots``), rather than returning them through the pool's pipe: 1.2 MB an image at 640 px,
pickled, piped and unpickled on one thread of the consumer's process, capped the stage near 250
images/s on an H200 whatever the model and the number of workers (``bench/detect_gpu.sh``).
Where that folder is missing or too small (a container's default 64 MB ``/dev/shm``), the pixels
travel through the pipe as before, and one warning says so.
"""

from __future__ import annotations

import fcntl
import io
import logging
import os
import re
import shutil
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from negdata.workers import pool_for

log = logging.getLogger(__name__)

UNDECODABLE = "undecodable_image"
SHM_DIR = Path("/dev/shm")  # a RAM folder on Linux; absent elsewhere: the pipe is used
_SLOTS_PREFIX = "negdata-decode-"
_MAKING_PREFIX = "negdata-making-"  # a slot folder not yet locked
_LOCK = ".lock"
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
    shape (n, size, size, 3) per size), their original (height, width), and the rejects. From
    ``decoded_batches``, the pixels are valid until the next batch is asked for."""

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


def _image_bytes(sizes: tuple[int, ...]) -> int:
    return sum(size * size * 3 for size in sizes)


def _views(buffer: np.ndarray, sizes: tuple[int, ...], count: int) -> dict[int, np.ndarray]:
    """The first ``count`` images per size of a slot: one region per size, each as many images
    long as the slot holds."""
    capacity = buffer.size // _image_bytes(sizes)
    views, offset = {}, 0
    for size in sizes:
        views[size] = buffer[offset : offset + count * size * size * 3].reshape(
            count, size, size, 3
        )
        offset += capacity * size * size * 3
    return views


def decode_batch(
    samples: list[RawSample], sizes: tuple[int, ...], slot: Path | None = None
) -> DecodedBatch:
    """Decode and letterbox one batch (runs in a pool worker). With ``slot`` (a file
    ``_Slots`` made), the pixels are written there and the batch comes back without them."""
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
    if slot is not None:
        views = _views(np.memmap(slot, np.uint8, "r+"), sizes, len(out.samples))
        for size, arrays in boxed.items():
            for i, array in enumerate(arrays):
                views[size][i] = array
        return out
    out.pixels = {
        size: np.stack(arrays) if arrays else np.zeros((0, size, size, 3), np.uint8)
        for size, arrays in boxed.items()
    }
    return out


def _sweep(folder: Path) -> None:
    """Remove the slot folders of processes that are gone: a live owner holds its lock."""
    for stale in folder.glob(f"{_SLOTS_PREFIX}*"):
        try:
            fd = os.open(stale / _LOCK, os.O_RDWR)
        except OSError:
            continue  # no lock file: not a folder of ours to judge
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # held: its process lives
        finally:
            os.close(fd)
        shutil.rmtree(stale, ignore_errors=True)


class _Slots:
    """Files in ``folder`` (a RAM folder), each holding one batch's pixels, that pool workers
    write and this process maps: ``count`` at most, each as large as the first batch asked for,
    its space reserved when made (a full RAM folder would kill the worker writing to it). They
    live in a folder of their own, locked while in use and removed on ``close``; the folders of
    a killed process are removed by the next one. ``take`` gives None (use the pipe) where the
    folder cannot hold them."""

    def __init__(self, folder: Path | None, sizes: tuple[int, ...], count: int) -> None:
        self._folder, self._sizes, self._count = folder, sizes, count
        self._dir: Path | None = None
        self._lock: int | None = None
        self._free: list[Path] = []
        self._maps: dict[Path, np.ndarray] = {}  # mapped once: a fresh map faults every page
        self._made = 0
        self._capacity = 0
        self._usable = folder is not None and folder.is_dir()

    def _refuse(self, why: str) -> None:
        log.warning(
            "detect: %s: the decoded pixels go through the decode pool's pipe, which is slower "
            "(on Docker, raise --shm-size)",
            why,
        )
        self._usable = False

    def _open(self, capacity: int) -> None:
        assert self._folder is not None
        _sweep(self._folder)
        need = self._count * capacity * _image_bytes(self._sizes)
        free = shutil.disk_usage(self._folder).free
        if free < need:
            self._refuse(
                f"{self._folder} has {free // 2**20} MB free, under the {need // 2**20} MB "
                f"{self._count} batches need"
            )
            return
        self._capacity = capacity
        # Made and locked under a name no sweep looks at, then renamed into place: a sweep
        # that opened the lock before it was held would take a live folder for a dead one.
        making = Path(tempfile.mkdtemp(prefix=f"{_MAKING_PREFIX}{os.getpid()}-", dir=self._folder))
        self._lock = os.open(making / _LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock, fcntl.LOCK_EX)
        self._dir = making.with_name(making.name.replace(_MAKING_PREFIX, _SLOTS_PREFIX, 1))
        making.rename(self._dir)

    def _make(self) -> Path | None:
        assert self._dir is not None
        path = self._dir / str(self._made)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.posix_fallocate(fd, 0, self._capacity * _image_bytes(self._sizes))
            finally:
                os.close(fd)
        except OSError as exc:
            path.unlink(missing_ok=True)
            self._refuse(f"{path}: {exc}")
            return None
        self._made += 1
        return path

    def take(self, images: int) -> Path | None:
        """A free slot for a batch of ``images``; None where the pipe is to be used."""
        if self._usable and self._dir is None:
            self._open(images)
        if self._free and images <= self._capacity:
            return self._free.pop()
        if not self._usable or images > self._capacity or self._made == self._count:
            return None
        return self._make()

    def give(self, slot: Path) -> None:
        self._free.append(slot)

    def views(self, slot: Path, count: int) -> dict[int, np.ndarray]:
        if slot not in self._maps:
            self._maps[slot] = np.memmap(slot, np.uint8, "r+")  # torch wants writable
        return _views(self._maps[slot], self._sizes, count)

    def close(self) -> None:
        """Remove the files; arrays still mapping them stay valid until they are dropped."""
        self._maps.clear()
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)


def decoded_batches(
    batches: Iterable[list[RawSample]],
    sizes: tuple[int, ...],
    workers: int,
    ahead: int | None = None,
    shared: Path | None = SHM_DIR,
) -> Iterator[DecodedBatch]:
    """Decode ``batches`` in the pool, in order, with at most ``ahead`` batches in flight
    (default: two per worker), so decoding runs ahead of the consumer but memory stays flat.
    The pixels come through files in the RAM folder ``shared`` (None: through the pipe), each
    batch's valid until the next is asked for."""
    limit = ahead or 2 * workers
    slots = _Slots(shared, sizes, limit + 1)  # those in flight, and the one the consumer holds
    pending: deque[tuple[Future[Any], Path | None]] = deque()

    def ready() -> Iterator[DecodedBatch]:
        future, slot = pending.popleft()
        batch: DecodedBatch = future.result()
        if slot is not None:
            batch.pixels = slots.views(slot, len(batch.samples))
        yield batch
        if slot is not None:
            slots.give(slot)

    try:
        with pool_for(workers, "detect.decode_workers") as pool:
            for batch in batches:
                slot = slots.take(len(batch))
                pending.append((pool.submit(decode_batch, batch, sizes, slot), slot))
                if len(pending) >= limit:
                    yield from ready()
            while pending:
                yield from ready()
    finally:
        for future, _ in pending:
            future.cancel()
        slots.close()
