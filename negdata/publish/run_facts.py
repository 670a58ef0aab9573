"""Everything the data card and the report say about a finished run, gathered once.

From the run summary (stats.json), the config (provenance), the published Parquet files
(objects, caption lengths, the gallery) and the negation checker's labelled sets.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import negdata
from negdata.config import Config
from negdata.detect.vocab import vocabulary
from negdata.publish.contents import Contents, published_contents
from negdata.publish.gallery import GalleryItem, gallery
from negdata.publish.provenance import Provenance, provenance
from negdata.validate.evaluate import evaluate, scores

log = logging.getLogger(__name__)

# The checker's labelled sets that were never tuned on (docs/verification.md, "Negation-scope
# checker"), found in a source checkout of negdata; an installed package has none.
CHECKER_SETS = {"held-out": "negation_heldout.jsonl", "unseen": "negation_unseen.jsonl"}
CHECKER_DATA = Path(negdata.__file__).resolve().parent.parent / "tests" / "data"

# (what, dotted key in stats.json): the funnel from input rows to published samples.
FUNNEL = (
    ("input rows", "stages.ingest.count"),
    ("images ingested", "stages.ingest.successes"),
    ("images detected", "stages.detect.count"),
    ("images planned", "stages.plan.planned"),
    ("images composed", "stages.compose.images_composed"),
    ("images published", "stages.publish.images_published"),
    ("captions published", "stages.publish.captions"),
    ("MCQs published", "stages.publish.mcq"),
)


@dataclass(frozen=True)
class CheckerScore:
    """The negation checker's precision and recall on one labelled set."""

    name: str
    captions: int
    negated: tuple[float, float]
    affirmed: tuple[float, float]


@dataclass(frozen=True)
class RunFacts:
    name: str
    summary: dict[str, Any]
    provenance: Provenance
    contents: Contents
    contents_limit: int
    gallery: list[GalleryItem]
    vocabulary_size: int
    checker: list[CheckerScore]

    def stat(self, dotted: str) -> int:
        """A count of the summary by its dotted key (``stages.ingest.count``); 0 if absent."""
        value: Any = self.summary
        for part in dotted.split("."):
            value = value.get(part, {}) if isinstance(value, dict) else {}
        return value if isinstance(value, int) else 0

    def funnel(self) -> list[tuple[str, str, int]]:
        return [(what, key, self.stat(key)) for what, key in FUNNEL]

    def published(self, group: str) -> dict[str, int]:
        """``published`` counts of one group (``captions_by_generator``), by value."""
        prefix = f"{group}."
        return {
            k.removeprefix(prefix): v
            for k, v in self.summary["published"].items()
            if k.startswith(prefix)
        }

    @property
    def template_share(self) -> float | None:
        by_generator = self.published("captions_by_generator")
        total = sum(by_generator.values())
        return round(by_generator.get("template", 0) / total, 3) if total else None


def checker_scores() -> list[CheckerScore]:
    """Precision and recall on the never-tuned labelled sets, when this checkout has them."""
    result = []
    for name, file in CHECKER_SETS.items():
        path = CHECKER_DATA / file
        if not path.exists():
            continue
        outcomes = evaluate(path)
        by_class = scores(outcomes)
        result.append(
            CheckerScore(
                name=name,
                captions=len({o.case_id for o in outcomes}),
                negated=_pr(by_class["negated"]),
                affirmed=_pr(by_class["affirmed"]),
            )
        )
    return result


def _pr(figures: dict[str, float]) -> tuple[float, float]:
    return round(figures["precision"], 3), round(figures["recall"], 3)


def run_facts(cfg: Config, summary: dict[str, Any], contents_limit: int) -> RunFacts:
    shards = summary["shards"]
    contents = published_contents(cfg, shards, contents_limit)
    made_with = provenance(cfg, summary, contents.models)
    stale = contents.config_hashes - {made_with.records_hash}
    if stale:
        log.warning(
            "published records carry config hash %s, this config gives %s: the card's "
            "provenance is this config's, not necessarily the run's",
            ", ".join(sorted(stale)),
            made_with.records_hash,
        )
    return RunFacts(
        name=cfg.run.output_dir.name,
        summary=summary,
        provenance=made_with,
        contents=contents,
        contents_limit=contents_limit,
        gallery=gallery(cfg, shards, cfg.report.gallery_images),
        vocabulary_size=len(vocabulary(cfg.detect.vocabulary)),
        checker=checker_scores(),
    )
