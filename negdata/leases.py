"""One worker at a time per shard: a lease object beside the outputs, with an owner and an expiry.

A run takes a shard's lease before the shard's first stage and gives it back after the last;
while it works, a thread renews it. Another run (another worker, a second ``make generate`` by
hand) that finds the lease held skips the shard and says so; a lease whose expiry has passed
belongs to a worker that died, and is taken over. The done markers still say what is finished:
a lease only says who is working now.

Every change is an atomic compare-and-set on the store, so two runs racing for one shard cannot
both win: on a local or shared file system, under an exclusive ``flock`` of the leases folder
(NFS needs its lock service, as for any shared lock); on an object store, S3's conditional
writes (``If-None-Match: *`` to create, ``If-Match: <etag>`` to take over or renew). Expiry is
judged by wall clock, so the machines of a cluster need synchronised clocks (NTP), as usual.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import psutil
from fsspec.asyn import sync

from negdata.shards import Location, is_remote, shard_name

log = logging.getLogger(__name__)

LEASES = "leases"  # the folder of the run directory that holds them
_held: set[ShardLease] = set()  # leases this process holds, for release_held()
_held_lock = threading.Lock()
RENEWALS_PER_TTL = 4  # a lease is renewed this many times per time-to-live
# S3's answers to a conditional write whose condition does not hold.
CONDITION_FAILED = ("PreconditionFailed", "ConditionalRequestConflict")


class LeaseHeld(Exception):
    """The shard is leased by another run whose lease has not expired."""

    def __init__(self, shard: int, owner: str, expires: float) -> None:
        left = max(0.0, expires - time.time())
        super().__init__(
            f"shard {shard_name(shard)} is being worked on by {owner} (lease for {left:.0f} s more)"
        )
        self.shard = shard
        self.owner = owner


@dataclass(frozen=True)
class _Found:
    """A lease as read: its fields, and the version that a compare-and-set must name."""

    owner: str
    expires: float
    version: str


class _LocalStore:
    """Compare-and-set on a local or shared file system; a lease's version is its content.

    Each operation runs under an exclusive ``flock`` of the folder's ``.lock`` file (and a
    process-wide lock, since threads of one process may share flock's view on NFS), and
    writes by renaming a finished file into place: a lease is never seen half-written."""

    _in_process = threading.Lock()

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._in_process, open(self.path.parent / ".lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def _version(self) -> str | None:
        try:
            return self.path.read_text()
        except FileNotFoundError:
            return None

    def _write(self, data: bytes) -> str:
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, self.path)
        return data.decode()

    def create(self, data: bytes) -> str | None:
        """Write the lease if there is none; its version, or None when one exists."""
        with self._locked():
            return self._write(data) if self._version() is None else None

    def read(self) -> tuple[bytes, str] | None:
        with self._locked():
            version = self._version()
        return None if version is None else (version.encode(), version)

    def take_over(self, data: bytes, version: str) -> str | None:
        """Replace the lease if it is still ``version``; None if it changed or went."""
        with self._locked():
            return self._write(data) if self._version() == version else None

    renew = take_over

    def delete(self, version: str) -> None:
        with self._locked():
            if self._version() == version:
                self.path.unlink()


class _ObjectStore:
    """Compare-and-set with S3's conditional writes; a lease's version is its ETag."""

    def __init__(self, path: Any) -> None:
        self.fs = path.fs
        self.bucket, self.key, _ = self.fs.split_path(path.path)

    def _put(self, data: bytes, **condition: str) -> str | None:
        """PutObject with a condition; None when S3 answers that it does not hold (412, or
        409 for a conditional write racing another)."""
        from botocore.exceptions import ClientError

        async def put() -> str:
            client = await self.fs.set_session()  # the raw client: s3fs would blur the code
            reply = await client.put_object(
                Bucket=self.bucket, Key=self.key, Body=data, **condition
            )
            return str(reply["ETag"])

        try:
            etag: str = sync(self.fs.loop, put)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in CONDITION_FAILED:
                return None
            raise
        return etag

    def create(self, data: bytes) -> str | None:
        return self._put(data, IfNoneMatch="*")

    def read(self) -> tuple[bytes, str] | None:
        async def get() -> tuple[bytes, str]:  # the body and its ETag from one response
            reply = await self.fs._call_s3("get_object", Bucket=self.bucket, Key=self.key)
            body: bytes = await reply["Body"].read()
            return body, str(reply["ETag"])

        try:
            found: tuple[bytes, str] = sync(self.fs.loop, get)
        except FileNotFoundError:
            return None
        return found

    def take_over(self, data: bytes, version: str) -> str | None:
        return self._put(data, IfMatch=version)

    def renew(self, data: bytes, version: str) -> str | None:
        return self._put(data, IfMatch=version)

    def delete(self, version: str) -> None:
        found = self.read()
        if found is not None and found[1] == version:
            self.fs.call_s3("delete_object", Bucket=self.bucket, Key=self.key)


def release_held() -> None:
    """Give back every lease this process holds (a run stopping on SIGTERM or Ctrl-C), so a
    rerun need not wait for them to expire."""
    with _held_lock:
        held = list(_held)
    for lease in held:
        lease.let_go()


def live_owner(output_dir: Location, shard: int) -> str | None:
    """Who holds the shard's lease now, or None when nobody does (no lease, or an expired one:
    its worker died). Reads only."""
    return ShardLease(output_dir, shard, ttl_s=0).holder()


def _owner_died_here(owner: str) -> bool:
    """Whether ``owner`` ran on this machine and its process is gone: its lease need not be
    waited out (after a kill -9 on one machine, a rerun resumes at once). A live process
    with that pid counts as the owner, whatever it is: a lease is never taken from a live run."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    return host == host_identity() and pid.isdigit() and not psutil.pid_exists(int(pid))


def host_identity() -> str:
    """This machine's name in leases and cache parts: ``NEGDATA_HOST`` where set (containers
    that share a hostname, or two "machines" on one), else the hostname."""
    return os.environ.get("NEGDATA_HOST") or socket.gethostname()


def new_owner() -> str:
    """Who holds a lease: host, process id and a nonce (pids are reused)."""
    return f"{host_identity()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class ShardLease:
    """``with ShardLease(output_dir, shard, ttl_s):`` work on the shard as its only worker;
    entering raises ``LeaseHeld`` when another live run has it."""

    def __init__(
        self, output_dir: Location, shard: int, ttl_s: float, owner: str | None = None
    ) -> None:
        self.shard = shard
        self.ttl_s = ttl_s
        self.owner = owner or new_owner()
        path = output_dir / LEASES / f"{shard_name(shard)}.json"
        self._store = (
            _ObjectStore(path)
            if is_remote(path)
            else _LocalStore(path if isinstance(path, Path) else Path(path.path))
        )
        self._version: str | None = None
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    @property
    def held(self) -> bool:
        return self._version is not None

    def _body(self) -> bytes:
        record = {"owner": self.owner, "expires": time.time() + self.ttl_s, "ttl_s": self.ttl_s}
        return json.dumps(record, sort_keys=True).encode()

    def _read(self) -> _Found | None:
        found = self._store.read()
        if found is None:
            return None
        data, version = found
        try:
            record = json.loads(data)
            return _Found(str(record["owner"]), float(record["expires"]), version)
        except (ValueError, KeyError, TypeError):
            return _Found("an unreadable lease", 0.0, version)  # expired: taken over

    def holder(self) -> str | None:
        """The owner of the lease if it is live, else None (reads only)."""
        found = self._read()
        if found is None or found.expires <= time.time() or _owner_died_here(found.owner):
            return None
        return found.owner

    def acquire(self) -> None:
        """Take the lease, or take over an expired one; ``LeaseHeld`` if another has it."""
        while self._version is None:
            self._version = self._store.create(self._body())
            if self._version is not None:
                return
            found = self._read()
            if found is None:
                continue  # released meanwhile: try again
            if found.expires > time.time() and not _owner_died_here(found.owner):
                raise LeaseHeld(self.shard, found.owner, found.expires)
            self._version = self._store.take_over(self._body(), found.version)
            if self._version is not None:
                name = shard_name(self.shard)
                log.warning("shard %s: took over the lease of %s, which is gone", name, found.owner)

    def renew(self) -> bool:
        """Push the expiry forward; False when the lease was lost (taken over meanwhile)."""
        if self._version is not None:
            self._version = self._store.renew(self._body(), self._version)
            if self._version is None:
                log.warning("shard %s: lease lost to another run", shard_name(self.shard))
        return self._version is not None

    def release(self) -> None:
        if self._version is not None:
            self._store.delete(self._version)
            self._version = None

    def _renew_until_stopped(self) -> None:
        while not self._stop.wait(self.ttl_s / RENEWALS_PER_TTL):
            if not self.renew():
                return

    def hold(self) -> None:
        """Acquire the lease (``LeaseHeld`` if another has it) and renew it until ``let_go``."""
        self.acquire()
        with _held_lock:
            _held.add(self)
        self._stop.clear()
        self._renewer = threading.Thread(
            target=self._renew_until_stopped, name=f"lease-{self.shard}", daemon=True
        )
        self._renewer.start()

    def let_go(self) -> None:
        """Stop renewing and release the lease."""
        self._stop.set()
        if self._renewer is not None and self._renewer is not threading.current_thread():
            self._renewer.join()
            self._renewer = None
        self.release()
        with _held_lock:
            _held.discard(self)

    def __enter__(self) -> ShardLease:
        self.hold()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.let_go()
