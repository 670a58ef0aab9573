"""Validate and publish one shard: NegCap tars + Parquet and NegMCQ Parquet per split, every
reject + reason (``layout`` says where each goes)."""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack, suppress
from itertools import groupby
from typing import Any

from negdata.config import Config
from negdata.detect.lexicon import Lexicon, run_lexicon
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
    McqRecord,
    PublishedCaption,
    PublishedMcq,
    Record,
    Reject,
    Split,
    count_by,
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


def upstream_rejects(output_dir: Location, name: str, rows: list[IngestRow]) -> list[Reject]:
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


def write_images(
    cfg: Config,
    name: str,
    accepted: list[CaptionRecord],
    recorded: dict[str, str | None],
    stamp: dict[str, str],
) -> tuple[dict[str, Split], dict[str, PublishedCaption], dict[str, int]]:
    """Stream the shard's images from ingest's tar into the NegCap tar of each split that gets
    any, one image at a time (a shard's images are never held together), and remove the tars
    of the splits that get none (any more: the fractions may have changed since a past run:
    ``datasets`` cannot read an empty tar). ``recorded``: the originals' sha256 as ingest
    recorded them (the stored JPEG's for shards without one). Returns each image's split, each
    caption as published (by key: its image's split and stored JPEG's sha256), and the images
    per split."""
    out_dir = cfg.run.output_dir
    by_image: dict[str, list[CaptionRecord]] = {}
    for caption in sorted(accepted, key=lambda c: c.key):
        by_image.setdefault(caption.image_key, []).append(caption)
    splits: dict[str, Split] = {}
    published: dict[str, PublishedCaption] = {}
    images_by_split: dict[str, int] = dict.fromkeys(SPLITS, 0)
    with ExitStack() as stack:
        writers: dict[Split, Callable[[Sample], None]] = {}
        for image in read_tar(out_dir / "shards" / f"{name}.tar"):
            key, jpg = image["__key__"], image["jpg"]
            stored = hashlib.sha256(jpg).hexdigest()
            original = recorded.get(key) or stored
            split = splits[key] = split_of(original, cfg.publish.splits)
            if key not in by_image:
                continue
            if split not in writers:
                tar = layout.negcap_tar(out_dir, split, name)
                writers[split] = stack.enter_context(tar_writer(tar))
            captions = [
                PublishedCaption(**(c.model_dump() | stamp), split=split, jpg_sha256=stored)
                for c in by_image[key]
            ]
            published |= {c.key: c for c in captions}
            writers[split](image_sample(key, captions, jpg, original, cfg.run.seed))
            images_by_split[split] += 1
    for split in set(SPLITS) - set(writers):
        layout.negcap_tar(out_dir, split, name).unlink(missing_ok=True)
    return splits, published, images_by_split


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


def run_publish(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    started = time.monotonic()
    out_dir = cfg.run.output_dir
    name = shard_name(shard)
    evidence = {e.key: e for e in read_parquet(out_dir / "evidence" / f"{name}.parquet", Evidence)}
    lexicon = run_lexicon(cfg.detect.vocabulary, evidence.values())
    candidates = read_parquet(out_dir / "captions" / f"{name}.parquet", CaptionRecord)
    questions = read_parquet(out_dir / "captions" / f"{name}_mcq.parquet", McqRecord)
    with Progress(len(candidates) + len(questions), f"publish {name}") as bar:
        gate = CaptionGate(cfg, lexicon)
        accepted, rejects = select_captions(candidates, evidence, gate, bar)
        mcqs, mcq_rejects = select_mcqs(cfg, questions, evidence, lexicon, bar)
    llm: dict[str, int] = {}
    if cfg.validation.judge and accepted:
        with shard_cache(cfg, shard) as cache:
            accepted, judge_rejects, llm = judge_captions(cfg, accepted, lexicon, cache)
        rejects += judge_rejects
    rejects += mcq_rejects
    rows = read_parquet(out_dir / "shards" / f"{name}.parquet", IngestRow)
    rejects = upstream_rejects(out_dir, name, rows) + rejects
    # A published record carries this stage's hash, which covers every setting it depends on
    # (the gates' included), as the card's provenance names it; compose stamped its own.
    stamp = {"config_hash": config_hash}
    recorded = {row.key: row.sha256 for row in rows}
    splits, published, images_by_split = write_images(cfg, name, accepted, recorded, stamp)
    captions = [published[c.key] for c in accepted]
    published_mcqs = [
        PublishedMcq(**(m.model_dump() | stamp), split=splits[m.image_key]) for m in mcqs
    ]
    write_tables(out_dir, name, captions, published_mcqs)
    write_parquet(out_dir / layout.REJECTS / f"{name}.parquet", Reject, rejects)
    stats = {
        "images": len(splits),
        "images_published": sum(images_by_split.values()),
        "captions": len(accepted),
        "images_by_split": images_by_split,
        "captions_by_split": {s: sum(c.split == s for c in captions) for s in SPLITS},
        "mcq_by_split": {s: sum(m.split == s for m in published_mcqs) for s in SPLITS},
        "captions_by_generator": dict(sorted(Counter(c.generator for c in accepted).items())),
        "captions_by_style": dict(sorted(Counter(c.style for c in accepted).items())),
        "unverifiable_nouns": sum(len(c.unverifiable_nouns) for c in accepted),
        "mcq": len(mcqs),
        "mcq_options_paraphrased": sum(sum(m.paraphrased) for m in mcqs),
        "mcq_correct_positions": dict(sorted(Counter(m.correct_answer for m in mcqs).items())),
        "mcq_templates": dict(sorted(Counter(m.correct_answer_template for m in mcqs).items())),
        "rejects": count_by(rejects),
        **llm,
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out_dir / layout.MARKERS, shard, config_hash, stats)
    log.info("publish shard %s: %d captions, %d mcq", name, len(accepted), len(mcqs))
    return stats
