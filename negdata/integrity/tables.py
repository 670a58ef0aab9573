"""What must agree with the tars: each split's ``sizes.json`` (the tars there are and their
sample counts) and the NegCap Parquet (the same images, with the same caption texts)."""

from __future__ import annotations

import json
from collections import defaultdict

from negdata.integrity.tars import TarSample, problem
from negdata.records import PublishedCaption
from negdata.shards import Location


def sizes_problems(path: Location, counts: dict[str, int], unreadable: set[str]) -> list[str]:
    """``sizes.json`` against the split's tars: ``counts`` are the readable tars' samples;
    ``unreadable`` tars, already reported, are left out."""
    if not counts and not unreadable and not path.exists():
        return []
    try:
        sizes = json.loads(path.read_text())
    except FileNotFoundError:
        return [problem(path, "missing, beside the split's tars")]
    except (OSError, ValueError) as exc:
        return [problem(path, f"does not parse: {exc}")]
    if not isinstance(sizes, dict):
        return [problem(path, "is not an object of tar names to sample counts")]
    problems = []
    for tar in sorted(sizes.keys() | counts.keys()):
        if tar in unreadable:
            continue
        if tar not in sizes:
            problems.append(problem(path, f"does not list {tar} ({counts[tar]} samples)"))
        elif tar not in counts:
            problems.append(problem(path, f"lists {tar}, which is not there"))
        elif sizes[tar] != counts[tar]:
            problems.append(
                problem(path, f"{tar}: {sizes[tar]} samples, the tar has {counts[tar]}")
            )
    return problems


def caption_problems(
    parquet: Location,
    rows: list[PublishedCaption],
    split: str,
    tar: Location,
    samples: dict[str, TarSample],
) -> list[str]:
    """A split's NegCap Parquet file against its tar's samples: the same images, each with the
    same captions and the same sha256 for its JPEG, and every row of the split."""
    problems = [
        problem(parquet, f"{row.key}: row says split {row.split}")
        for row in rows
        if row.split != split
    ]
    texts: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        texts[row.image_key].append(row.caption)
        sample = samples.get(row.image_key)
        if sample is not None and sample.jpg_sha256 and row.jpg_sha256 != sample.jpg_sha256:
            problems.append(
                problem(parquet, f"{row.key}: jpg_sha256 {row.jpg_sha256}, the sample's .json in "
                        f"{tar} says {sample.jpg_sha256}")
            )  # fmt: skip
    for key in sorted(texts.keys() | samples.keys()):
        if key not in samples:
            problems.append(problem(parquet, f"{key}: has captions but no sample in {tar}"))
        elif key not in texts:
            problems.append(problem(parquet, f"{key}: no captions for the sample in {tar}"))
        elif sorted(texts[key]) != sorted(samples[key].captions):
            only_here = sorted(set(texts[key]) - set(samples[key].captions))
            only_tar = sorted(set(samples[key].captions) - set(texts[key]))
            problems.append(
                problem(
                    parquet,
                    f"{key}: captions differ from {tar}: here only {only_here}, "
                    f"there only {only_tar}",
                )
            )
    return problems
