"""NegMCQ: one four-option question per image, correct positions and templates balanced."""

from __future__ import annotations

import random

from negdata.compose.clinical import clinical_mcq_options
from negdata.compose.templates import mcq_options
from negdata.records import McqRecord, McqTemplate

TEMPLATES: tuple[McqTemplate, ...] = ("affirmation", "negation", "hybrid")


class McqBalancer:
    """Deals correct positions in shuffled blocks of four and templates in turn, per shard, the
    turn starting at a seeded template (shards of one image still get every template)."""

    def __init__(self, seed: str) -> None:
        self._rng = random.Random(seed)
        self._positions: list[int] = []
        self._count = random.Random(f"{seed}:template").randrange(len(TEMPLATES))

    def next(self) -> tuple[int, McqTemplate]:
        if not self._positions:
            self._positions = [0, 1, 2, 3]
            self._rng.shuffle(self._positions)
        template = TEMPLATES[self._count % len(TEMPLATES)]
        self._count += 1
        return self._positions.pop(), template

    def shuffle(self, items: list[str]) -> None:
        self._rng.shuffle(items)


def build_mcq(
    image_key: str,
    positives: list[str],
    negative: str,
    balancer: McqBalancer,
    config_hash: str,
    clinical: bool = False,
) -> McqRecord:
    """``clinical``: sentences about a radiograph's findings (negdata.compose.clinical)."""
    position, template = balancer.next()
    options = clinical_mcq_options if clinical else mcq_options
    correct, wrong = options(template, positives, negative)
    balancer.shuffle(wrong)
    shuffled = [*wrong[:position], correct, *wrong[position:]]
    return McqRecord(
        key=image_key,
        image_key=image_key,
        caption_0=shuffled[0],
        caption_1=shuffled[1],
        caption_2=shuffled[2],
        caption_3=shuffled[3],
        correct_answer=position,
        correct_answer_template=template,
        positives=positives[:2],
        negative=negative,
        config_hash=config_hash,
    )
