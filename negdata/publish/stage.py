"""Validate and publish one shard: NegCap tars + Parquet and NegMCQ Parquet per split, every
reject + reason (``layout`` says where each goes)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from negdata.config import Config
from negdata.detect.lexicon import Lexicon, run_lexicon
from negdata.llm import merge_counters
from negdata.llm.cache import ResponseCache, shard_cache
from negdata.progress import Progress
from negdata.publish import layout
from negdata.publish.samples import image_sample
from negdata.publish.splits import split_of
from negdata.records import (
    SPLITS,
    CaptionRecord,
    Evidence,
    IngestRow,
    InOrder,
    McqRecord,
    ParquetSink,
    PublishedCaption,
    PublishedMcq,
    Record,
    Reject,
    Split,
    count_by,
    flat,
    iter_parquet,
    parquet_sink,
    read_parquet,
    write_parquet,
)
from negdata.shards import Location, shard_name, write_stats
from negdata.validate.gates import CaptionGate, mcq_gate
from negdata.validate.judge import disagreement, judge_polarities
from negdata.validate.negation import analyze
from negdata.wds import Sample, read_tar, tar_writer

log = logging.getLogger(__name__)

# The reason a caption that passes the gates is refused when another caption of its image
# already published says the same.
DUPLICATE = "duplicate"
# The reason a caption is refused when the optional LLM judge reads it otherwise.
JUDGE_DISAGREES = "judge_disagrees"


def upstream_rejects(output_dir: Location, name: str, rows: Iterable[IngestRow]) -> list[Reject]:
    """Rejects of the earlier stages of this shard: failed ingest rows, undecodable images,
    plan and compose drops."""
    rejects = [
        Reject(
            stage="ingest",
            key=row.key,
            reason=(row.error_message or "unknown").split(":", 1)[0],
            detail=row.error_message or "",
        )
        for row in rows
        if row.status == "failed"
    ]
    # Detect writes its rejects file since it counts undecodable images: a run detected before
    # that has none.
    with suppress(FileNotFoundError):
        rejects += read_parquet(output_dir / "evidence" / f"{name}_rejects.parquet", Reject)
    for stage_dir in ("objects", "captions"):
        rejects += read_parquet(output_dir / stage_dir / f"{name}_rejects.parquet", Reject)
    return rejects


def select_captions(
    candidates: list[CaptionRecord],
    evidence: dict[str, Evidence],
    gate: CaptionGate,
    progress: Progress | None = None,
) -> tuple[list[CaptionRecord], list[Reject]]:
    """Per caption key the first candidate (LLM before template) that passes every gate."""
    accepted: list[CaptionRecord] = []
    rejects: list[Reject] = []
    texts: dict[str, set[str]] = {}
    for key, group in groupby(candidates, key=lambda c: c.key):
        ordered = sorted(group, key=lambda c: c.generator != "llm")
        if progress is not None:
            progress.update(len(ordered))
        for i, cand in enumerate(ordered):
            reason: str | None = gate.check(cand, evidence[cand.image_key])
            seen = texts.setdefault(cand.image_key, set())
            if reason is None and cand.caption.lower() in seen:
                reason = DUPLICATE
            if reason is None:
                seen.add(cand.caption.lower())
                unverifiable = gate.unaccounted(cand)
                accepted.append(cand.model_copy(update={"unverifiable_nouns": unverifiable}))
                break
            stand_in = " (a template stands in)" if i + 1 < len(ordered) else ""
            rejects.append(
                Reject(
                    stage="validate",
                    key=key,
                    reason=reason,
                    detail=f"{cand.generator}: {cand.caption}{stand_in}",
                )
            )
    return accepted, rejects


def select_mcqs(
    cfg: Config,
    questions: list[McqRecord],
    evidence: dict[str, Evidence],
    lexicon: Lexicon,
    progress: Progress | None = None,
) -> tuple[list[McqRecord], list[Reject]]:
    """The questions that pass every MCQ gate, and a reject for each of the others."""
    kept: list[McqRecord] = []
    rejects: list[Reject] = []
    for mcq in questions:
        reason = mcq_gate(mcq, evidence[mcq.image_key], lexicon, cfg)
        if reason is None:
            kept.append(mcq)
        else:
            rejects.append(Reject(stage="validate", key=mcq.key, reason=reason, detail="mcq"))
        if progress is not None:
            progress.update()
    return kept, rejects


def judge_captions(
    cfg: Config,
    accepted: list[CaptionRecord],
    lexicon: Lexicon,
    cache: ResponseCache | None = None,
) -> tuple[list[CaptionRecord], list[Reject], dict[str, int]]:
    """The optional LLM judge: drop captions whose polarities it contradicts. A failed judge call
    keeps the caption (the rule gates already passed it)."""
    intended = [analyze(c.caption, lexicon) for c in accepted]
    items = [(c.caption, list(pol)) for c, pol in zip(accepted, intended, strict=True)]
    judged, llm = judge_polarities(
        cfg.llm,
        cfg.compose.prompts_dir,
        items,
        lexicon=lexicon,
        cache=cache,
        keys=[c.key for c in accepted],
    )
    kept, rejects = [], []
    for caption, want, got in zip(accepted, intended, judged, strict=True):
        name = disagreement(got, want) if got is not None else None
        if name is None:
            kept.append(caption)
        else:
            detail = f"judge reads {name!r} as {got[name] if got else '?'}: {caption.caption}"
            rejects.append(
                Reject(stage="judge", key=caption.key, reason=JUDGE_DISAGREES, detail=detail)
            )
    return kept, rejects, llm


class _Outputs:
    """The shard's published files, each opened when its split first gets a record and written
    as records come; the files of a split that gets none are removed (the fractions may have
    changed since a past run: ``datasets`` reads neither an empty tar nor an empty Parquet)."""

    def __init__(self, stack: ExitStack, out_dir: Location, name: str) -> None:
        self._stack = stack
        self._out = out_dir
        self._name = name
        self._tars: dict[Split, Callable[[Sample], None]] = {}
        self._captions: dict[Split, ParquetSink] = {}
        self._mcqs: dict[Split, ParquetSink] = {}

    def image(self, split: Split, sample: Sample) -> None:
        if split not in self._tars:
            tar = layout.negcap_tar(self._out, split, self._name)
            self._tars[split] = self._stack.enter_context(tar_writer(tar))
        self._tars[split](sample)

    def captions(self, split: Split, rows: Sequence[PublishedCaption]) -> None:
        self._sink(self._captions, layout.negcap_parquet, PublishedCaption, split).add(rows)

    def mcqs(self, split: Split, rows: Sequence[PublishedMcq]) -> None:
        self._sink(self._mcqs, layout.negmcq_parquet, PublishedMcq, split).add(rows)

    def _sink(
        self,
        sinks: dict[Split, ParquetSink],
        path: Callable[[Location, Split, str], Location],
        model: type[Record],
        split: Split,
    ) -> ParquetSink:
        if split not in sinks:
            sinks[split] = self._stack.enter_context(
                parquet_sink(path(self._out, split, self._name), model)
            )
        return sinks[split]

    def remove_unused(self) -> None:
        for split in SPLITS:
            if split not in self._tars:
                layout.negcap_tar(self._out, split, self._name).unlink(missing_ok=True)
            if split not in self._captions:
                layout.negcap_parquet(self._out, split, self._name).unlink(missing_ok=True)
            if split not in self._mcqs:
                layout.negmcq_parquet(self._out, split, self._name).unlink(missing_ok=True)


def write_tables(
    out_dir: Location, name: str, captions: list[PublishedCaption], mcqs: list[PublishedMcq]
) -> None:
    """Write the shard's NegCap and NegMCQ Parquet in each split where it has any, and remove
    those of the splits where it has none (``datasets`` cannot read an empty Parquet file)."""
    for split in SPLITS:
        rows = [c for c in captions if c.split == split]
        _write_or_remove(layout.negcap_parquet(out_dir, split, name), PublishedCaption, rows)
        questions = [m for m in mcqs if m.split == split]
        _write_or_remove(layout.negmcq_parquet(out_dir, split, name), PublishedMcq, questions)


def _write_or_remove(path: Location, model: type[Record], records: Sequence[Record]) -> None:
    if records:
        write_parquet(path, model, records)
    else:
        path.unlink(missing_ok=True)


@dataclass
class _Tally:
    """What the shard published, counted as it goes."""

    images_by_split: Counter[str] = field(default_factory=Counter)
    captions_by_split: Counter[str] = field(default_factory=Counter)
    mcq_by_split: Counter[str] = field(default_factory=Counter)
    generators: Counter[str] = field(default_factory=Counter)
    styles: Counter[str] = field(default_factory=Counter)
    positions: Counter[int] = field(default_factory=Counter)
    templates: Counter[str] = field(default_factory=Counter)
    images: int = 0
    unverifiable_nouns: int = 0
    paraphrased: int = 0


def run_publish(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    """Gate and publish the shard a row group of images at a time: each group's captions and
    questions are checked (and judged), then its images copied from ingest's tar into the
    splits' tars one at a time, and its rows added to the splits' Parquet. What the stage
    holds does not grow with the shard."""
    started = time.monotonic()
    out_dir = cfg.run.output_dir
    name = shard_name(shard)
    evidence_path = out_dir / "evidence" / f"{name}.parquet"
    lexicon = run_lexicon(cfg.detect.vocabulary, flat(iter_parquet(evidence_path, Evidence)))
    gate = CaptionGate(cfg, lexicon)
    ingest_path = out_dir / "shards" / f"{name}.parquet"
    recorded: dict[str, str | None] = {}
    failed: list[IngestRow] = []  # rows ingest could not fetch: few, each a reject
    for row in flat(iter_parquet(ingest_path, IngestRow)):
        recorded[row.key] = row.sha256
        if row.status == "failed":
            failed.append(row)
    stored = len(recorded) - len(failed)  # the images in ingest's tar
    candidates = InOrder(
        flat(iter_parquet(out_dir / "captions" / f"{name}.parquet", CaptionRecord)),
        lambda c: c.image_key,
    )
    questions = InOrder(
        flat(iter_parquet(out_dir / "captions" / f"{name}_mcq.parquet", McqRecord)),
        lambda m: m.image_key,
    )
    images = InOrder(read_tar(out_dir / "shards" / f"{name}.tar"), lambda image: image["__key__"])
    # A published record carries this stage's hash, which covers every setting it depends on
    # (the gates' included), as the card's provenance names it; compose stamped its own.
    stamp = {"config_hash": config_hash}
    refused: list[Reject] = []
    judged: list[Reject] = []
    mcq_refused: list[Reject] = []
    llm: dict[str, int] = {}
    tally = _Tally()
    with ExitStack() as stack:
        outputs = _Outputs(stack, out_dir, name)
        cache = stack.enter_context(shard_cache(cfg, shard)) if cfg.validation.judge else None
        bar = stack.enter_context(Progress(stored, f"publish {name}"))
        for evidence_batch in iter_parquet(evidence_path, Evidence):
            if not evidence_batch:
                continue
            evidence = {e.key: e for e in evidence_batch}
            last = evidence_batch[-1].key
            accepted, rejects = select_captions(list(candidates.upto(last)), evidence, gate)
            refused += rejects
            mcqs, rejects = select_mcqs(cfg, list(questions.upto(last)), evidence, lexicon)
            mcq_refused += rejects
            if cache is not None and accepted:
                accepted, rejects, used = judge_captions(cfg, accepted, lexicon, cache)
                judged += rejects
                llm = merge_counters(llm, used)
            _publish_images(
                cfg, images.upto(last), accepted, mcqs, recorded, stamp, outputs, tally, bar
            )
        _publish_images(cfg, images.upto(None), [], [], recorded, stamp, outputs, tally, bar)
        outputs.remove_unused()
    rejects = upstream_rejects(out_dir, name, failed)
    rejects += refused + judged + mcq_refused
    write_parquet(out_dir / layout.REJECTS / f"{name}.parquet", Reject, rejects)
    captions = sum(tally.captions_by_split.values())
    mcq = sum(tally.mcq_by_split.values())
    stats = {
        "images": tally.images,
        "images_published": sum(tally.images_by_split.values()),
        "captions": captions,
        "images_by_split": {s: tally.images_by_split[s] for s in SPLITS},
        "captions_by_split": {s: tally.captions_by_split[s] for s in SPLITS},
        "mcq_by_split": {s: tally.mcq_by_split[s] for s in SPLITS},
        "captions_by_generator": dict(sorted(tally.generators.items())),
        "captions_by_style": dict(sorted(tally.styles.items())),
        "unverifiable_nouns": tally.unverifiable_nouns,
        "mcq": mcq,
        "mcq_options_paraphrased": tally.paraphrased,
        "mcq_correct_positions": dict(sorted(tally.positions.items())),
        "mcq_templates": dict(sorted(tally.templates.items())),
        "rejects": count_by(rejects),
        **llm,
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out_dir / layout.MARKERS, shard, config_hash, stats)
    log.info("publish shard %s: %d captions, %d mcq", name, captions, mcq)
    return stats


def _publish_images(
    cfg: Config,
    images: Iterator[Sample],
    accepted: list[CaptionRecord],
    mcqs: list[McqRecord],
    recorded: dict[str, str | None],
    stamp: dict[str, str],
    outputs: _Outputs,
    tally: _Tally,
    bar: Progress,
) -> None:
    """Copy ``images`` (a stretch of ingest's tar) into the NegCap tar of each one's split
    where it has ``accepted`` captions, and add the captions and ``mcqs`` of those images to
    the splits' Parquet. ``recorded``: the originals' sha256 as ingest recorded them (the
    stored JPEG's for shards without one) decide each image's split."""
    by_image: dict[str, list[CaptionRecord]] = {}
    for caption in sorted(accepted, key=lambda c: c.key):
        by_image.setdefault(caption.image_key, []).append(caption)
    splits: dict[str, Split] = {}
    published: dict[str, PublishedCaption] = {}
    for image in images:
        key, jpg = image["__key__"], image["jpg"]
        stored = hashlib.sha256(jpg).hexdigest()
        original = recorded.get(key) or stored
        split = splits[key] = split_of(original, cfg.publish.splits)
        tally.images += 1
        bar.update()
        if key not in by_image:
            continue
        captions = [
            PublishedCaption(**(c.model_dump() | stamp), split=split, jpg_sha256=stored)
            for c in by_image[key]
        ]
        published |= {c.key: c for c in captions}
        outputs.image(split, image_sample(key, captions, jpg, original, cfg.run.seed))
        tally.images_by_split[split] += 1
    rows = [published[c.key] for c in accepted]
    questions = [PublishedMcq(**(m.model_dump() | stamp), split=splits[m.image_key]) for m in mcqs]
    for split in SPLITS:
        if here := [c for c in rows if c.split == split]:
            outputs.captions(split, here)
        if here_mcq := [m for m in questions if m.split == split]:
            outputs.mcqs(split, here_mcq)
    tally.captions_by_split.update(c.split for c in rows)
    tally.mcq_by_split.update(m.split for m in questions)
    tally.generators.update(c.generator for c in accepted)
    tally.styles.update(c.style for c in accepted)
    tally.unverifiable_nouns += sum(len(c.unverifiable_nouns) for c in accepted)
    tally.positions.update(m.correct_answer for m in mcqs)
    tally.templates.update(m.correct_answer_template for m in mcqs)
    tally.paraphrased += sum(sum(m.paraphrased) for m in mcqs)
