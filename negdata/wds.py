"""WebDataset tars: write a shard atomically, read it back sample by sample."""

from __future__ import annotations

import json
import tarfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from negdata.shards import atomic_path

Sample = dict[str, Any]


def write_tar(path: Path, samples: Iterable[Sample]) -> int:
    """Write samples (``__key__`` plus members such as jpg/txt/json) to ``path`` atomically."""
    import webdataset as wds  # imports torch: only where a tar is written

    count = 0
    with atomic_path(path) as tmp, tmp.open("wb") as fh:
        writer = wds.TarWriter(fh, mtime=0)  # no clock in the bytes: a rerun writes the same tar
        for sample in samples:
            if "." in sample["__key__"]:
                raise ValueError(f"WebDataset keys must not contain '.': {sample['__key__']}")
            writer.write(sample)
            count += 1
        writer.close()
    return count


def read_tar(path: Path) -> Iterator[Sample]:
    """Samples of a tar in order: ``__key__`` plus raw bytes per extension (json decoded)."""
    current: Sample | None = None
    with tarfile.open(path) as tar:
        for member in tar:
            if not member.isfile():
                continue
            key, _, ext = member.name.partition(".")
            extracted = tar.extractfile(member)
            if extracted is None:
                continue
            data = extracted.read()
            if current is None or current["__key__"] != key:
                if current is not None:
                    yield current
                current = {"__key__": key}
            current[ext] = json.loads(data) if ext == "json" else data
    if current is not None:
        yield current
