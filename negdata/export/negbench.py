"""``negdata export negbench RUN OUT``: a finished run as the CSVs and image files NegBench
reads (the formats: ``negdata.export.negbench_rows``).

Training files (``negcap.csv``, ``mcq_train.csv``) hold the records of the ``train`` split,
evaluation files (``mcq_eval.csv``, ``negated_retrieval.csv``) those of the ``test`` split, or
of the splits ``eval_splits`` names (the bundled sample, too small for a test split of 5 images,
is evaluated on all of them; the train split is then in both, with a warning). Records that
carry no ``split`` go to both, with a warning. NegBench's retrieval evaluator ranks with
recall@5, and stops with an index error on fewer than 5 images or captions: such an export says
so in one line.

A run with published NegPairs (``negdata pairs`` with ``pairs.captions``) also gets
``negpairs_train.csv`` and ``negpairs_mcq.csv`` (``negdata.export.negpairs``).

Images are written once each, as ``OUT/images/{shard}/{image key}.jpg``, and only those a CSV
names; shards are read and their images written in parallel, one worker process per core.
Everything is written atomically, in shard and record order, so a second export writes the same
bytes (and leaves image files that already hold the right bytes untouched).
"""

from __future__ import annotations

import csv
import logging
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.detect.vocab import VocabularyName
from negdata.export.negbench_rows import (
    MCQ_COLUMNS,
    NEGCAP_COLUMNS,
    RETRIEVAL_COLUMNS,
    Row,
    mcq_eval_row,
    mcq_train_row,
    negcap_row,
    retrieval_row,
)
from negdata.export.negpairs import export_pairs
from negdata.export.run_inputs import RunError, published_shards, shard_images, shard_records
from negdata.progress import Progress
from negdata.publish import layout
from negdata.records import CaptionRecord, McqRecord
from negdata.shards import Location, atomic_path, shard_name, write_if_changed
from negdata.workers import in_order

log = logging.getLogger(__name__)

TRAIN_SPLIT, TEST_SPLIT = "train", "test"
RECALL_K = 5  # NegBench's retrieval evaluator: recall@5, its default and only k
FILES = {
    "negcap.csv": NEGCAP_COLUMNS,
    "mcq_train.csv": MCQ_COLUMNS,
    "mcq_eval.csv": MCQ_COLUMNS,
    "negated_retrieval.csv": RETRIEVAL_COLUMNS,
}


T = TypeVar("T")


@dataclass
class _Routed(Generic[T]):
    """A shard's records by the files they go to: training, evaluation (the ``eval_splits``)
    or, records with no split, both."""

    eval_splits: frozenset[str]
    train: list[T] = field(default_factory=list)
    test: list[T] = field(default_factory=list)
    unsplit: int = 0
    other_splits: Counter[str] = field(default_factory=Counter)

    def add(self, record: T, split: str | None) -> None:
        if split is None:
            self.unsplit += 1
        if split in (None, TRAIN_SPLIT):
            self.train.append(record)
        if split is None or split in self.eval_splits:
            self.test.append(record)
        if split is not None and split != TRAIN_SPLIT and split not in self.eval_splits:
            self.other_splits[split] += 1


def _by_image(captions: Sequence[CaptionRecord]) -> dict[str, list[CaptionRecord]]:
    groups: dict[str, list[CaptionRecord]] = {}
    for caption in captions:
        groups.setdefault(caption.image_key, []).append(caption)
    return groups


@contextmanager
def _csv_writers(out: Path) -> Iterator[dict[str, Any]]:
    """A csv writer per file, its header written; each file appears whole on success."""
    with ExitStack() as stack:
        writers = {}
        for name, columns in FILES.items():
            tmp = stack.enter_context(atomic_path(out / name))
            handle = stack.enter_context(tmp.open("w", newline="", encoding="utf-8"))
            writers[name] = csv.writer(handle, lineterminator="\n")
            writers[name].writerow(columns)
        yield writers


@dataclass
class _ShardExport:
    """One shard's rows per file, the image keys they name, and what was left out."""

    rows: dict[str, list[Row]]
    keys: set[str]
    unsplit: int
    other_splits: Counter[str]
    eval_left_out: list[str]
    retrieval_captions: int
    images: int = 0


def _shard_export(
    run: Location, shard: int, root: str, eval_splits: frozenset[str], lexicon: Lexicon
) -> _ShardExport:
    name = shard_name(shard)
    captions: _Routed[CaptionRecord] = _Routed(eval_splits)
    mcqs: _Routed[McqRecord] = _Routed(eval_splits)
    for caption, split in shard_records(run / layout.NEGCAP_PARQUET, shard, CaptionRecord):
        captions.add(caption, split)
    for mcq, split in shard_records(run / layout.NEGMCQ, shard, McqRecord):
        mcqs.add(mcq, split)

    def path(key: str) -> str:
        return f"{root}/{name}/{key}.jpg"

    evaluation = [(m, mcq_eval_row(path(m.image_key), m)) for m in mcqs.test]
    shown = [c.image_key for c in captions.train + captions.test]
    shown += [m.image_key for m in mcqs.train] + [m.image_key for m, r in evaluation if r]
    return _ShardExport(
        rows={
            "negcap.csv": [
                negcap_row(path(k), g, lexicon) for k, g in _by_image(captions.train).items()
            ],
            "mcq_train.csv": [mcq_train_row(path(m.image_key), m) for m in mcqs.train],
            "mcq_eval.csv": [row for _, row in evaluation if row is not None],
            "negated_retrieval.csv": [
                retrieval_row(path(k), g) for k, g in _by_image(captions.test).items()
            ],
        },
        keys=set(shown),
        unsplit=captions.unsplit + mcqs.unsplit,
        other_splits=captions.other_splits + mcqs.other_splits,
        eval_left_out=[m.key for m, row in evaluation if row is None],
        retrieval_captions=len(captions.test),
    )


def _export_images(run: Location, shard: int, keys: set[str], folder: Path) -> int:
    """Write the shard's images named by ``keys`` into ``folder``; returns how many."""
    found = 0
    for key, data in shard_images(run, shard, keys):
        write_if_changed(folder / f"{key}.jpg", data)
        found += 1
    if found != len(keys):
        raise RunError(
            f"{run}: shards/{shard_name(shard)}.tar lacks {len(keys) - found} of the images "
            "its published records name: ingest and publish that shard again"
        )
    return found


def _export_shard(
    shard: int,
    run: Location,
    out: Path,
    root: str,
    eval_splits: frozenset[str],
    vocabulary: VocabularyName,
) -> _ShardExport:
    """One shard's rows, its images written, in whichever process runs it."""
    part = _shard_export(run, shard, root, eval_splits, lexicon_for(vocabulary))
    part.images = _export_images(run, shard, part.keys, out / "images" / shard_name(shard))
    return part


def export_negbench(
    run: Location,
    out: Path,
    image_root: str | None = None,
    eval_splits: Sequence[str] = (TEST_SPLIT,),
    vocabulary: VocabularyName = "coco",
    workers: int | None = None,
) -> dict[str, int]:
    """Export the published shards of ``run`` to ``out`` in NegBench's formats; returns counts.
    CSV paths name ``image_root/{shard}/{key}.jpg``: by default ``out/images`` made absolute;
    give another root when NegBench will find the images elsewhere (another mount). The
    evaluation files hold the records of ``eval_splits``; ``vocabulary`` is the run's
    (``detect.vocabulary``), whose lexicon cleans the source captions and names their objects.
    Shards are read and their images written by ``workers`` processes (default: one per core,
    at most one per shard; 1: this process), the CSVs in shard order by this one."""
    shards = published_shards(run)
    root = image_root.rstrip("/") if image_root else str((out / "images").resolve())
    evaluated = frozenset(eval_splits)
    workers = min(workers or os.cpu_count() or 1, max(len(shards), 1))
    job = partial(
        _export_shard,
        run=run,
        out=out,
        root=root,
        eval_splits=evaluated,
        vocabulary=vocabulary,
    )
    counts: Counter[str] = Counter()
    unsplit, other_splits, left_out = 0, Counter[str](), []
    parts = in_order(job, shards, workers, "negdata export negbench --workers")
    with _csv_writers(out) as writers, Progress(len(shards), "export negbench") as bar:
        for part in parts:
            for file, rows in part.rows.items():
                writers[file].writerows(rows)
                counts[file] += len(rows)
            counts["images"] += part.images
            unsplit += part.unsplit
            other_splits += part.other_splits
            left_out += part.eval_left_out
            counts["negated_retrieval_captions"] += part.retrieval_captions
            bar.update()
    if unsplit:
        log.warning(
            "%d records carry no split: each is in both the training and the evaluation CSVs, "
            "so do not report evaluation results of a model trained on this export",
            unsplit,
        )
    if TRAIN_SPLIT in evaluated:
        log.warning(
            "the evaluation CSVs hold the train split too: do not report evaluation results of "
            "a model trained on this export"
        )
    if other_splits:
        log.info("not exported (no NegBench file for these splits): %s", dict(other_splits))
    if left_out:
        log.warning(
            "%d questions left out of mcq_eval.csv: their options are not the templates their "
            "kinds are known by (first: %s)",
            len(left_out),
            left_out[0],
        )
    counts["mcq_eval_left_out"] = len(left_out)
    for file in FILES:
        if not counts[file]:
            log.warning("%s has no rows", file)
    _warn_if_too_small_for_recall(counts, evaluated)
    counts.update(export_pairs(run, out, root, TRAIN_SPLIT, evaluated))
    log.info("negbench export in %s: %s", out, ", ".join(f"{k} {v}" for k, v in counts.items()))
    return dict(counts)


def _warn_if_too_small_for_recall(counts: Counter[str], evaluated: frozenset[str]) -> None:
    """One line when NegBench's retrieval evaluator cannot rank recall@5 on the export: it
    takes the top 5 images of each caption and the top 5 captions of each image."""
    images, captions = counts["negated_retrieval.csv"], counts["negated_retrieval_captions"]
    if images and (images < RECALL_K or captions < RECALL_K):
        log.warning(
            "negated_retrieval.csv holds %d images and %d captions of split %s: NegBench's "
            'retrieval evaluator ranks recall@%d and stops on fewer ("selected index k out of '
            'range"); export a run with more, or evaluate on more splits (--eval-splits)',
            images,
            captions,
            ",".join(sorted(evaluated)),
            RECALL_K,
        )
