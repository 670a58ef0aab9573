"""The report's gallery: the first published images, each as a small JPEG thumbnail (a data URI)
with its boxes at ``t_present``, its original caption, its negated captions and its questions.

Images come from the ingested shards (``shards/{s}.tar``), boxes from the evidence Parquet, text
from the NegCap and NegMCQ Parquet. Only as many shards are opened as the gallery needs.
"""

from __future__ import annotations

import base64
import io
from collections import defaultdict
from dataclasses import dataclass

from PIL import Image

from negdata.config import Config
from negdata.publish import layout
from negdata.records import Box, CaptionRecord, Evidence, IngestRow, McqRecord, read_parquet
from negdata.shards import Location, shard_name
from negdata.wds import tar_samples

THUMBNAIL_PX = 256  # longest side
THUMBNAIL_QUALITY = 75


@dataclass(frozen=True)
class GalleryItem:
    key: str
    thumbnail: str  # data:image/jpeg;base64,...
    width: int  # of the ingested image, the space the boxes are in
    height: int
    boxes: list[Box]
    original_caption: str
    captions: list[CaptionRecord]
    questions: list[McqRecord]


def gallery(cfg: Config, shards: list[int], size: int) -> list[GalleryItem]:
    """Up to ``size`` images with a published caption or question, in shard and key order."""
    items: list[GalleryItem] = []
    for shard in shards:
        if len(items) >= size:
            break
        items += _shard_items(cfg.run.output_dir, shard, size - len(items), cfg.detect.t_present)
    return items


def _shard_items(out: Location, shard: int, size: int, t_present: float) -> list[GalleryItem]:
    """The shard's gallery items; the boxes drawn are those at ``t_present`` (a person scored
    0.05 on a cat is no person in the picture)."""
    name = shard_name(shard)
    captions: dict[str, list[CaptionRecord]] = defaultdict(list)
    for caption in layout.published_captions(out, name):
        captions[caption.image_key].append(caption)
    questions: dict[str, list[McqRecord]] = defaultdict(list)
    for question in layout.published_mcqs(out, name):
        questions[question.image_key].append(question)
    keys = sorted(captions.keys() | questions.keys())[:size]
    if not keys:
        return []
    evidence = {e.key: e for e in read_parquet(out / "evidence" / f"{name}.parquet", Evidence)}
    ingested = read_parquet(out / "shards" / f"{name}.parquet", IngestRow)
    original = {row.key: row.caption for row in ingested}
    images = _images(out / "shards" / f"{name}.tar", set(keys))
    items = []
    for key in keys:
        image = Image.open(io.BytesIO(images[key]))
        found = evidence.get(key)
        items.append(
            GalleryItem(
                key=key,
                thumbnail=_thumbnail(image),
                width=image.width,
                height=image.height,
                boxes=[b for b in found.boxes if b.score >= t_present] if found else [],
                original_caption=original.get(key, ""),
                captions=captions[key],
                questions=questions[key],
            )
        )
    return items


def _images(tar: Location, keys: set[str]) -> dict[str, bytes]:
    """The JPEG bytes of ``keys`` from an ingested shard, read until the last one is found."""
    found: dict[str, bytes] = {}
    with tar.open("rb") as fh:
        for key, files in tar_samples(fh, "r|*", read=True):
            if key in keys and "jpg" in files:
                found[key] = files["jpg"]
                if len(found) == len(keys):
                    break
    missing = keys - found.keys()
    if missing:
        raise FileNotFoundError(f"{tar}: no image for {', '.join(sorted(missing))}")
    return found


def _thumbnail(image: Image.Image) -> str:
    small = image.convert("RGB")
    small.thumbnail((THUMBNAIL_PX, THUMBNAIL_PX))
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=THUMBNAIL_QUALITY)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
