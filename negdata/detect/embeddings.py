"""A shard's image embeddings beside its evidence: ``evidence/{shard}_embeddings.parquet``, one row
per image in the evidence's order, ``key`` and ``embedding`` (float16, ``dim`` wide, unit
length). Half precision halves what CC12M's 12M vectors take (12 GB at 512 dimensions) and moves
a cosine by under 0.001. Written while the shard is detected, published whole with it, before
its done marker."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from negdata.shards import Location, atomic_path, shard_name

SUFFIX = "_embeddings.parquet"


def embedding_path(evidence_dir: Location, shard: int) -> Location:
    return evidence_dir / f"{shard_name(shard)}{SUFFIX}"


def schema(dim: int, encoder: str) -> pa.Schema:
    return pa.schema(
        [pa.field("key", pa.string()), pa.field("embedding", pa.list_(pa.float16(), dim))],
        metadata={"encoder": encoder, "dim": str(dim)},
    )


class EmbeddingSink:
    """Rows added a batch at a time (``embedding_sink``)."""

    def __init__(self, writer: pq.ParquetWriter, dim: int) -> None:
        self._writer, self.dim, self.rows = writer, dim, 0

    def add(self, keys: list[str], vectors: np.ndarray) -> None:
        if len(keys) != len(vectors):
            raise RuntimeError(f"{len(vectors)} embeddings for {len(keys)} images")
        flat = pa.array(vectors.astype(np.float16).reshape(-1))
        table = pa.table(
            {"key": keys, "embedding": pa.FixedSizeListArray.from_arrays(flat, self.dim)},
            schema=self._writer.schema,
        )
        self._writer.write_table(table)
        self.rows += len(keys)


@contextmanager
def embedding_sink(path: Location, dim: int, encoder: str) -> Iterator[EmbeddingSink]:
    """The shard's embeddings file, filled while the block runs and published whole when it ends
    without an error."""
    with atomic_path(path) as tmp, pq.ParquetWriter(tmp, schema(dim, encoder)) as writer:
        yield EmbeddingSink(writer, dim)


def read_embeddings(path: Location) -> tuple[list[str], np.ndarray]:
    """The keys and the (n, dim) float16 embeddings of one shard, in the evidence's order."""
    with path.open("rb") as source:
        table = pq.read_table(source)
    dim = table.schema.field("embedding").type.list_size
    column = table.column("embedding").combine_chunks()
    vectors = column.values.to_numpy(zero_copy_only=False).reshape(-1, dim)
    return table.column("key").to_pylist(), vectors
