"""NegCap's WebDataset samples: one per image, holding all of the image's accepted captions.

One sample per caption would store each image once per caption and, worse, put the same image
twice in one training batch, where contrastive loss takes each copy for the other's negative.
"""

from __future__ import annotations

from itertools import groupby

from negdata.records import NegCapSample, PublishedCaption, SampleCaption
from negdata.wds import Sample, caption_index


def image_samples(
    captions: list[PublishedCaption], images: dict[str, bytes], hashes: dict[str, str], seed: int
) -> list[Sample]:
    """A sample per image with captions, in key order: ``jpg``; ``txt``, one caption chosen by
    ``seed`` and the image's key (what open_clip trains on); ``json``, the image with every
    caption (``NegCapSample``). ``hashes`` are the images' sha256 by key."""
    samples = []
    ordered = sorted(captions, key=lambda c: c.key)
    for key, group in groupby(ordered, key=lambda c: c.image_key):
        mine = list(group)
        chosen = mine[caption_index(key, len(mine), 0, seed)]
        record = NegCapSample(
            key=key,
            split=chosen.split,
            sha256=hashes[key],
            jpg_sha256=chosen.jpg_sha256,
            caption=chosen.caption,
            original_caption=chosen.original_caption,
            config_hash=chosen.config_hash,
            captions=[
                SampleCaption(
                    key=c.key,
                    text=c.caption,
                    negated=c.negated,
                    negated_label=c.negated_label,
                    style=c.style,
                    generator=c.generator,
                    prompt=c.prompt or "",
                    model=c.model or "",
                )
                for c in mine
            ],
        )
        samples.append(
            {"__key__": key, "jpg": images[key], "txt": chosen.caption, "json": record.model_dump()}
        )
    return samples
