"""NegCap's WebDataset samples: one per image, holding all of the image's accepted captions.

One sample per caption would store each image once per caption and, worse, put the same image
twice in one training batch, where contrastive loss takes each copy for the other's negative.
"""

from __future__ import annotations

from negdata.records import NegCapSample, PublishedCaption, SampleCaption
from negdata.wds import Sample, caption_index


def image_sample(
    key: str, captions: list[PublishedCaption], jpg: bytes, sha256: str, seed: int
) -> Sample:
    """The sample of one image and its ``captions`` (in key order): ``jpg``; ``txt``, one caption
    chosen by ``seed`` and the image's key (what open_clip trains on); ``json``, the image with
    every caption (``NegCapSample``). ``sha256`` is the original image's."""
    chosen = captions[caption_index(key, len(captions), 0, seed)]
    record = NegCapSample(
        key=key,
        split=chosen.split,
        sha256=sha256,
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
            for c in captions
        ],
    )
    return {"__key__": key, "jpg": jpg, "txt": chosen.caption, "json": record.model_dump()}
