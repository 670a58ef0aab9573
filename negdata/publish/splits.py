"""Train, validation and test by image: the image's sha256 alone decides its split, so the same
image lands in the same split in every shard and every run, whatever the order of the rows, and
an evaluation on validation or test never sees an image a model was trained on."""

from __future__ import annotations

from negdata.config import SplitFractions
from negdata.records import SPLITS, Split

_BITS = 53  # a double holds 53 bits exactly: position() stays below 1


def position(sha256: str) -> float:
    """The image's place in [0, 1): the first 53 bits of its sha256 (hex) over 2**53."""
    top = int(sha256, 16) >> (256 - _BITS)
    return top / (1 << _BITS)


def split_of(sha256: str, fractions: SplitFractions) -> Split:
    """The split whose share of [0, 1) holds the image's position: train first, then
    validation, then test."""
    shares = fractions.model_dump()
    at, edge = position(sha256), 0.0
    for split in SPLITS:
        edge += shares[split]
        if at < edge:
            return split
    # The fractions sum to 1 within 1e-9; a position in what rounding left over goes last.
    return next(split for split in reversed(SPLITS) if shares[split] > 0)
