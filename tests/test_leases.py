"""Shard leases: one holder at a time, taken over only once expired, on disk and on S3."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from upath import UPath

from negdata.leases import LeaseHeld, ShardLease


def _wait_until_expired(lease_file: Path | UPath) -> None:
    """Block until the wall clock passes the lease's expiry (no guess at how long that is)."""
    expires = json.loads(lease_file.read_text())["expires"]
    while time.time() <= expires:
        time.sleep(0.05)


@pytest.fixture(params=["local", "s3"])
def out(request: pytest.FixtureRequest, tmp_path: Path) -> Path | UPath:
    if request.param == "local":
        return tmp_path / "run"
    options = request.getfixturevalue("s3_options")
    return UPath(f"s3://{request.getfixturevalue('bucket')}/run", **options)


def test_a_held_shard_is_refused_to_another_run_until_released(out: Path | UPath) -> None:
    first = ShardLease(out, 3, ttl_s=600, owner="worker-a")
    second = ShardLease(out, 3, ttl_s=600, owner="worker-b")
    other_shard = ShardLease(out, 4, ttl_s=600, owner="worker-b")

    first.acquire()
    with pytest.raises(LeaseHeld, match=r"shard 00003 is being worked on by worker-a"):
        second.acquire()
    other_shard.acquire()  # leases are per shard
    first.release()
    second.acquire()

    assert second.held and other_shard.held
    assert json.loads((out / "leases" / "00003.json").read_text())["owner"] == "worker-b"


def test_an_expired_lease_is_taken_over_and_its_old_holder_learns_it(out: Path | UPath) -> None:
    dead = ShardLease(out, 0, ttl_s=0.5, owner="worker-that-died")
    dead.acquire()
    _wait_until_expired(out / "leases" / "00000.json")

    heir = ShardLease(out, 0, ttl_s=600, owner="worker-b")
    heir.acquire()

    assert heir.held
    assert not dead.renew()  # a worker that comes back finds its lease gone
    dead.release()  # and giving it back leaves the new holder's lease alone
    assert json.loads((out / "leases" / "00000.json").read_text())["owner"] == "worker-b"


def test_renewing_pushes_the_expiry_forward(out: Path | UPath) -> None:
    lease = ShardLease(out, 1, ttl_s=30, owner="worker-a")
    lease.acquire()
    lease_file = out / "leases" / "00001.json"
    before = json.loads(lease_file.read_text())["expires"]
    time.sleep(0.05)

    assert lease.renew()
    assert json.loads(lease_file.read_text())["expires"] > before
    with pytest.raises(LeaseHeld):
        ShardLease(out, 1, ttl_s=30, owner="worker-b").acquire()


def test_while_held_a_lease_is_renewed_and_afterwards_released(tmp_path: Path) -> None:
    lease_file = tmp_path / "leases" / "00002.json"
    with ShardLease(tmp_path, 2, ttl_s=0.4, owner="worker-a"):
        first = lease_file.read_text()
        deadline = time.monotonic() + 30
        while lease_file.read_text() == first:  # the renewer thread rewrote it
            assert time.monotonic() < deadline
            time.sleep(0.02)
    assert not lease_file.exists()


@pytest.mark.parametrize("expired", [False, True])
def test_of_many_racing_runs_exactly_one_gets_the_shard(tmp_path: Path, expired: bool) -> None:
    if expired:  # a dead worker's lease: the racers all try to take it over at once
        ShardLease(tmp_path, 5, ttl_s=0.3, owner="dead").acquire()
        _wait_until_expired(tmp_path / "leases" / "00005.json")
    racers = [ShardLease(tmp_path, 5, ttl_s=600, owner=f"racer-{i}") for i in range(16)]
    start = threading.Barrier(len(racers))
    refused: list[LeaseHeld] = []

    def race(lease: ShardLease) -> None:
        start.wait()
        try:
            lease.acquire()
        except LeaseHeld as exc:
            refused.append(exc)

    threads = [threading.Thread(target=race, args=(lease,)) for lease in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    winners = [lease.owner for lease in racers if lease.held]
    assert len(winners) == 1 and len(refused) == len(racers) - 1
    assert json.loads((tmp_path / "leases" / "00005.json").read_text())["owner"] == winners[0]
    assert sorted(p.name for p in (tmp_path / "leases").iterdir()) == [".lock", "00005.json"]


def test_a_live_lease_of_a_dead_process_on_this_machine_is_taken_over_at_once(
    tmp_path: Path,
) -> None:
    """After a kill -9 on one machine, a rerun resumes without waiting out the lease."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    here = socket.gethostname()
    ShardLease(tmp_path, 6, ttl_s=600, owner=f"{here}:{ended}:a").acquire()
    ShardLease(tmp_path, 7, ttl_s=600, owner=f"another-host:{ended}:a").acquire()
    ShardLease(tmp_path, 8, ttl_s=600, owner=f"{here}:{os.getpid()}:a").acquire()

    rerun = ShardLease(tmp_path, 6, ttl_s=600, owner="rerun")
    rerun.acquire()

    assert rerun.held
    with pytest.raises(LeaseHeld):  # a process on another machine cannot be checked: wait
        ShardLease(tmp_path, 7, ttl_s=600, owner="rerun").acquire()
    with pytest.raises(LeaseHeld):  # and a live process's lease is never taken
        ShardLease(tmp_path, 8, ttl_s=600, owner="rerun").acquire()
