"""Where publish puts each dataset. Every dataset has a folder per split, the layout that
open_clip's shard patterns and Hugging Face's ``load_dataset(folder)`` both read as splits, and
holds nothing but its data (and open_clip's ``sizes.json``)::

    negcap/{split}/{s:05d}.tar, sizes.json      WebDataset, one sample per image (open_clip)
    negcap/README.md                            its card: which files make each split
    negcap_parquet/{split}/{s:05d}.parquet      NegCap, one row per caption
    negmcq/{split}/{s:05d}.parquet              NegMCQ, one row per question
    rejects/{s:05d}.parquet                     every dropped item, with its reason
    publish/{s:05d}_stats.json                  the stage's done marker, out of the datasets

A shard writes a file in a split only where it has something there: ``datasets`` reads neither
an empty tar (nothing to infer a schema from) nor an empty Parquet file.
"""

from __future__ import annotations

from negdata.records import SPLITS, PublishedCaption, PublishedMcq, R, Split, read_parquet
from negdata.shards import Location

NEGCAP = "negcap"
NEGCAP_PARQUET = "negcap_parquet"
NEGMCQ = "negmcq"
REJECTS = "rejects"
MARKERS = "publish"


def negcap_tar(out: Location, split: Split, name: str) -> Location:
    return out / NEGCAP / split / f"{name}.tar"


def sizes_path(out: Location, split: Split) -> Location:
    """open_clip's sample counts of a split's tars (it looks beside the first tar)."""
    return out / NEGCAP / split / "sizes.json"


def card_path(out: Location) -> Location:
    return out / NEGCAP / "README.md"


def negcap_card(splits: list[Split]) -> str:
    """NegCap's dataset card: its YAML names each split's tars, so that ``load_dataset`` on the
    folder reads them as WebDataset (a split of one tar beside its sizes.json would otherwise be
    taken for JSON, which wins ties)."""
    files = "".join(f"  - split: {split}\n    path: {split}/*.tar\n" for split in splits)
    return (
        f"---\nconfigs:\n- config_name: default\n  data_files:\n{files}---\n\n"
        "# NegCap\n\nOne WebDataset sample per image: `jpg`; `txt`, one of the image's negated "
        "captions; `json`, the image with all its captions. Written by negdata.\n"
    )


def negcap_parquet(out: Location, split: Split, name: str) -> Location:
    return out / NEGCAP_PARQUET / split / f"{name}.parquet"


def negmcq_parquet(out: Location, split: Split, name: str) -> Location:
    return out / NEGMCQ / split / f"{name}.parquet"


def folders(out: Location) -> list[Location]:
    """Every folder publish writes a shard's files to."""
    per_split = [out / d / s for d in (NEGCAP, NEGCAP_PARQUET, NEGMCQ) for s in SPLITS]
    return [*per_split, out / REJECTS, out / MARKERS]


def published_captions(out: Location, name: str) -> list[PublishedCaption]:
    """A shard's published NegCap rows, split by split."""
    return _published([negcap_parquet(out, split, name) for split in SPLITS], PublishedCaption)


def published_mcqs(out: Location, name: str) -> list[PublishedMcq]:
    """A shard's published NegMCQ rows, split by split."""
    return _published([negmcq_parquet(out, split, name) for split in SPLITS], PublishedMcq)


def _published(paths: list[Location], model: type[R]) -> list[R]:
    return [record for path in paths if path.exists() for record in read_parquet(path, model)]
