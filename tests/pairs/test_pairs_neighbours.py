"""Nearest neighbours over embeddings: exact against brute force, IVF-PQ rescored exactly, an
image never its own neighbour; and mining among them: the similarity cut, the order, the cap."""

from __future__ import annotations

import numpy as np

from negdata.pairs import ImageLabels, mine
from negdata.pairs.neighbours import Neighbours, nearest

ALL = frozenset({"person", "dog", "cat", "bench", "cup"})


def _unit(rows: np.ndarray) -> np.ndarray:
    rows = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.astype(np.float16)


def _clustered(n: int, dim: int, seed: int = 0) -> np.ndarray:
    """Unit vectors around 20 centres: nearest neighbours that mean something."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, dim))
    return _unit(centres[rng.integers(0, 20, n)] + 0.3 * rng.standard_normal((n, dim)))


def _brute(vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    full = vectors.astype(np.float32)
    scores = full @ full.T
    np.fill_diagonal(scores, -np.inf)
    ids = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return ids, np.take_along_axis(scores, ids, 1)


def test_exact_neighbours_are_brute_force_s_without_the_image_itself() -> None:
    vectors = _clustered(500, 32)
    found = nearest(vectors, 5, exact_up_to=1000, nprobe=8)
    ids, scores = _brute(vectors, 5)
    assert found.index.startswith("exact")
    assert (found.ids != np.arange(500)[:, None]).all()
    np.testing.assert_allclose(found.similarity, scores, atol=1e-5)
    # Ties aside, the same images: each found neighbour is as close as brute force's.
    assert (ids[:, 0] == found.ids[:, 0]).mean() > 0.99


def test_ivf_pq_neighbours_are_rescored_exactly_and_sorted() -> None:
    vectors = _clustered(4000, 32)
    found = nearest(vectors, 8, exact_up_to=1000, nprobe=16)
    assert found.index.startswith("IVF-PQ")
    full = vectors.astype(np.float32)
    valid = found.ids >= 0
    exact = np.einsum("nd,nkd->nk", full, full[np.maximum(found.ids, 0)])
    np.testing.assert_allclose(found.similarity[valid], exact[valid], atol=1e-5)
    assert (np.diff(np.where(valid, found.similarity, -2), axis=1) <= 1e-6).all()
    assert (found.ids != np.arange(4000)[:, None]).all()
    # The approximate index still finds most true nearest neighbours.
    ids, _ = _brute(vectors, 1)
    assert (found.ids[:, 0] == ids[:, 0]).mean() > 0.8


def test_fewer_images_than_neighbours_asked_for() -> None:
    found = nearest(_clustered(3, 8), 10, exact_up_to=100, nprobe=1)
    assert found.ids.shape == (3, 2) and (found.ids >= 0).all()
    alone = nearest(_clustered(1, 8), 10, exact_up_to=100, nprobe=1)
    assert alone.ids.shape == (1, 0)


def _image(key: str, present: set[str]) -> ImageLabels:
    return ImageLabels(key, 0, frozenset(present), ALL - frozenset(present))


def _neighbours(rows: list[list[tuple[int, float]]]) -> Neighbours:
    k = max(len(row) for row in rows)
    ids = np.full((len(rows), k), -1, np.int64)
    similarity = np.full((len(rows), k), -np.inf, np.float32)
    for i, row in enumerate(rows):
        for j, (other, value) in enumerate(row):
            ids[i, j], similarity[i, j] = other, value
    return Neighbours(ids, similarity, "given")


def test_mining_among_neighbours_cuts_by_similarity_and_keeps_the_most_similar_first() -> None:
    images = [
        _image("a", {"person", "dog"}),
        _image("b", {"person"}),
        _image("c", {"person"}),
        _image("d", {"dog"}),  # alone with its dog: an empty scene near it is a pair
        _image("e", set()),
    ]
    neighbours = _neighbours(
        [
            [(2, 0.97), (1, 0.95)],  # a: c, then b
            [(0, 0.95), (2, 0.90)],
            [(0, 0.97), (1, 0.90)],
            [(4, 0.93), (0, 0.80)],  # d: e near, a too far
            [(3, 0.93)],
        ]
    )
    kept, dropped = mine(images, 1.0, 1, (neighbours, 0.9))
    assert [(p.a.key, p.b.key, p.object, p.similarity) for p in kept] == [
        ("a", "c", "dog", 0.97),
        ("d", "e", "dog", 0.93),
    ]
    assert kept[1].overlap == 1.0  # no other object in either: they agree
    assert dropped["below_similarity"] == 1  # d's neighbour a
    assert dropped["over_image_cap"] == 1  # a and b: a is in a pair already
    record = kept[0].record()
    assert record.similarity == 0.97 and record.overlap == 1.0


def test_an_object_uncertain_in_the_neighbour_is_no_difference() -> None:
    a = _image("a", {"person", "dog"})
    b = ImageLabels("b", 0, frozenset({"person"}), ALL - {"person", "dog"})  # dog uncertain
    kept, dropped = mine([a, b], 1.0, 2, (_neighbours([[(1, 0.99)], [(0, 0.99)]]), 0.5))
    assert kept == [] and dropped["object_not_absent"] == 1
