"""The decode pool hands a batch's pixels over through files of a RAM folder (``_Slots``), not
the pool's pipe: the same pixels, the files gone afterwards, folders of killed processes swept,
and the pipe again where the folder cannot hold them."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from negdata.detect.decode import RawSample, _Slots, decoded_batches

SIZES = (64, 96)


def _jpeg(seed: int, size: tuple[int, int]) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG")
    return buffer.getvalue()


def _batches() -> list[list[RawSample]]:
    """Three batches of 4, 4 and 3 (the last short), one image in the second not a JPEG."""
    samples = [
        RawSample(f"{i:03d}", "", "", b"not a jpeg" if i == 5 else _jpeg(i, (40 + 9 * i, 70)))
        for i in range(11)
    ]
    return [samples[0:4], samples[4:8], samples[8:11]]


def _decode(shared: Path | None) -> list[tuple[list[str], list[str], dict[int, np.ndarray]]]:
    """Each batch's keys, rejects and pixels, copied before the next batch is asked for."""
    return [
        (
            [s.key for s in batch.samples],
            [s.key for s, _, _ in batch.rejects],
            {size: array.copy() for size, array in batch.pixels.items()},
        )
        for batch in decoded_batches(_batches(), SIZES, workers=2, ahead=2, shared=shared)
    ]


def test_pixels_through_shared_files_are_those_through_the_pipe(tmp_path: Path) -> None:
    piped = _decode(None)
    shared = _decode(tmp_path)

    assert [(keys, rejects) for keys, rejects, _ in shared] == [
        (["000", "001", "002", "003"], []),
        (["004", "006", "007"], ["005"]),
        (["008", "009", "010"], []),
    ]
    for (_, _, got), (_, _, want) in zip(shared, piped, strict=True):
        assert {size: a.shape for size, a in got.items()} == {
            size: a.shape for size, a in want.items()
        }
        assert all(np.array_equal(got[size], want[size]) for size in SIZES)
        assert all(got[size].std() > 10 for size in SIZES)  # images, not zeros
    assert list(tmp_path.iterdir()) == []  # the slot files are removed


_HOLD_LOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)
"""


def test_folders_of_a_dead_process_are_swept_and_a_live_ones_kept(tmp_path: Path) -> None:
    dead = tmp_path / "negdata-decode-1-abc"  # its lock file is held by nobody
    dead.mkdir()
    (dead / ".lock").touch()
    (dead / "0").write_bytes(b"\0" * 1024)
    unlocked = tmp_path / "negdata-decode-2-ghi"  # no lock file: not ours to judge
    unlocked.mkdir()
    live = tmp_path / "negdata-decode-3-def"
    live.mkdir()
    with subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(live / ".lock")], stdout=subprocess.PIPE, text=True
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
            _decode(tmp_path)
            assert not dead.exists() and live.is_dir() and unlocked.is_dir()
        finally:
            holder.kill()
    _decode(tmp_path)  # its holder gone, the live one's folder goes too
    assert sorted(p.name for p in tmp_path.iterdir()) == [unlocked.name]


_SWEEP_FOREVER = """
import sys
from pathlib import Path
from negdata.detect.decode import _sweep
print("sweeping", flush=True)
while True:
    _sweep(Path(sys.argv[1]))
"""


def test_a_folder_being_made_is_never_swept(tmp_path: Path) -> None:
    """Other processes sweep the folder all the while (two detect stages on one machine): a
    folder another process is making must not look dead to them. Once it did, between its lock
    file's creation and its locking, and a worker's slot file vanished under it (1 in 300)."""
    sweepers = [
        subprocess.Popen(
            [sys.executable, "-c", _SWEEP_FOREVER, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    try:
        for sweeper in sweepers:
            assert sweeper.stdout is not None and sweeper.stdout.readline() == "sweeping\n"
        lost = 0
        for _ in range(5000):
            slots = _Slots(tmp_path, (64,), count=1)
            slot = slots.take(4)
            lost += slot is None or not slot.exists()
            slots.close()
    finally:
        for sweeper in sweepers:
            sweeper.kill()
            sweeper.wait()
    assert lost == 0
    assert list(tmp_path.iterdir()) == []


def test_a_folder_too_small_for_the_slots_falls_back_to_the_pipe(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    slots = _Slots(tmp_path, (640,), count=10**9)  # ~1.2 PB: no folder holds that
    with caplog.at_level(logging.WARNING, "negdata.detect.decode"):
        assert slots.take(64) is None
        assert slots.take(64) is None
    assert len(caplog.records) == 1 and "through the decode pool's pipe" in caplog.text
    assert list(tmp_path.iterdir()) == []
    assert _Slots(tmp_path / "missing", (640,), count=2).take(64) is None


def test_the_handover_benchmark_runs_both_ways(tmp_path: Path) -> None:
    """``make bench-decode``'s machinery on a shard of 10 images, so that it cannot rot."""
    from bench.decode import WAYS, one_pass
    from bench.detect import write_shard

    write_shard(tmp_path, 10)
    tar = tmp_path / "shards" / "00000.tar"
    for shared in WAYS.values():
        seconds, cpu, images = one_pass(tar, 4, 64, 2, shared)
        assert images == 10 and seconds > 0 and cpu > 0
