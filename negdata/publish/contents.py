"""What the published captions hold: which objects they negate and affirm, and how long they are.

Read from the NegCap Parquet files of the first shards, up to ``limit`` captions (as the
diversity figures are), so that a run of thousands of shards is summed in seconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice

from negdata.clip_text import clip_tokens
from negdata.config import Config
from negdata.publish import layout
from negdata.records import CaptionRecord
from negdata.shards import shard_name

# Caption length bins in CLIP tokens (start and end included); the last ends at the context.
LENGTH_BINS = (0, 10, 20, 30, 40, 50, 60, 77)


@dataclass
class Contents:
    captions: int = 0  # captions read (at most the limit)
    image_keys: set[str] = field(default_factory=set)
    negated: Counter[str] = field(default_factory=Counter)
    affirmed: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)  # bin start -> captions
    longest: int = 0  # in CLIP tokens
    total_tokens: int = 0
    models: set[str] = field(default_factory=set)
    config_hashes: set[str] = field(default_factory=set)

    @property
    def images(self) -> int:
        return len(self.image_keys)

    @property
    def mean_tokens(self) -> float | None:
        return round(self.total_tokens / self.captions, 1) if self.captions else None

    def add(self, record: CaptionRecord) -> None:
        self.captions += 1
        self.image_keys.add(record.image_key)
        self.negated[record.negated_label] += 1
        self.affirmed.update(record.affirmed)
        tokens = clip_tokens(record.caption)
        self.lengths[max(b for b in LENGTH_BINS[:-1] if b <= tokens)] += 1
        self.longest = max(self.longest, tokens)
        self.total_tokens += tokens
        if record.model:
            self.models.add(record.model)
        self.config_hashes.add(record.config_hash)


def published_contents(cfg: Config, shards: list[int], limit: int) -> Contents:
    contents = Contents()
    for record in islice(_captions(cfg, shards), limit):
        contents.add(record)
    return contents


def _captions(cfg: Config, shards: list[int]) -> Iterator[CaptionRecord]:
    for shard in shards:
        yield from layout.published_captions(cfg.run.output_dir, shard_name(shard))
