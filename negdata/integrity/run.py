"""A whole run checked shard by shard: its tars, the Parquet beside them, the evidence re-check,
then each split's ``sizes.json``; sample keys unique and each image in one split only.

Shards are checked in parallel, one worker process each (``workers``), and nothing crosses them
but counts and problem lines: a key is unique across the run when it is unique in its shard and
belongs to it (img2dataset's keys begin with their shard's name), so no set of a run's keys is
ever held."""

from __future__ import annotations

import logging
import os
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from negdata.config import Config
from negdata.integrity.recheck import recheck_shard
from negdata.integrity.tables import caption_problems, sizes_problems
from negdata.integrity.tars import TarSample, problem, read_negcap_tar
from negdata.progress import Progress
from negdata.publish import layout
from negdata.records import SPLITS, PublishedCaption, PublishedMcq, Record, Split, read_parquet
from negdata.shards import Location
from negdata.workers import in_order

log = logging.getLogger(__name__)
R = TypeVar("R", bound=Record)


class RunProblems(Exception):
    """The run has problems (each already printed as a line of its own)."""


@dataclass
class Verification:
    """What ``verify_run`` read, and every problem found, one line each."""

    tars: int = 0
    samples: int = 0
    captions: int = 0
    questions: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        count = len(self.problems)
        verdict = f"{count} problem{'s' * (count != 1)}" if count else "OK"
        return (
            f"{self.tars} tars, {self.samples} samples, {self.captions} captions, "
            f"{self.questions} questions: {verdict}"
        )


@dataclass
class _Places:
    """Where each image was seen: a sample key in one tar only, an image in one split only."""

    tar_of: dict[str, Location] = field(default_factory=dict)
    split_of: dict[str, tuple[Split, Location]] = field(default_factory=dict)

    def sample(self, key: str, split: Split, tar: Location) -> str | None:
        first = self.tar_of.get(key)
        if first is None:
            self.tar_of[key] = tar
            return self.image(key, split, tar)
        if first == tar:
            return problem(tar, f"{key}: key twice in the tar")
        return self.image(key, split, tar) or problem(tar, f"{key}: key also in {first}")

    def image(self, key: str, split: Split, path: Location) -> str | None:
        first_split, first = self.split_of.setdefault(key, (split, path))
        if first_split != split:
            return problem(path, f"image {key} is also in split {first_split} ({first})")
        return None


def shard_names(out: Location) -> list[str]:
    """The shards with a file in any split of NegCap, its Parquet or NegMCQ."""
    patterns = [(layout.NEGCAP, "*.tar"), (layout.NEGCAP_PARQUET, "*.parquet")]
    patterns.append((layout.NEGMCQ, "*.parquet"))
    return sorted(
        {
            p.stem
            for folder, pattern in patterns
            for s in SPLITS
            for p in (out / folder / s).glob(pattern)
        }
    )


def verify_run(cfg: Config, workers: int | None = None) -> Verification:
    """Check the run in ``cfg.run.output_dir`` with ``workers`` processes (default: one per
    core, at most one per shard; 1 checks in this process); raises ``ValueError`` where it has
    no published files at all."""
    out = cfg.run.output_dir
    names = shard_names(out)
    if not names:
        raise ValueError(
            f"{out} has no {layout.NEGCAP}/{{split}}/*.tar nor Parquet beside them: "
            "not a finished run's folder in this version's layout"
        )
    workers = min(workers or os.cpu_count() or 1, len(names))
    log.info("verify %s: %d shards, %d worker(s)", out, len(names), workers)
    checks: list[_ShardCheck] = []
    with Progress(len(names), f"verify {out}") as bar:
        for check in in_order(
            partial(check_shard, cfg), names, workers, "negdata verify --workers"
        ):
            checks.append(check)
            bar.update()
    found = Verification()
    counts: dict[Split, dict[str, int]] = defaultdict(dict)
    unreadable: dict[Split, set[str]] = defaultdict(set)
    for check in checks:
        found.tars += check.found.tars
        found.samples += check.found.samples
        found.captions += check.found.captions
        found.questions += check.found.questions
        found.problems += check.found.problems
        for split in SPLITS:
            counts[split].update(check.counts[split])
            unreadable[split] |= check.unreadable[split]
    for split in SPLITS:
        sizes = layout.sizes_path(out, split)
        found.problems += sizes_problems(sizes, counts[split], unreadable[split])
    return found


def check_shard(cfg: Config, name: str) -> _ShardCheck:
    """One shard's check, in whichever process runs it."""
    check = _ShardCheck(cfg, cfg.run.output_dir, name)
    check.run()
    return check


@dataclass
class _ShardCheck:
    cfg: Config
    out: Location
    name: str
    found: Verification = field(default_factory=Verification)
    places: _Places = field(default_factory=_Places)
    # Per split, the samples of each readable tar, and the tars that could not be read.
    counts: dict[Split, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    unreadable: dict[Split, set[str]] = field(default_factory=lambda: defaultdict(set))

    def run(self) -> None:
        name = self.name
        captions: list[tuple[Location, PublishedCaption]] = []
        mcqs: list[tuple[Location, PublishedMcq]] = []
        for split in SPLITS:
            samples = self.tar(split, layout.negcap_tar(self.out, split, name))
            captions += self.captions(split, name, samples)
            mcqs += self.questions(split, layout.negmcq_parquet(self.out, split, name))
        evidence = self.out / "evidence" / f"{name}.parquet"
        self.found.problems += recheck_shard(self.cfg, evidence, captions, mcqs)

    def tar(self, split: Split, tar: Location) -> dict[str, TarSample] | None:
        """The tar's samples by key; None where it is not there or unreadable."""
        if not tar.exists():
            return None
        contents = read_negcap_tar(tar, split)
        self.found.tars += 1
        self.found.problems += contents.problems
        samples: dict[str, TarSample] = {}
        for key, sample in contents.samples:
            self.found.problems += _some(self.places.sample(key, split, tar))
            if not key.startswith(self.name):  # its shard's name: img2dataset's key layout
                self.found.problems.append(problem(tar, f"{key}: key of another shard"))
            samples.setdefault(key, sample)
        if not contents.readable:
            self.unreadable[split].add(tar.name)
            return None
        self.counts[split][tar.name] = len(contents.samples)
        self.found.samples += len(contents.samples)
        return samples

    def captions(
        self, split: Split, name: str, samples: dict[str, TarSample] | None
    ) -> list[tuple[Location, PublishedCaption]]:
        """The split's NegCap Parquet rows, checked against its tar's samples."""
        parquet, tar = (
            layout.negcap_parquet(self.out, split, name),
            layout.negcap_tar(self.out, split, name),
        )
        rows = self._read(parquet, PublishedCaption)
        self.found.captions += len(rows)
        for key in dict.fromkeys(row.image_key for row in rows):
            self.found.problems += _some(self.places.image(key, split, parquet))
        if samples is not None:
            self.found.problems += caption_problems(parquet, rows, split, tar, samples)
        elif rows and not tar.exists():
            self.found.problems.append(problem(parquet, f"no tar {tar} for its images"))
        return [(parquet, row) for row in rows]

    def questions(self, split: Split, parquet: Location) -> list[tuple[Location, PublishedMcq]]:
        rows = self._read(parquet, PublishedMcq)
        self.found.questions += len(rows)
        for mcq in rows:
            self.found.problems += _some(self.places.image(mcq.image_key, split, parquet))
            if mcq.split != split:
                self.found.problems.append(
                    problem(parquet, f"{mcq.key}: row says split {mcq.split}")
                )
        return [(parquet, mcq) for mcq in rows]

    def _read(self, path: Location, model: type[R]) -> list[R]:
        """A Parquet file's rows; none where it is not there, or is unreadable (a problem)."""
        if not path.exists():
            return []
        try:
            return read_parquet(path, model)
        except (OSError, ValueError) as exc:
            self.found.problems.append(problem(path, f"unreadable Parquet: {exc}"))
            return []


def _some(line: str | None) -> list[str]:
    return [] if line is None else [line]
