"""The run's data card, ``README.md``: a Hugging Face dataset card.

A YAML header in the Hub's conventions (licence, task categories, language, size, tags, and the
NegCap and NegMCQ Parquet files as two configs), then what was made, what was dropped and why,
what it was made with, the licences, and the known limits.
"""

from __future__ import annotations

import html
from typing import Any

import yaml

from negdata.publish import layout
from negdata.publish.run_facts import RunFacts

PRETTY_NAME = "NegCap and NegMCQ: verified negation captions and questions"
# The Parquet folders the Hub's viewer and `datasets.load_dataset` read, per config (a folder
# per split), and the summary counts that say which splits have files.
DEFAULT_CONFIG = "negcap"  # what ``load_dataset(RUN)`` loads with no config name
DATA_FILES = {
    "negcap": (layout.NEGCAP_PARQUET, "captions_by_split"),
    "negmcq": (layout.NEGMCQ, "mcq_by_split"),
}
TAGS = ["negation", "clip", "vision-language", "synthetic", "webdataset", "negdata"]
TASK_CATEGORIES = ["zero-shot-image-classification", "image-to-text", "multiple-choice"]
EXAMPLES = 3
_SIZES = (
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
)


def size_category(rows: int) -> str:
    """The Hub's size bucket for ``rows`` examples."""
    return next((name for bound, name in _SIZES if rows < bound), "100M<n<1B")


def card_metadata(facts: RunFacts) -> dict[str, Any]:
    rows = max(facts.stat("stages.publish.captions"), facts.stat("stages.publish.mcq"))
    return {
        "pretty_name": PRETTY_NAME,
        "license": "other",
        "license_name": "input-dependent",
        "license_link": "README.md",
        "language": ["en"],
        "task_categories": TASK_CATEGORIES,
        "size_categories": [size_category(rows)],
        "tags": TAGS,
        "annotations_creators": ["machine-generated"],
        "language_creators": ["machine-generated", "found"],
        "source_datasets": ["extended"],
        "configs": [
            {
                "config_name": name,
                "data_files": [
                    {"split": split, "path": f"{folder}/{split}/*.parquet"}
                    for split, count in sorted(facts.published(counts).items())
                    if count
                ],
                **({"default": True} if name == DEFAULT_CONFIG else {}),
            }
            for name, (folder, counts) in DATA_FILES.items()
        ],
    }


def dataset_card(facts: RunFacts) -> str:
    header = yaml.safe_dump(card_metadata(facts), sort_keys=False, allow_unicode=True)
    parts = [
        f"---\n{header}---\n",
        f"# {PRETTY_NAME}\n",
        _introduction(facts),
        _counts(facts),
        _rejects(facts),
        _examples(facts),
        _provenance(facts),
        _licences(facts),
        _limits(facts),
    ]
    return "\n".join(parts)


def _table(head: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    """Text that stays one table cell and renders as text (captions are untrusted input)."""
    return html.escape(str(value)).replace("|", "&#124;").replace("\n", " ")


def _introduction(facts: RunFacts) -> str:
    return (
        f"Made by negdata {facts.provenance.negdata_version} from "
        f"{facts.stat('stages.ingest.count')} input rows: **NegCap**, captions that affirm what "
        "an image shows and negate one object a detector verified absent, as an open_clip "
        "WebDataset, one sample per image (`negcap/{split}/*.tar`), and Parquet, one row per "
        "caption (`negcap_parquet/{split}/*.parquet`); and **NegMCQ**, four-option questions "
        "whose answer hinges on negation, in NegBench's columns (`negmcq/{split}/*.parquet`). "
        "Splits (train, validation, test) go by image. `report.html` beside this card shows "
        "the run with pictures.\n"
    )


def _counts(facts: RunFacts) -> str:
    parts = ["## Counts\n", _table(("stage", "count"), [(w, n) for w, _, n in facts.funnel()])]
    for title, group in (
        ("Captions by generator", "captions_by_generator"),
        ("Captions by style", "captions_by_style"),
        ("MCQs by template", "mcq_templates"),
        ("MCQs by position of the correct answer", "mcq_correct_positions"),
    ):
        counts = facts.published(group)
        if counts:
            parts += [f"{title}:\n", _table((group.split("_by_")[-1], "count"), [*counts.items()])]
    return "\n".join(parts)


def _rejects(facts: RunFacts) -> str:
    rejects = facts.summary["rejects_by_reason"]
    rows = sorted(rejects.items(), key=lambda item: (-item[1], item[0]))
    body = _table(("reason", "count"), rows) if rows else "None.\n"
    return (
        "## Rejects\n\nEvery dropped item, counted by reason (`rejects/*.parquet` holds each "
        f"one with its stage and detail):\n\n{body}"
    )


def _examples(facts: RunFacts) -> str:
    rows = [
        (item.original_caption, caption.caption, caption.generator)
        for item in facts.gallery
        for caption in item.captions[:1]
    ][:EXAMPLES]
    if not rows:
        return ""
    return "## Examples\n\n" + _table(("original caption", "NegCap caption", "generator"), rows)


def _provenance(facts: RunFacts) -> str:
    made = facts.provenance
    sources = _table(
        ("kind", "file", "sha256", "settings"),
        [
            (s.kind, s.file, s.sha256 or "(file not found)", _settings(s.settings))
            for s in made.sources
        ],
    )
    config = yaml.safe_dump(made.config, sort_keys=True, allow_unicode=True)
    found = sorted(facts.contents.config_hashes) or [made.records_hash]
    hashes = ", ".join(f"`{h}`" for h in found)
    if found != [made.records_hash]:
        hashes += f" (this config gives `{made.records_hash}`: it is not the run's own)"
    return (
        "## Provenance\n\n"
        f"- negdata {made.negdata_version}\n"
        f"- LLM: {', '.join(made.llm_models)}\n"
        f"- vocabulary: {made.vocabulary} ({facts.vocabulary_size} labels)\n"
        f"- prompts: {', '.join(f'`{p}`' for p in made.prompts) or 'none'}\n"
        f"- English parser (publication gates): {made.parser.package} {made.parser.version}, "
        f"model files' sha256 `{made.parser.digest}`\n"
        f"- records' `config_hash`: {hashes} (the hash of every setting, prompt, model and "
        "version the published records depend on)\n"
        f"- config hash: `{made.config_hash}`\n\n"
        f"Evidence sources:\n\n{sources}\n"
        "The config (server addresses and credentials left out):\n\n"
        f"```yaml\n{config}```\n"
    )


def _settings(settings: dict[str, Any]) -> str:
    """``conf=0.05, class_map=Fall: person; Normal: person``."""
    return ", ".join(
        f"{k}={'; '.join(f'{a}: {b}' for a, b in v.items()) if isinstance(v, dict) else v}"
        for k, v in sorted(settings.items())
    )


def _licences(facts: RunFacts) -> str:
    return (
        "## Licences\n\n"
        "- **Input data**: the images and original captions are the input's, and so are their "
        "rights. Whether they may be used, and how, is the responsibility of whoever runs "
        "negdata and publishes its outputs; this card cannot know the input's terms.\n"
        "- **CC12M**: Google publishes Conceptual 12M (image URLs and captions) for any use, "
        "asks that Google LLC be acknowledged as the data source, and gives it as is, without "
        "warranty. Google does not own the images: each belongs to its owner, who may remove "
        "it at any time.\n"
        "- **Outputs**: the negated captions and questions are machine-generated from the "
        "input's captions by the LLM named above, or by negdata's templates; the NegCap tars "
        "carry the input's images, under the input's terms. negdata itself is AGPL-3.0, and so "
        "are Ultralytics and its YOLO weights.\n"
    )


def _limits(facts: RunFacts) -> str:
    made_with = facts.provenance.config
    detect = made_with["detect"]
    lines = [
        "## Known limits\n",
        f"- **Detector vocabulary**: only the {facts.vocabulary_size} labels of "
        f"`{facts.provenance.vocabulary}` can be verified. An object is negated only when "
        f"every source covering it scores it below {detect['t_absent']}; nouns outside the "
        f"vocabulary are unverifiable and never negated "
        f"({facts.stat('stages.plan.unverifiable_nouns')} met while planning).",
    ]
    share = facts.template_share
    if share is not None:
        lines.append(
            f"- **Template fallback**: {share:.1%} of published captions come from templates "
            "(an LLM caption that failed a gate, or none), which vary less "
            "(see distinct-n and frame reuse in `stats.json`)."
        )
    if facts.checker:
        lines.append(
            "- **Negation checker**: precision / recall of the rule-based scope checker that "
            "gates every caption, on labelled captions it was never tuned on:\n"
        )
        rows = [(c.name, c.captions, _pr(c.negated), _pr(c.affirmed)) for c in facts.checker]
        lines.append(_table(("set", "captions", "negated P / R", "affirmed P / R"), rows))
    else:
        lines.append(
            "- **Negation checker**: its precision and recall are measured by "
            "`make eval-negation` in a negdata checkout (this installation has no labelled sets)."
        )
    return "\n".join(lines) + "\n"


def _pr(figures: tuple[float, float]) -> str:
    return f"{figures[0]:.3f} / {figures[1]:.3f}"
