"""Detection on every device of a machine: one detector process per device (``detect.devices``).

Each process loads the sources on its device once and runs the decode pipeline of
``negdata.detect.detectors.detect_batches`` with a decode pool of its own, so a device never waits
on another's decoding. The stage reads the shard and cuts it into batches here; batch ``i`` goes
to device ``i mod n`` through a bounded queue, and the evidence comes back in input order.
Shards of one process take the devices one at a time (each shard uses all of them).

``auto`` is every CUDA device the process sees, else the CPU: on a cluster whose workers each
own one GPU (``CUDA_VISIBLE_DEVICES`` set to one), that is one device, and the stage runs in the
worker's own process as it does with any single device.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Any

from negdata.config import DetectConfig
from negdata.detect.decode import RawSample
from negdata.detect.detectors import Detected, batch_size, build_detectors, detect_batches
from negdata.detect.encoders import build_encoder
from negdata.spawning import worker_spawn
from negdata.stopping import STOPPING, ignore_interrupts
from negdata.workers import exit_with_parent

log = logging.getLogger(__name__)

IN_FLIGHT = 4  # batches queued per device beyond the one it works on
_END = "end"


def detect_devices(cfg: DetectConfig) -> list[str]:
    """The devices ``detect.devices`` names: ``auto`` -> every visible CUDA device, else cpu."""
    if not any(hasattr(source, "device") for source in cfg.sources):
        return ["cpu"]  # no source runs a model (label files only): nothing to spread
    if cfg.devices != "auto":
        return list(cfg.devices)
    import torch

    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    return [f"cuda:{i}" for i in range(count)] or ["cpu"]


def _job(inbox: Queue[Any], indices: list[int]) -> Iterator[list[RawSample]]:
    """One shard's batches as the stage sends them, up to its end; their indices go to
    ``indices`` as they are read."""
    while (message := inbox.get()) != _END:
        index, batch = message
        indices.append(index)
        yield batch


def _serve(
    cfg_json: str,
    device: str,
    decode_workers: int,
    parent: int,
    inbox: Queue[Any],
    outbox: Queue[Any],
) -> None:
    """A device's process: load the sources, say what they are, then detect job after job."""
    ignore_interrupts()
    exit_with_parent(parent)

    cfg = DetectConfig.model_validate_json(cfg_json)
    try:
        detectors = build_detectors(cfg, device)
        encoder = build_encoder(cfg, device)
    except Exception as exc:  # the stage reports it in the parent, as one line
        outbox.put(("error", device, f"{type(exc).__name__}: {exc}"))
        return
    described = None if encoder is None else (encoder.name, encoder.dim)
    outbox.put(("ready", device, ([d.name for d in detectors], batch_size(detectors), described)))
    while True:
        indices: list[int] = []
        try:
            job = _job(inbox, indices)
            for n, result in enumerate(detect_batches(detectors, job, decode_workers, encoder)):
                outbox.put(("done", device, (indices[n], result)))
        except Exception as exc:
            outbox.put(("error", device, f"{type(exc).__name__}: {exc}"))
            return


@dataclass
class _Device:
    name: str
    process: BaseProcess
    inbox: Queue[Any]


class DeviceFleet:
    """The detector processes of ``devices``, started once per process and config, stopped
    when the process exits."""

    def __init__(self, cfg: DetectConfig, devices: list[str], decode_workers: int) -> None:
        ctx = worker_spawn()
        self._outbox: Queue[Any] = ctx.Queue()
        self._devices: list[_Device] = []
        self._lock = threading.Lock()
        atexit.register(self.stop)
        cfg_json = cfg.model_dump_json()
        for device in devices:
            inbox: Queue[Any] = ctx.Queue(IN_FLIGHT)
            process = ctx.Process(  # not a daemon: it starts a decode pool of its own
                target=_serve,
                args=(
                    cfg_json,
                    device,
                    decode_workers,
                    os.getpid(),
                    inbox,
                    self._outbox,
                ),
                name=f"negdata-detect-{device}",
            )
            process.start()
            self._devices.append(_Device(device, process, inbox))
        try:
            ready = [self._wait() for _ in devices]
        except RuntimeError:
            self.stop()
            raise
        self.names: list[str] = ready[0][0]
        self.batch: int = ready[0][1]
        self.encoder: tuple[str, int] | None = ready[0][2]  # its name and dim
        log.info("detecting on %d devices: %s", len(devices), ", ".join(devices))

    def stop(self) -> None:
        for device in self._devices:
            device.process.terminate()
        for device in self._devices:
            device.process.join(timeout=10)

    def _poll(self) -> tuple[str, Any] | None:
        """The next (kind, payload) any device sent, or None after a quiet second; a device
        that failed or died ends the stage with one line naming it."""
        try:
            kind, device, payload = self._outbox.get(timeout=1.0)
        except queue.Empty:
            dead = [d.name for d in self._devices if not d.process.is_alive()]
            if dead:
                raise RuntimeError(f"detect.devices: the process of {dead[0]} died") from None
            return None
        if kind == "error":
            raise RuntimeError(f"detect.devices: {device}: {payload}")
        return kind, payload

    def _wait(self) -> Any:
        while (message := self._poll()) is None:
            pass
        return message[1]

    def detect(self, batches: Iterable[list[RawSample]]) -> Iterator[Detected]:
        """Evidence, rejects and embeddings per batch, in the batches' order, the devices taking
        turns."""
        with self._lock:
            sent: list[int] = []  # one entry per batch handed to a device
            finished = threading.Event()
            failed: list[BaseException] = []

            def feed() -> None:
                try:
                    for index, batch in enumerate(batches):
                        self._devices[index % len(self._devices)].inbox.put((index, batch))
                        sent.append(index)
                except BaseException as exc:  # reading the shard failed: end the job, re-raise
                    failed.append(exc)
                finally:
                    for device in self._devices:
                        device.inbox.put(_END)
                    finished.set()

            feeder = threading.Thread(target=feed, name="detect-feed", daemon=True)
            feeder.start()
            waiting: dict[int, Detected] = {}
            done = 0
            while True:
                if done in waiting:
                    yield waiting.pop(done)
                    done += 1
                elif finished.is_set() and done == len(sent):
                    break
                elif (message := self._poll()) is not None:
                    index, result = message[1]
                    waiting[index] = result
            feeder.join()
            if failed:
                raise failed[0]


_fleets: dict[str, DeviceFleet] = {}
_fleets_lock = threading.Lock()


def device_fleet(cfg: DetectConfig, devices: list[str], decode_workers: int) -> DeviceFleet:
    key = f"{cfg.model_dump_json()}|{devices}|{decode_workers}"
    with _fleets_lock:
        if STOPPING.is_set():
            raise RuntimeError("stopping: no new detector process is started")
        if key not in _fleets:
            _fleets[key] = DeviceFleet(cfg, devices, decode_workers)
        return _fleets[key]
