"""Records every stage reads and writes. Their pydantic models define the Parquet schemas."""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any, Generic, Literal, TypeVar, Union, get_args, get_origin

import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import BaseModel, ConfigDict

from negdata.shards import Location, atomic_path, is_remote

Verdict = Literal["present", "absent", "uncertain", "unverifiable"]
Style = Literal["affirmation_first", "negation_first"]
McqTemplate = Literal["affirmation", "negation", "hybrid"]
Split = Literal["train", "validation", "test"]
SPLITS: tuple[Split, ...] = get_args(Split)


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class IngestRow(Record):
    """One input row and what became of it: img2dataset's per-sample metadata."""

    key: str
    url: str
    caption: str
    status: Literal["success", "failed"]
    error_message: str | None = None
    width: int | None = None
    height: int | None = None
    original_width: int | None = None
    original_height: int | None = None
    sha256: str | None = None


class Box(Record):
    label: str
    score: float
    x0: float
    y0: float
    x1: float
    y1: float
    source: str


class LabelScore(Record):
    """A label's score over the sources that cover it: the highest (any source that sees an
    object blocks its negation) and the lowest (a source that doubts it blocks affirming it on
    the evidence alone). ``lowest`` is None in evidence written before it was recorded."""

    label: str
    score: float
    lowest: float | None = None


class Evidence(Record):
    """What the detectors saw in one image: boxes, and the max score of every label they cover.

    A label missing from ``scores`` is not covered by any source: its absence cannot be verified.
    """

    key: str
    boxes: list[Box]
    scores: list[LabelScore]
    sources: list[str]

    def score_map(self) -> dict[str, float]:
        return {s.label: s.score for s in self.scores}


def known_evidence(
    key: str, present: Mapping[str, int], absent: Iterable[str], source: str
) -> Evidence:
    """Evidence of a source that knows the image: each label of ``present`` scored 1 with
    ``present[label]`` boxes (0: there, but not counted), each of ``absent`` scored 0."""
    boxes = [
        Box(label=label, score=1.0, x0=i, y0=0.0, x1=i + 1.0, y1=1.0, source=source)
        for label, n in sorted(present.items())
        for i in range(n)
    ]
    scores = [LabelScore(label=label, score=1.0) for label in sorted(present)]
    scores += [LabelScore(label=label, score=0.0) for label in sorted(set(absent) - set(present))]
    return Evidence(key=key, boxes=boxes, scores=scores, sources=[source])


class ObjectVerdict(Record):
    noun: str
    label: str | None
    verdict: Verdict
    score: float | None


class PlanRecord(Record):
    key: str
    caption: str
    mentioned: list[ObjectVerdict]
    candidates: list[ObjectVerdict]
    detected: list[str]  # labels the evidence alone affirms (detect.t_affirm), caption or not
    prompt: str


class CaptionRecord(Record):
    """One published negated caption (a NegCap sample)."""

    key: str
    image_key: str
    caption: str
    negated: str
    negated_label: str
    style: Style
    generator: Literal["llm", "template"]
    original_caption: str
    affirmed: list[str]
    prompt: str | None
    model: str | None
    config_hash: str
    unverifiable_nouns: list[str] = []


class McqRecord(Record):
    """One NegBench-style four-option question about an image (a NegMCQ row)."""

    key: str
    image_key: str
    caption_0: str
    caption_1: str
    caption_2: str
    caption_3: str
    correct_answer: int
    correct_answer_template: McqTemplate
    positives: list[str]
    negative: str
    config_hash: str
    template_options: list[str] = []
    paraphrased: list[bool] = [False, False, False, False]
    prompt: str | None = None


class PublishedCaption(CaptionRecord):
    """A NegCap caption as published, with its image's split: a row of the NegCap Parquet.
    ``jpg_sha256`` is the sha256 of the JPEG its NegCap sample stores (``negdata verify``
    checks it: a flipped byte may still decode)."""

    split: Split
    jpg_sha256: str


class PublishedMcq(McqRecord):
    """A NegMCQ question as published, with its image's split."""

    split: Split


class SampleCaption(Record):
    """One accepted caption in a NegCap sample's ``.json``. Every field is a string, never null
    ("" where a template caption has no prompt or model), so that Hugging Face ``datasets``
    infers the types from any one sample; the Parquet rows carry the rest (``affirmed``,
    ``unverifiable_nouns``: lists that may be empty, which no single sample can type)."""

    key: str
    text: str
    negated: str
    negated_label: str
    style: Style
    generator: Literal["llm", "template"]
    prompt: str
    model: str


class NegCapSample(Record):
    """The ``.json`` of a NegCap WebDataset sample: one image with all its accepted captions.
    ``caption`` is the sample's ``.txt``, the one open_clip trains on."""

    key: str
    split: Split
    sha256: str  # of the original image, as ingest fetched it (what splits are made by)
    jpg_sha256: str  # of the stored .jpg
    caption: str
    original_caption: str
    config_hash: str
    captions: list[SampleCaption]


class PairRecord(Record):
    """A NegPairs row: images A and B look alike (their other verified objects overlap by
    ``overlap``, a Jaccard index; with ``detect.encoder`` their embeddings' cosine is
    ``similarity``, else None) and differ by ``object``, verified present in A and verified
    absent in B. ``pair_id`` follows from the two keys and the object alone."""

    pair_id: str
    key_a: str
    key_b: str
    object: str
    overlap: float
    similarity: float | None
    shard_a: int
    shard_b: int
    present_a: list[str]
    present_b: list[str]


class NegPairRecord(PairRecord):
    """A published NegPair (``pairs/negpairs.parquet``): a mined pair with two captions, each
    passed by the pair gates (``negdata.pairs.gate``): ``caption_a`` is true of A and affirms
    ``object``, ``caption_b`` is true of B and negates it. ``generator``, ``prompt`` and
    ``model`` name what wrote them, as a NegCap caption's do (a template: no prompt, no model)."""

    caption_a: str
    caption_b: str
    generator: Literal["llm", "template"]
    prompt: str | None
    model: str | None
    config_hash: str
    split: Split  # both images': by the smaller of their sha256


class Reject(Record):
    """A dropped item: which stage dropped it, and why (``reason`` is a counted code)."""

    stage: str
    key: str
    reason: str
    detail: str = ""


_SCALARS: dict[Any, pa.DataType] = {
    str: pa.string(),
    int: pa.int64(),
    float: pa.float64(),
    bool: pa.bool_(),
}


def _arrow_type(annotation: Any) -> pa.DataType:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        (inner,) = [arg for arg in get_args(annotation) if arg is not type(None)]
        return _arrow_type(inner)
    if origin is Literal:
        return _SCALARS[type(get_args(annotation)[0])]
    if origin is list:
        return pa.list_(_arrow_type(get_args(annotation)[0]))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return pa.struct(
            [pa.field(n, _arrow_type(f.annotation)) for n, f in annotation.model_fields.items()]
        )
    return _SCALARS[annotation]


def arrow_schema(model: type[Record]) -> pa.Schema:
    return pa.schema(
        [pa.field(n, _arrow_type(f.annotation)) for n, f in model.model_fields.items()]
    )


R = TypeVar("R", bound=Record)


# Rows per Parquet row group: a stage writes and reads a shard this many records at a time, so
# what it holds does not grow with the shard (10,000 images in a CC12M shard).
ROW_GROUP = 1024


class ParquetSink:
    """Records added as they are made, written a row group at a time (``parquet_sink``)."""

    def __init__(self, writer: pq.ParquetWriter, schema: pa.Schema) -> None:
        self._writer = writer
        self._schema = schema
        self._pending: list[dict[str, Any]] = []
        self.rows = 0

    def add(self, records: Iterable[Record]) -> None:
        for record in records:
            self._pending.append(record.model_dump(mode="json"))
            if len(self._pending) == ROW_GROUP:
                self._flush()

    def _flush(self) -> None:
        self._writer.write_table(pa.Table.from_pylist(self._pending, schema=self._schema))
        self.rows += len(self._pending)
        self._pending = []

    def close(self) -> None:
        if self._pending or not self.rows:  # a file of no rows still holds the schema
            self._flush()


@contextmanager
def parquet_sink(path: Location, model: type[Record]) -> Iterator[ParquetSink]:
    """A Parquet file with the model's schema, filled while the block runs and published whole
    when it ends without an error (``atomic_path``): no reader ever sees part of it."""
    schema = arrow_schema(model)
    with atomic_path(path) as tmp, pq.ParquetWriter(tmp, schema) as writer:
        sink = ParquetSink(writer, schema)
        yield sink
        sink.close()


def write_parquet(path: Location, model: type[Record], records: Iterable[Record]) -> int:
    """Write records atomically as Parquet with the model's schema; returns the row count."""
    with parquet_sink(path, model) as sink:
        sink.add(records)
    return sink.rows


def iter_parquet(path: Location, model: type[R], rows: int | None = None) -> Iterator[list[R]]:
    """The file's records in order, ``rows`` (default ``ROW_GROUP``) at a time: a shard read
    without holding it."""
    with (
        path.open("rb") if is_remote(path) else nullcontext(path) as source,
        pq.ParquetFile(source) as file,
    ):
        for batch in file.iter_batches(batch_size=rows or ROW_GROUP):
            yield [model.model_validate(row) for row in batch.to_pylist()]


def read_parquet(path: Location, model: type[R]) -> list[R]:
    return list(flat(iter_parquet(path, model)))


T = TypeVar("T")


def flat(batches: Iterable[list[T]]) -> Iterator[T]:
    """The records of ``batches`` (``iter_parquet``'s) one by one."""
    return (record for batch in batches for record in batch)


class InOrder(Generic[T]):
    """A stream of a shard's records in its order (by image key), taken a stretch of keys at a
    time: how a stage reads its files side by side, none of them whole."""

    def __init__(self, records: Iterator[T], key: Callable[[T], str]) -> None:
        self._records = records
        self._key = key
        self._next = next(records, None)

    def upto(self, last: str | None) -> Iterator[T]:
        """The records not yet taken whose key is at most ``last`` (all, for None)."""
        while self._next is not None and (last is None or self._key(self._next) <= last):
            record, self._next = self._next, next(self._records, None)
            yield record


def count_by(items: Sequence[Reject]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item.reason] = counts.get(item.reason, 0) + 1
    return dict(sorted(counts.items()))
