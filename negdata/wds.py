"""WebDataset tars: write a shard atomically, read it back sample by sample; and which of a
NegCap image's captions a trainer uses in a given epoch."""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, Literal

from negdata.shards import Location, atomic_path

Sample = dict[str, Any]
# WebDataset's grouping: the key is the path up to the first dot of the file name.
KEY_AND_EXTENSION = re.compile(r"^((?:.*/|)[^.]+)[.]([^/]*)$")


def write_tar(path: Location, samples: Iterable[Sample]) -> int:
    """Write samples (``__key__`` plus members such as jpg/txt/json) to ``path`` atomically
    (``tar_writer``); returns how many."""
    count = 0
    with tar_writer(path) as write:
        for sample in samples:
            write(sample)
            count += 1
    return count


@contextmanager
def tar_writer(path: Location) -> Iterator[Callable[[Sample], None]]:
    """A function that appends one sample to the tar at ``path``, which appears, whole, when the
    block ends without an error: a shard streams to its tar, never held in memory.

    The bytes are those of webdataset's ``TarWriter(mtime=0)``: members in sorted extension
    order, ustar headers, mode 0444, owner bigdata, no clock (a rerun writes the same tar).
    Written with tarfile directly, because importing webdataset imports torch: seconds of CPU
    in every ingest process."""
    with (
        atomic_path(path) as tmp,
        tmp.open("wb") as fh,
        tarfile.open(fileobj=fh, mode="w|", format=tarfile.USTAR_FORMAT) as tar,
    ):

        def write(sample: Sample) -> None:
            key = sample["__key__"]
            if "." in key:
                raise ValueError(f"WebDataset keys must not contain '.': {key}")
            for extension in sorted(k for k in sample if not k.startswith("_")):
                data = _encoded(extension, sample[extension])
                member = tarfile.TarInfo(f"{key}.{extension}")
                member.size, member.mtime, member.mode = len(data), 0, 0o444
                member.uname = member.gname = "bigdata"
                tar.addfile(member, io.BytesIO(data))

        yield write


def _encoded(extension: str, value: Any) -> bytes:
    """webdataset's default encoding of the member types negdata writes."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if extension == "json":
        return json.dumps(value).encode("utf-8")
    raise TypeError(f"no encoding for .{extension} of type {type(value).__name__}")


def read_tar(path: Location) -> Iterator[Sample]:
    """Samples of a tar in order: ``__key__`` plus raw bytes per extension (json decoded)."""
    with path.open("rb") as fh:
        for key, files in tar_samples(fh, "r|*", read=True):
            yield {
                "__key__": key,
                **{ext: json.loads(data) if ext == "json" else data for ext, data in files.items()},
            }


def tar_samples(
    fh: IO[bytes], mode: Literal["r:*", "r|*"], *, read: bool
) -> Iterator[tuple[str, dict[str, bytes]]]:
    """(key, {extension: bytes}) per sample: consecutive regular members sharing a key, as
    WebDataset groups them. With ``read`` false the dicts stay empty and only headers are read.
    Every tar reader in negdata goes through here, so a source index and its reader agree."""
    key: str | None = None
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=fh, mode=mode) as tar:
        for member in tar:
            match = KEY_AND_EXTENSION.match(member.name) if member.isfile() else None
            if match is None:
                continue
            if match.group(1) != key:
                if key is not None:
                    yield key, files
                key, files = match.group(1), {}
            extracted = tar.extractfile(member) if read else None
            if extracted is not None:
                files[match.group(2).lower()] = extracted.read()
    if key is not None:
        yield key, files


def caption_index(key: str, count: int, epoch: int, seed: int = 0) -> int:
    """Which of an image's ``count`` captions to train on in ``epoch``: the image's captions in
    an order shuffled by ``seed`` and its key, gone through once every ``count`` epochs."""
    order = sorted(
        range(count), key=lambda i: hashlib.sha256(f"{seed}/{key}/{i}".encode()).digest()
    )
    return order[epoch % count]


def caption_for_epoch(record: Mapping[str, Any], epoch: int, seed: int = 0) -> str:
    """The caption to train on in ``epoch``, from a NegCap sample's decoded ``.json``
    (``records.NegCapSample``): every caption of the image in turn, one per epoch. With the
    run's seed (``run.seed``), epoch 0 gives the sample's ``.txt``. In a webdataset pipeline:
    ``.map(lambda s: {**s, "txt": caption_for_epoch(s["json"], epoch)})``."""
    captions = record["captions"]
    return str(captions[caption_index(record["key"], len(captions), epoch, seed)]["text"])
