"""The JPEGs of chosen images in the ingested shard tars, read by offset: the tars' headers are
read once (skipping the data), then each JPEG is one seek and one read, in whatever order the
pairs want them. What is held is an offset per image, never the images: at CC12M size, a run's
paired images are tens of GB."""

from __future__ import annotations

import tarfile
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import IO

from negdata.shards import Location, shard_name
from negdata.wds import KEY_AND_EXTENSION


class IndexedJpegs:
    """``read(key)``: the JPEG of ``key``, one of the keys it was built for."""

    def __init__(self, handles: dict[int, IO[bytes]], where: dict[str, tuple[int, int, int]]):
        self._handles, self._where = handles, where

    def read(self, key: str) -> bytes:
        shard, offset, size = self._where[key]
        handle = self._handles[shard]
        handle.seek(offset)
        return handle.read(size)


@contextmanager
def indexed_jpegs(out: Location, keys: Iterable[tuple[int, str]]) -> Iterator[IndexedJpegs]:
    """The JPEGs of ``keys`` ((shard, key) pairs) in ``out``'s ``shards/`` tars, open while the
    block runs; an error naming the tar and a key it lacks."""
    wanted: dict[int, set[str]] = {}
    for shard, key in keys:
        wanted.setdefault(shard, set()).add(key)
    where: dict[str, tuple[int, int, int]] = {}
    with ExitStack() as stack:
        handles: dict[int, IO[bytes]] = {}
        for shard, names in sorted(wanted.items()):
            tar = out / "shards" / f"{shard_name(shard)}.tar"
            handle = stack.enter_context(tar.open("rb"))
            with tarfile.open(fileobj=handle, mode="r:") as members:
                for member in members:
                    match = KEY_AND_EXTENSION.match(member.name)
                    if match and match.group(2).lower() == "jpg" and match.group(1) in names:
                        where[match.group(1)] = (shard, member.offset_data, member.size)
            missing = names - where.keys()
            if missing:
                raise ValueError(f"{tar}: no JPEG for {len(missing)} keys, e.g. {min(missing)}")
            handles[shard] = handle
        yield IndexedJpegs(handles, where)
