"""NegBench's two scores, from similarity matrices: a question is answered by the option most
similar to its image (``benchmarks/src/evaluation/mcq.py``), and a negated caption retrieves its
image when the image is among the ``k`` most similar to it (``retrieval.py``,
``image_retrieval_recall@k``: text to image, the share of captions that do)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Tally:
    correct: int
    total: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.total if self.total else None


def mcq_tallies(
    scores: torch.Tensor, correct: Sequence[int], templates: Sequence[str]
) -> tuple[Tally, dict[str, Tally]]:
    """Right answers overall and per template, from ``scores[question, option]`` (the image's
    similarity to each option): the answer is the option scored highest."""
    right = (scores.argmax(dim=1) == torch.tensor(list(correct), dtype=torch.long)).tolist()
    per: dict[str, Tally] = {}
    for template, hit in zip(templates, right, strict=True):
        seen = per.get(template, Tally(0, 0))
        per[template] = Tally(seen.correct + hit, seen.total + 1)
    return Tally(sum(right), len(right)), per


def recall_at_k(
    scores: torch.Tensor, image_of_text: Sequence[int], ks: Sequence[int]
) -> dict[int, float]:
    """Text-to-image recall@k from ``scores[text, image]``: the share of texts whose own image
    (``image_of_text``) is among the ``k`` images scored highest for it. Only for a ``k`` the
    gallery has images for: with fewer, every text would find its image (recall@5 1.000 on one
    image) and the figure would mislead."""
    target = torch.tensor(list(image_of_text), dtype=torch.long).unsqueeze(1)
    recall = {}
    for k in ks:
        if k > scores.shape[1]:
            continue
        top = scores.topk(k, dim=1).indices
        recall[k] = (top == target).any(dim=1).float().mean().item()
    return recall
