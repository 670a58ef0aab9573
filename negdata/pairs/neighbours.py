"""Each image's nearest neighbours by cosine over a run's embeddings (``detect.encoder``), with
FAISS: an exact inner-product index up to ``pairs.exact_up_to`` images, IVF-PQ beyond (CC12M
size), which offers ``RESCORED`` times as many candidates, then scored exactly from the stored
vectors and the best kept, so a pair's published similarity and the ``min_similarity`` cut never
depend on the quantiser."""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from negdata.detect.embeddings import embedding_path, read_embeddings
from negdata.pairs.labels import ImageLabels
from negdata.pairs.layout import NEIGHBOURS_FILE
from negdata.shards import Location, atomic_path

log = logging.getLogger(__name__)

CHUNK = 2048  # queries searched (and vectors converted to float32) at a time
RESCORED = 4  # IVF-PQ's candidates per neighbour kept
SEED = 0  # the IVF training sample's


@dataclass(frozen=True)
class Neighbours:
    """Row i: image i's nearest other images, most similar first (``ids`` -1 where there are
    fewer), and their exact cosine similarities. ``index`` says how they were found."""

    ids: np.ndarray  # (n, k) int64
    similarity: np.ndarray  # (n, k) float32
    index: str


def load_vectors(evidence_dir: Location, images: Sequence[ImageLabels]) -> np.ndarray:
    """The (n, dim) float16 embeddings of ``images``, in their order, from their shards'
    embeddings files; an error naming the shard where a file is missing or holds other keys."""
    parts: list[np.ndarray] = []
    for shard, group in itertools.groupby(images, key=lambda image: image.shard):
        path = embedding_path(evidence_dir, shard)
        if not path.exists():
            raise ValueError(
                f"{path}: no embeddings for shard {shard}: detect it again with detect.encoder set"
            )
        keys, vectors = read_embeddings(path)
        if keys != [image.key for image in group]:
            raise ValueError(f"{path}: its keys are not those of the shard's evidence")
        parts.append(vectors)
    return np.concatenate(parts) if parts else np.zeros((0, 0), np.float16)


def nearest(vectors: np.ndarray, k: int, exact_up_to: int, nprobe: int) -> Neighbours:
    """The ``k`` nearest other images of every image (its own row left out)."""
    import faiss

    n, dim = vectors.shape if vectors.size else (len(vectors), 0)
    k = min(k, max(n - 1, 0))
    if k == 0:
        empty = np.zeros((n, 0))
        return Neighbours(empty.astype(np.int64), empty.astype(np.float32), "none")
    quantizer = faiss.IndexFlatIP(dim)
    index: Any = quantizer
    described = f"exact (flat inner product, {n} vectors)"
    offered = k
    if n > exact_up_to:
        nlist = max(1, min(int(4 * math.sqrt(n)), n // 39))  # FAISS wants 39 points a list
        m = next(m for m in (64, 48, 32, 16, 8, 4, 2, 1) if dim % m == 0)
        index = faiss.IndexIVFPQ(quantizer, dim, nlist, m, 8, faiss.METRIC_INNER_PRODUCT)
        rows = np.random.default_rng(SEED).choice(n, min(n, 64 * nlist), replace=False)
        index.train(vectors[np.sort(rows)].astype(np.float32))
        index.nprobe = min(nprobe, nlist)
        offered = min(RESCORED * k, n - 1)
        described = (
            f"IVF-PQ ({nlist} lists, {m} bytes a vector, nprobe {index.nprobe}), "
            f"{offered} candidates rescored"
        )
    for start in range(0, n, CHUNK):
        index.add(vectors[start : start + CHUNK].astype(np.float32))
    ids = np.full((n, k), -1, np.int64)
    similarity = np.full((n, k), -np.inf, np.float32)
    for start in range(0, n, CHUNK):
        queries = vectors[start : start + CHUNK].astype(np.float32)
        _, found = index.search(queries, offered + 1)  # one more: the query itself
        itself = found == np.arange(start, start + len(found))[:, None]
        others = np.argsort(itself, axis=1, kind="stable")  # the query's own row moved last
        chunk = np.take_along_axis(found, others, 1)[:, :offered]
        exact = np.einsum("qd,qkd->qk", queries, vectors[np.maximum(chunk, 0)].astype(np.float32))
        exact = np.where(chunk >= 0, exact, -np.inf)
        best = np.argsort(-exact, axis=1, kind="stable")[:, :k]  # rescored: re-ranked
        ids[start : start + CHUNK] = np.take_along_axis(chunk, best, 1)
        similarity[start : start + CHUNK] = np.take_along_axis(exact, best, 1)
    log.info("pairs: %d nearest neighbours of %d images, %s", k, n, described)
    return Neighbours(ids, similarity, described)


def saved_nearest(
    folder: Location,
    key: str,
    vectors: Callable[[], np.ndarray],
    k: int,
    exact_up_to: int,
    nprobe: int,
) -> tuple[Neighbours, bool]:
    """The neighbours ``folder`` holds for ``key`` (a hash of the evidence and the settings that
    find them), else those of ``vectors()``, found and saved for the next run: a change of what is
    mined among them (``min_similarity``, ``min_overlap``, the cap) searches nothing again. Also
    whether they were saved ones."""
    path = folder / NEIGHBOURS_FILE
    try:
        with path.open("rb") as source, np.load(source) as saved:
            if str(saved["key"]) == key:
                return Neighbours(saved["ids"], saved["similarity"], str(saved["index"])), True
    except FileNotFoundError:
        pass
    found = nearest(vectors(), k, exact_up_to, nprobe)
    with atomic_path(path) as tmp, tmp.open("wb") as out:
        np.savez(out, ids=found.ids, similarity=found.similarity, index=found.index, key=key)
    return found, False
