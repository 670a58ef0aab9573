"""The synthetic corpus: what each URL of a CC12M-like url/caption table is, from a seed.

Row ``i`` of the corpus is decided by ``random.Random(f"{seed}:{i}")`` alone, so the table
writer, the HTTP server (``bench/scale/corpus_server.py``) and the label oracle agree without
sharing state. A row is one of ``KINDS``: about 65% of rows fetch a JPEG (some after a
redirect), the rest fail as CC12M's URLs do today (dead links, dead hosts, redirects to
nothing or in circles, error pages, HTML, truncated files, oversized files and pixels, icons,
banners, opt-outs).

A fetchable image shows 1 to 4 COCO objects of one scene (a street, a kitchen, a beach, ...);
its alt-text caption names some of them, sometimes by another word ("puppy", "sofa"), in the
styles of web alt-text (stock-photo tags, ``<PERSON>``, hashtags, camera settings after a pipe).
The objects are what the label oracle (the detection stand-in) reads: the pixels served are
photo crops that do not show them, since only the oracle looks at what the image "contains".
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# Kinds of row and their share of the corpus. ok and redirect fetch an image (65%).
KINDS: dict[str, float] = {
    "ok": 0.57,
    "redirect": 0.08,  # 302 to the image
    "not_found": 0.13,  # 404: the commonest dead link
    "dead_host": 0.04,  # nothing listens: connection refused, retried
    "server_error": 0.01,  # 503 every time, retried
    "redirect_dead": 0.02,  # 302 to a 404
    "redirect_loop": 0.01,  # 302 forever
    "html": 0.05,  # 200 with an HTML page
    "truncated": 0.03,  # a JPEG cut short
    "oversized_body": 0.01,  # Content-Length over ingest.max_body_bytes
    "oversized_pixels": 0.01,  # a JPEG header of 30,000 x 30,000 pixels
    "icon": 0.02,  # 64 x 48 pixels
    "banner": 0.01,  # 1,200 x 200 pixels
    "opted_out": 0.01,  # X-Robots-Tag: noai
}
FETCHABLE = frozenset({"ok", "redirect"})
# The reason ingest must count for each failing kind (negdata.ingest.http, negdata.ingest.images).
REASONS: dict[str, str] = {
    "not_found": "http_error",
    "dead_host": "connection_error",
    "server_error": "http_error",
    "redirect_dead": "http_error",
    "redirect_loop": "too_many_redirects",
    "html": "not_an_image",
    "truncated": "decode_error",
    "oversized_body": "body_too_large",
    "oversized_pixels": "decompression_bomb",
    "icon": "image_too_small",
    "banner": "aspect_ratio_too_large",
    "opted_out": "opted_out",
}

# Scenes: where the picture is, and the COCO objects that can be in it.
SCENES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "street": (
        ("city street", "busy road", "downtown crossing", "street corner"),
        ("person", "car", "bus", "bicycle", "traffic light", "truck", "motorcycle",
         "stop sign", "fire hydrant", "bench"),
    ),
    "kitchen": (
        ("kitchen", "modern kitchen", "rustic kitchen"),
        ("cup", "bowl", "oven", "sink", "refrigerator", "bottle", "knife", "microwave",
         "dining table", "person"),
    ),
    "living_room": (
        ("living room", "cozy living room", "apartment"),
        ("couch", "chair", "tv", "potted plant", "book", "clock", "vase", "remote", "dog",
         "cat"),
    ),
    "park": (
        ("park", "city park", "garden", "lawn"),
        ("person", "dog", "bench", "bicycle", "kite", "frisbee", "bird", "umbrella",
         "sports ball"),
    ),
    "beach": (
        ("beach", "sandy beach", "shore"),
        ("person", "surfboard", "umbrella", "boat", "bird", "kite", "dog"),
    ),
    "farm": (
        ("farm", "meadow", "pasture", "countryside"),
        ("horse", "cow", "sheep", "dog", "truck", "person", "bird"),
    ),
    "office": (
        ("office", "desk area", "home office"),
        ("laptop", "keyboard", "mouse", "cell phone", "cup", "chair", "book", "person"),
    ),
    "table": (
        ("restaurant", "cafe", "picnic"),
        ("pizza", "sandwich", "cake", "donut", "cup", "wine glass", "fork", "bowl", "banana",
         "apple", "orange", "dining table"),
    ),
}  # fmt: skip
# Other words a caption may use for an object (each a synonym negdata's lexicon knows).
WORDS: dict[str, tuple[str, ...]] = {
    "person": ("man", "woman", "girl", "boy"),
    "dog": ("puppy",),
    "cat": ("kitten",),
    "couch": ("sofa",),
    "bicycle": ("bike",),
    "car": ("taxi",),
    "cell phone": ("smartphone",),
    "tv": ("television",),
    "boat": ("sailboat",),
}
ADJECTIVES = ("sunny", "quiet", "colorful", "old", "beautiful", "empty", "busy", "small")
TAILS = (
    "", "", "", " #travel", " | Canon EOS 5D, 24mm", " - stock photo", " royalty free image",
    " #photography #instagood", " (2019)",
)  # fmt: skip


@dataclass(frozen=True)
class Row:
    """One row of the table: its kind, and for a fetchable image its objects and caption."""

    index: int
    kind: str
    objects: tuple[str, ...]
    caption: str


def _phrase(label: str, rng: random.Random) -> str:
    """The object as a caption names it: with an article, sometimes by another word."""
    word = rng.choice(WORDS[label]) if label in WORDS and rng.random() < 0.4 else label
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _caption(objects: tuple[str, ...], place: str, rng: random.Random) -> str:
    """Alt-text naming some of ``objects`` (none, one time in ten) in a web style."""
    named = [_phrase(o, rng) for o in objects if rng.random() < 0.75][:3]
    if not named or rng.random() < 0.1:
        frame = rng.choice(
            ("{adj} {place} at sunset", "view of the {place}", "<PERSON> visiting the {place}")
        )
        return frame.format(adj=rng.choice(ADJECTIVES), place=place).capitalize()
    things = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    frame = rng.choice((
        "{things} in a {adj} {place}",
        "{things} at the {place}",
        "<PERSON> with {things} in the {place}",
        "stock photo of {things} on a {adj} day",
        "{things} - {place}",
    ))  # fmt: skip
    text = frame.format(things=things, adj=rng.choice(ADJECTIVES), place=place)
    return text[0].upper() + text[1:] + rng.choice(TAILS)


def corpus_row(seed: int, index: int) -> Row:
    rng = random.Random(f"{seed}:{index}")
    kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
    places, found = SCENES[rng.choice(sorted(SCENES))]
    objects = tuple(sorted(rng.sample(found, rng.randint(1, 4))))
    return Row(index, kind, objects, _caption(objects, rng.choice(places), rng))


def image_path(index: int) -> str:
    return f"/img/{index:08d}.jpg"


def url(row: Row, port: int, dead_port: int) -> str:
    """The row's URL on the corpus server; a dead host's is a port where nothing listens."""
    return (
        f"http://127.0.0.1:{dead_port if row.kind == 'dead_host' else port}{image_path(row.index)}"
    )


@dataclass(frozen=True)
class CorpusFiles:
    table: Path  # url<TAB>caption, no header: what ingest reads (input.format tsv)
    labels: Path  # the label oracle's table: one JSONL row per (url, object)


def rows(seed: int, count: int, start: int = 0) -> Iterator[Row]:
    return (corpus_row(seed, i) for i in range(start, start + count))


def expected_failures(seed: int, count: int, start: int = 0) -> Counter[str]:
    """The failure reasons ingest must count for rows ``start`` to ``start + count``."""
    return Counter(REASONS[row.kind] for row in rows(seed, count, start) if row.kind in REASONS)


def write_corpus(folder: Path, seed: int, count: int, port: int, dead_port: int) -> CorpusFiles:
    """The url/caption table of ``count`` rows and the oracle's labels of its images."""
    folder.mkdir(parents=True, exist_ok=True)
    files = CorpusFiles(folder / "corpus.tsv", folder / "labels.jsonl")
    with files.table.open("w") as table, files.labels.open("w") as labels:
        for row in rows(seed, count):
            address = url(row, port, dead_port)
            table.write(f"{address}\t{row.caption}\n")
            if row.kind in FETCHABLE:
                for label in row.objects:
                    labels.write(json.dumps({"url": address, "label": label}) + "\n")
    return files
