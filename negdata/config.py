"""One pydantic model tree for a run, loaded from YAML.

A bad config stops with a single error that names the offending key (``ConfigError``).
``section_hash`` gives each stage a stable hash of the settings it depends on, which its
done marker records so that a rerun redoes a stage only when its inputs changed.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import math
import os
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_serializer,
    field_validator,
    model_validator,
)
from upath import UPath

from negdata.detect.vocab import VocabularyName
from negdata.shards import is_remote


def cache_dir() -> Path:
    """Where set-up keeps what it builds once per machine: ``$NEGDATA_CACHE``, else
    ``~/.cache/negdata`` (the vLLM venv, the converted model, Ultralytics settings)."""
    return Path(os.environ.get("NEGDATA_CACHE", "~/.cache/negdata")).expanduser()


MAX_AUTO_SHARDS = 8


class ConfigError(ValueError):
    """The config file is missing, unreadable, or has a bad key or value."""


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def __hash__(self) -> int:
        """Frozen, so hashable by content, dict and list fields included (per-process caches
        are keyed by a section)."""
        return hash(self.model_dump_json())


# Stores where an object appears only once its upload is complete (see shards.atomic_path).
OBJECT_STORES = ("s3", "s3a", "gs", "gcs", "az", "abfs", "abfss")


class RunConfig(Section):
    """Where the run writes, and how its shards are scheduled over threads, Dask or a cluster."""

    # Declared before output_dir, whose validator reads it.
    storage_options: dict[str, Any] = Field(
        default_factory=dict,
        description="fsspec options for `output_dir`'s filesystem, e.g. "
        "`{endpoint_url: http://minio:9000}` for MinIO or another S3-compatible store. Leave "
        "credentials to the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, "
        "`AWS_PROFILE`). Not part of any stage hash.",
    )
    output_dir: UPath = Field(
        default=UPath("runs/sample"),
        description="Where every stage writes: a local folder, or an object-store URL such as "
        "`s3://bucket/negdata/cc12m` (`s3`, `gs`, `az`/`abfs`; S3 needs the `s3` extra, which "
        "`make install` includes).",
    )
    seed: int = Field(
        default=0,
        description="Seeds every choice the run draws: candidate order, caption styles and "
        "template frames, MCQ answer positions, and which of an image's captions is its "
        "sample's `.txt`.",
    )
    shards_in_flight: Annotated[int, Field(ge=1)] | None = Field(
        default=None,
        description="Shards the flow works on at once; they share one LLM client. Unset: enough "
        "shards (2 to 8) to hold four times `llm.max_concurrency` requests.",
    )
    lease_ttl_s: Annotated[float, Field(gt=0)] = Field(
        default=600.0,
        description="A run leases each shard it works on (`leases/` in the output folder), "
        "renewing the lease 4 times per `lease_ttl_s` seconds; a worker that dies loses its "
        "shards to the next run this long after its last renewal.",
    )
    shards_per_chunk: Annotated[int, Field(ge=1)] = Field(
        default=4, description="On a cluster (`flows/cluster.py`): shards per child flow run."
    )
    chunk_attempts: Annotated[int, Field(ge=1)] = Field(
        default=3,
        description="On a cluster: child runs a chunk gets before its unfinished shards count "
        "as failed (a worker that dies costs one).",
    )
    engine: Literal["threads", "dask"] = Field(
        default="threads",
        description="Where a run's shard tasks run (`flows/engines.py`): `threads`, in the "
        "flow's own process, `shards_in_flight` at a time; or `dask`, on a Dask cluster through "
        "prefect-dask (the `dask` extra), one shard per worker's `GPU` resource at a time. Not "
        "part of any stage hash: switching engines redoes nothing.",
    )
    dask_address: Annotated[str, Field(min_length=1)] | None = Field(
        default=None,
        description="With `engine: dask`, the scheduler of an existing cluster "
        "(`tcp://head:8786`), whose workers declare `--resources GPU=1` per GPU. Unset: a local "
        "cluster the run starts and stops, of `dask_workers` processes.",
    )
    dask_connect_timeout_s: Annotated[float, Field(gt=0)] = Field(
        default=10.0,
        description="With `dask_address`, how long the run waits for that scheduler to answer; "
        "then it stops with one error naming the address.",
    )
    dask_workers: Annotated[int, Field(ge=1)] = Field(
        default=2,
        description="Worker processes of the local Dask cluster (`dask_address` unset), each "
        "with one thread and one `GPU` resource.",
    )

    @field_validator("output_dir")
    @classmethod
    def _output_dir_with_options(cls, value: UPath, info: ValidationInfo) -> UPath:
        """A remote output_dir gets ``storage_options``, and directory listings are not cached
        unless asked for: other workers add and remove done markers, and a cached listing
        would hide that from this one."""
        if not is_remote(value):
            return value
        if value.protocol not in OBJECT_STORES:
            raise ValueError(
                f"{value.protocol}:// is not supported: output_dir must be a local path or an "
                f"object store ({', '.join(OBJECT_STORES)}), where no file is seen half-written"
            )
        given: dict[str, Any] = info.data.get("storage_options", {})
        options = {"use_listings_cache": False, **value.storage_options, **given}
        remote: UPath = UPath(str(value), **options)
        return remote

    @model_validator(mode="after")
    def _dask_address_needs_dask(self) -> RunConfig:
        if self.dask_address is not None and self.engine != "dask":
            raise ValueError("run.dask_address is set but run.engine is not dask")
        return self

    @field_serializer("output_dir")
    def _output_dir_as_url(self, value: UPath) -> str:
        """The URL alone: storage options, credentials maybe, stay out of dumps and hashes."""
        return str(value)


InputFormat = Literal["tsv", "parquet", "csv", "webdataset", "files"]


class InputConfig(Section):
    """The source rows, and how they are cut into shards."""

    # A string, not a Path, because a Path would fold "s3://" into "s3:/".
    path: Annotated[str, Field(min_length=1)] = Field(
        description="A local file (`tsv`, `parquet`, `csv`) or folder (`files`); for "
        "`webdataset`, tar paths or fsspec URLs with an optional brace pattern "
        "(`s3://bucket/cc12m/{00000..02175}.tar`)."
    )
    format: InputFormat = Field(
        default="tsv",
        description="`tsv` (CC12M's `url<TAB>caption`), `parquet` and `csv` (`url_column`, "
        "`caption_column`), `files` (a folder of images, captions from `.txt` sidecars), or "
        "`webdataset` (existing shards, local or fsspec URLs: images are taken from the tars, "
        "never downloaded again).",
    )
    url_column: str = Field(
        default="url", description="The column of image URLs or paths in `parquet` and `csv` input."
    )
    caption_column: str = Field(
        default="caption", description="The column of captions in `parquet` and `csv` input."
    )
    has_header: bool = Field(
        default=False,
        description="`tsv` only: the first line is a header. Without one a line is "
        "`url<TAB>caption`; a `csv` always has one.",
    )
    samples_per_shard: Annotated[int, Field(gt=0)] = Field(
        default=10_000, description="Rows per shard: row i is in shard i // `samples_per_shard`."
    )
    max_caption_chars: Annotated[int, Field(ge=1)] = Field(
        default=10_000, description="Longer captions are rejected (`caption_too_long`)."
    )
    files_root: Path | None = Field(
        default=None,
        description="The folder local input is confined to: a path or `file://` URL in the url "
        "column must resolve (symlinks followed) under it, else the row is rejected as "
        "`outside_root`; a relative path is taken relative to it. Required when "
        "`ingest.allow_file_urls` is true; format `files` defaults it to `input.path`.",
    )
    storage_options: dict[str, Any] = Field(
        default_factory=dict,
        description="fsspec options for reading `webdataset` tars from URLs, e.g. "
        "`{endpoint_url: http://minio:9000}` or `{anon: true}`. Not part of any stage hash.",
    )

    @field_validator("path", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @model_validator(mode="after")
    def _urls_only_for_webdataset(self) -> InputConfig:
        if self.format != "webdataset" and "://" in self.path:
            raise ValueError(f"input.path must be a local path for format {self.format!r}")
        return self

    @property
    def local_path(self) -> Path:
        """``path`` as a local file or folder: every format but webdataset reads one."""
        return Path(self.path)

    @property
    def local_root(self) -> Path | None:
        """The folder local paths must resolve under: ``files_root``, else for format "files"
        the folder itself; None when neither applies."""
        if self.files_root is not None:
            return self.files_root
        return self.local_path if self.format == "files" else None


ResizeMode = Literal["longest", "center_crop", "none"]


class IngestConfig(Section):
    """How ingest fetches, checks and re-encodes each image. The fetching keys are the open-web
    fetcher's (``negdata.ingest.http``) per-URL limits, retries and politeness."""

    image_size: Annotated[int, Field(ge=32)] = Field(
        default=512, description="Pixels of the side `resize_mode` resizes to."
    )
    jpeg_quality: Annotated[int, Field(ge=10, le=100)] = Field(
        default=90, description="Quality of the JPEG every image is re-encoded as."
    )
    resize_mode: ResizeMode = Field(
        default="longest",
        description="`longest` shrinks the longest side to `image_size` (never upscales), "
        "`center_crop` scales the shortest side to `image_size` and crops the centre square "
        "(img2dataset's mode), `none` keeps the original size.",
    )
    min_image_size: Annotated[int, Field(ge=1)] = Field(
        default=128,
        description="A side under this many pixels is rejected (`image_too_small`), judged from "
        "the header before decoding: detect runs at 640 px, where the objects of a smaller image "
        "are too few pixels to find, and a missed object becomes a false negation. CC3M's own "
        "filter was stricter: over 400 px on both sides.",
    )
    max_aspect_ratio: Annotated[float, Field(ge=1)] = Field(
        default=3.0,
        description="A longer side over this many times the shorter one is rejected "
        "(`aspect_ratio_too_large`), judged from the header before decoding: open_clip's centre "
        "crop keeps a third of a 3:1 image, so its caption no longer describes what the model "
        "sees. CC3M's own filter was stricter: a ratio of at most 2.",
    )
    max_pixels: Annotated[int, Field(ge=1)] = Field(
        default=89_478_485,
        description="The decompression-bomb limit: larger width x height is rejected "
        "(`decompression_bomb`) from the header, before decoding. The default is Pillow's own "
        "limit; Pillow itself also refuses more than twice `Image.MAX_IMAGE_PIXELS`.",
    )
    workers: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="Decode processes; unset: one per core."
    )
    dedup: bool = Field(
        default=False,
        description="Keep one copy of an image per shard (by the original's sha256); the others "
        "fail as `duplicate_image`.",
    )
    min_caption_chars: Annotated[int, Field(ge=1)] = Field(
        default=1, description="Shorter captions are rejected (`empty_caption`)."
    )
    allow_file_urls: bool = Field(
        default=False,
        description="Read `file://` URLs and plain paths from the url column, confined to "
        "`input.files_root`. Off by default (they are refused as `unsupported_url`): a URL list "
        "from the open web must not publish this machine's files. `configs/sample.yaml` turns it "
        "on for `data/sample`.",
    )
    connect_timeout_s: Annotated[float, Field(gt=0)] = Field(
        default=5.0, description="Seconds to connect to a host (`timeout`)."
    )
    read_timeout_s: Annotated[float, Field(gt=0)] = Field(
        default=10.0, description="Seconds a socket read may wait for bytes (`timeout`)."
    )
    total_timeout_s: Annotated[float, Field(gt=0)] = Field(
        default=30.0,
        description="Seconds for one URL, redirects and retries included (`timeout`); bounds the "
        "read of a local file too.",
    )
    max_body_bytes: Annotated[int, Field(ge=1)] = Field(
        default=20 * 1024 * 1024,
        description="Largest body fetched, or local file read (`body_too_large`).",
    )
    max_redirects: Annotated[int, Field(ge=0)] = Field(
        default=5, description="Redirects followed per URL (`too_many_redirects`)."
    )
    retries: Annotated[int, Field(ge=0)] = Field(
        default=2,
        description="Retries per URL, of transient failures only: 429, 5xx, network errors.",
    )
    retry_backoff_s: Annotated[float, Field(ge=0)] = Field(
        default=0.5,
        description="Seconds before the first retry, doubled for each next one, jittered.",
    )
    per_host_concurrency: Annotated[int, Field(ge=1)] = Field(
        default=16, description="Requests in flight to one host."
    )
    concurrency: Annotated[int, Field(ge=1)] = Field(
        default=256, description="Requests in flight over all hosts."
    )
    user_agent: Annotated[str, Field(min_length=1)] = Field(
        default="negdata/0.1 (+https://github.com/negdata/negdata)",
        description="The `User-Agent` header of every request.",
    )
    honor_opt_out: bool = Field(
        default=True,
        description="Skip images whose `X-Robots-Tag` says `noai`, `noimageai`, `noindex` or "
        "`noimageindex` (`opted_out`), as img2dataset does.",
    )
    allowed_hosts: list[str] = Field(
        default_factory=list,
        description="IPs or CIDRs the private-address guard lets through (a local mirror, a test "
        "server). Every other URL or redirect hop whose host resolves to a loopback, private, "
        "link-local, multicast or reserved address is refused (`refused_address`).",
    )

    @field_validator("allowed_hosts")
    @classmethod
    def _allowed_hosts_are_networks(cls, value: list[str]) -> list[str]:
        for entry in value:
            ipaddress.ip_network(entry, strict=False)
        return value


_KIND = "Selects this kind of source."


class YoloSource(Section):
    """Any Ultralytics detector by path, batched, on CUDA when present; the model's class names
    are mapped into the vocabulary by ``class_map``."""

    kind: Literal["yolo"] = Field(description=_KIND)
    weights: Path = Field(
        description="A `.pt`, `.onnx` or TensorRT `.engine` file (`negdata detect export`), or a "
        "model `.yaml` (random weights: plumbing only)."
    )
    conf: Annotated[float, Field(ge=0, le=1)] = Field(
        default=0.05,
        description="Ultralytics' confidence threshold: lower-scoring boxes are dropped.",
    )
    imgsz: Annotated[int, Field(ge=32)] = Field(
        default=640, description="Inference size in pixels."
    )
    batch: Annotated[int, Field(ge=1)] = Field(
        default=16, description="Images per batch; batches reach the model full."
    )
    device: str = Field(
        default="auto",
        description="`auto` (the devices `detect.devices` gives), or a device such as `cpu` or "
        "`cuda:1`, which is kept.",
    )
    half: bool = Field(
        default=True, description="fp16 on a CUDA device (the CPU always runs fp32)."
    )
    class_map: dict[str, str] = Field(
        default_factory=dict, description="Model class name -> vocabulary label."
    )


class LabelsSource(Section):
    """The bundled sample's ground truth: a JSON file of ``{url: [label, ...]}``."""

    kind: Literal["labels"] = Field(description=_KIND)
    path: Path = Field(description="The JSON file.")


OracleMatch = Literal["url", "file_name"]
_MATCH = (
    "How the file's images are found among the samples: `url` compares the sample's URL with the "
    "image's URL; `file_name` compares the last path segment of the sample's URL with that of "
    "the image's."
)


class CocoSource(Section):
    """A COCO instances file (``instances_*.json``) as ground truth over its categories. An image
    of the file scores 1.0 for each category it has an annotation of and 0.0 for the file's other
    categories; its boxes (``[x, y, w, h]`` on the original) are scaled, and for ``center_crop``
    shifted, onto the ingested image, score 1.0; a crowd region (``iscrowd: 1``) makes its label
    present without a box (a box is one object). The file is read whole: COCO's train file takes
    a few GB while loading."""

    kind: Literal["coco"] = Field(description=_KIND)
    path: Path = Field(
        description="The instances file as COCO publishes it (`instances_val2017.json`)."
    )
    match: OracleMatch = Field(
        default="url",
        description=_MATCH + " The image's URL is its `coco_url`, then its `flickr_url`.",
    )
    class_map: dict[str, str] = Field(
        default_factory=dict,
        description="Category name -> vocabulary label, for names that are not labels.",
    )


class TableSource(Section):
    """Labels per image from a ``.csv`` (a header row; other columns ignored) or ``.jsonl`` (one
    object a line) file: rows of ``url``, ``label`` and an optional ``score`` in [0, 1] (missing
    or empty: 1.0); a row with an empty label lists an image with nothing in it. Streamed: memory
    grows with the images and labels listed, not with the text."""

    kind: Literal["table"] = Field(description=_KIND)
    path: Path = Field(description="The `.csv` or `.jsonl` file.")
    match: OracleMatch = Field(
        default="url", description=_MATCH + " The image's URL is its row's `url`."
    )
    unlisted: Literal["absent", "unknown"] = Field(
        default="absent",
        description="A label a listed image has no row for: `absent` (0.0: the file lists every "
        "object of its images) or `unknown` (not covered, as for Open Images' human-verified "
        "labels, where 0 is verified absent).",
    )
    class_map: dict[str, str] = Field(
        default_factory=dict,
        description="File label -> vocabulary label (two onto one: the max).",
    )


class OpenVocabSource(Section):
    """A YOLOE or YOLO-World model prompted with the class names of a vocabulary. Its class
    embeddings are computed once per vocabulary and cached under
    ``$NEGDATA_CACHE/text-embeddings``, keyed by the encoder's sha256 and the prompts."""

    kind: Literal["open_vocab"] = Field(description=_KIND)
    weights: Path = Field(
        description="A local YOLOE (text-prompt, not `-pf`) or YOLO-World `.pt` "
        "(`yoloe-11l-seg.pt`, `yolov8x-worldv2.pt`), or a model `.yaml` (random weights: "
        "plumbing only)."
    )
    text_encoder: Path = Field(
        description="The local text encoder the model was trained with: a TorchScript `.ts` "
        "(YOLOE-11/v8: `mobileclip_blt.ts`; YOLOE-26: `mobileclip2_b.ts`) or an OpenAI CLIP `.pt` "
        "(YOLO-World: `ViT-B-32.pt`). A missing one is an error unless its embeddings of these "
        "classes are cached."
    )
    classes: Literal["vocabulary", VocabularyName] = Field(
        default="vocabulary",
        description="The class names it is prompted with: `vocabulary`, `detect.vocabulary`'s, "
        "or another vocabulary's (`coco`, `lvis`, `objects365`, `openimages`), whose labels then "
        "join the lexicon beside `detect.vocabulary`'s.",
    )
    conf: Annotated[float, Field(ge=0, le=1)] = Field(
        default=0.05,
        description="Ultralytics' confidence threshold: lower-scoring boxes are dropped.",
    )
    imgsz: Annotated[int, Field(ge=32)] = Field(
        default=640, description="Inference size in pixels."
    )
    batch: Annotated[int, Field(ge=1)] = Field(
        default=16, description="Images per batch; batches reach the model full."
    )
    device: str = Field(
        default="auto",
        description="`auto` (the devices `detect.devices` gives), or a device such as `cpu` or "
        "`cuda:1`, which is kept.",
    )


class ChexpertSource(Section):
    """CheXpert-style finding labels (``negdata.detect.chexpert``): a CSV with an image column and
    the 14 CheXpert columns, each 1 (present), 0 (absent), -1 (uncertain) or blank (unmentioned).
    A bad value, a missing column or a repeated path stops detect with the key and the line."""

    kind: Literal["chexpert"] = Field(description=_KIND)
    path: Path = Field(description="The CSV file.")
    path_column: Annotated[str, Field(min_length=1)] = Field(
        default="Path",
        description="The image column: a URL as ingested, or a path that ingested URLs end with "
        "(`CheXpert-v1.0-small/train/patient00001/study1/view1_frontal.jpg`).",
    )


# The kinds, as tags in error locations.
SOURCE_KINDS = ("yolo", "labels", "coco", "table", "open_vocab", "chexpert")
SourceConfig = Annotated[
    YoloSource | LabelsSource | CocoSource | TableSource | OpenVocabSource | ChexpertSource,
    Field(discriminator="kind"),
]


class OpenClipEncoder(Section):
    """An open_clip image tower: NegPairs' look-alike measure (``pairs.min_similarity``)."""

    kind: Literal["open_clip"] = Field(description="Selects this kind of encoder.")
    model: Annotated[str, Field(min_length=1)] = Field(
        description="An open_clip model name (`ViT-B-32`) or the path of a model config JSON."
    )
    checkpoint: Path | None = Field(
        default=None,
        description="A local checkpoint file (open_clip's, or a trainer's; BiomedCLIP's for "
        "radiographs). Unset: random weights, plumbing only. Nothing is downloaded.",
    )
    batch: Annotated[int, Field(ge=1)] = Field(default=64, description="Images per forward pass.")
    device: str = Field(
        default="auto",
        description="`auto` (the devices `detect.devices` gives), or a device such as `cpu` or "
        "`cuda:1`, which is kept.",
    )


class PythonEncoder(Section):
    """Any image encoder with negdata's small interface (``negdata.detect.encoders.ImageEncoder``:
    ``name``, ``imgsz``, ``dim``, ``batch`` and ``embed_pixels``), built by a function of yours."""

    kind: Literal["python"] = Field(description="Selects this kind of encoder.")
    factory: Annotated[str, Field(pattern=r"^[\w.]+:\w+$")] = Field(
        description="`package.module:function`, called with the device (`cpu`, `cuda:0`), "
        "returning the encoder. Its module must be importable where detection runs."
    )
    device: str = Field(
        default="auto",
        description="`auto` (the devices `detect.devices` gives), or a device such as `cpu` or "
        "`cuda:1`, which is kept.",
    )


EncoderConfig = Annotated[OpenClipEncoder | PythonEncoder, Field(discriminator="kind")]


class DetectConfig(Section):
    """The evidence: which sources score which objects of the vocabulary, and the thresholds that
    turn scores into verdicts. An object's score is the max over sources, so any source that sees
    it blocks its negation; a label no source covers is unverifiable."""

    vocabulary: VocabularyName = Field(
        default="coco",
        description="The label set the evidence is checked in: `coco` (80), `lvis` (1,203), "
        "`objects365`, `openimages` (V7, 601) or `chexpert` (CheXpert's findings, needed by a "
        "`chexpert` source). A detector's own class names are added.",
    )
    sources: Annotated[list[SourceConfig], Field(min_length=1)] = Field(
        description="The evidence sources, each a mapping whose `kind` selects one of the "
        "tables below."
    )
    t_present: Annotated[float, Field(gt=0, le=1)] = Field(
        default=0.5, description="An object scored at least this is present."
    )
    t_absent: Annotated[float, Field(ge=0, le=1)] = Field(
        default=0.1,
        description="An object every covering source scores below this is absent, and may be "
        "negated; between `t_absent` and `t_present` it is uncertain. At most `t_present`.",
    )
    t_affirm: Annotated[float, Field(gt=0, le=1)] = Field(
        default=0.8,
        description="An object the caption does not name is affirmed (in a caption, as an MCQ "
        "positive) only when a source scores it this high and no source covering it scores it "
        "below `t_present`: one detector near `t_present` is wrong too often on web images to "
        "assert what nobody named. At least `t_present`.",
    )
    encoder: EncoderConfig | None = Field(
        default=None,
        description="An image encoder run beside the sources on the same decoded pixels (each "
        "image letterboxed whole to the encoder's input size, as the detectors see it: an object "
        "at the edge, which may be a pair's difference, is not cropped away); one unit-length "
        "embedding per image goes to `evidence/{shard}_embeddings.parquet`. `negdata pairs` "
        "then pairs only images the encoder finds alike (`pairs.min_similarity`). Unset: no "
        "embeddings, and pairs are mined from the verified objects alone.",
    )
    decode_workers: Annotated[int, Field(ge=1)] | None = Field(
        default=None,
        description="Processes per device that decode and letterbox JPEGs (as Ultralytics' "
        "predictor does) for the pixel detectors while they run; unset: "
        "min(4, CPUs). Batches of the source's `batch` reach the model full; decoding, inference "
        "and collecting overlap through bounded queues. A JPEG that does not decode is a counted "
        "reject (`undecodable_image`), not an error; label sources never decode. The pixels "
        "reach the model's process through files in `/dev/shm`, which must hold twice "
        "`decode_workers` batches and one more (80 MB a batch of 64 at 640 px; on Docker, "
        "`--shm-size`), else through the pool's pipe, slower, with a warning. Not part of any "
        "stage hash.",
    )
    devices: Literal["auto"] | Annotated[list[str], Field(min_length=1)] = Field(
        default="auto",
        description="Where detection runs, one detector process per device (each with its own "
        "`decode_workers`), batches dealt round-robin and evidence kept in input order: `auto`, "
        "every CUDA device the process sees (else the CPU), or a list such as "
        "`[cuda:0, cuda:1]`. A cluster worker that owns one GPU (`CUDA_VISIBLE_DEVICES`) gets "
        "one, in its own process. A source's own device, unless `auto`, is kept. Not part of any "
        "stage hash.",
    )

    @model_validator(mode="after")
    def _thresholds_ordered(self) -> DetectConfig:
        if self.t_absent > self.t_present:
            raise ValueError("t_absent must not exceed t_present")
        if self.t_affirm < self.t_present:
            raise ValueError("t_affirm must not be below t_present")
        return self


class ServeConfig(Section):
    """How to start the local vLLM server; ignored when ``llm.local`` is false."""

    python: Path = Field(
        default_factory=lambda: cache_dir() / "vllm-venv" / "bin" / "python",
        description="The Python that has vLLM installed; default "
        "`$NEGDATA_CACHE/vllm-venv/bin/python`, which `make llm-env` builds.",
    )
    model_dir: Path = Field(
        default_factory=lambda: cache_dir() / "models" / "SmolLM2-135M-Instruct",
        description="The model folder it serves; default "
        "`$NEGDATA_CACHE/models/SmolLM2-135M-Instruct`, converted once from the bundled GGUF. "
        "negdata builds a model folder only under `$NEGDATA_CACHE/models`: one elsewhere must "
        "already hold the model.",
    )
    host: str = Field(
        default="127.0.0.1",
        description="The address it listens on; `0.0.0.0` serves other machines too (a replica "
        "per GPU node).",
    )
    port: Annotated[int, Field(gt=0, lt=65536)] = Field(
        default=8765,
        description="Its port. A busy port is taken over only from the server of a negdata run "
        "that died.",
    )
    startup_timeout_s: Annotated[float, Field(gt=0)] = Field(
        default=300.0, description="Seconds a starting server is waited for until it answers."
    )
    max_model_len: Annotated[int, Field(ge=256)] = Field(
        default=2048, description="vLLM's `--max-model-len`."
    )
    enforce_eager: bool = Field(
        default=True,
        description="vLLM's `--enforce-eager`: the CPU build needs it; on a GPU set it false to "
        "get CUDA graphs.",
    )
    tensor_parallel_size: Annotated[int, Field(ge=1)] = Field(
        default=1, description="vLLM's `--tensor-parallel-size`."
    )
    worker_process: bool = Field(
        default=False,
        description="With one device, run the model in a vLLM worker process of its own (the "
        "CPU build's choice, for its OpenMP thread binding) rather than inside vLLM's engine "
        "process (vLLM's choice on one GPU). Off, the CPU server here starts in 0.72 of the time "
        "and serves at least as fast (`make bench-llm-start`). Several devices always get "
        "worker processes.",
    )
    gpu_memory_utilization: Annotated[float, Field(gt=0, le=1)] | None = Field(
        default=None, description="vLLM's `--gpu-memory-utilization`; unset: vLLM's default, 0.9."
    )
    max_num_seqs: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="vLLM's `--max-num-seqs`; unset: vLLM's default."
    )
    cpu_threads: Annotated[int, Field(ge=1)] | None = Field(
        default=None,
        description="The CPU build's compute threads. Unset: vLLM's, one per core of its NUMA "
        "node, each bound to its core: fastest on cores of its own. N: N threads bound to no "
        "core (`OMP_NUM_THREADS=N`, `VLLM_CPU_OMP_THREADS_BIND=nobind`), for cores that other "
        "work shares, where bound threads wait on each other: on two shared cores one thread "
        "served a batch in 0.45 of the time, on two free cores in 1.36 of it (docs/benchmarks.md).",
    )
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        default="auto",
        description="vLLM's `--dtype`. `auto`: vLLM's choice (bfloat16 on a CPU), except that "
        "a CPU build of vLLM on a CPU without bfloat16 instructions (AVX-512 BF16, AMX, Arm BF16) "
        "gets `float32`: emulated, bfloat16 serves the same batch in three times as long "
        "(`make bench-llm-start`).",
    )
    extra_args: list[str] = Field(
        default_factory=list, description="More vLLM command-line arguments, passed as given."
    )


ServerKind = Literal["vllm", "llamacpp", "openai"]
LLM_API_KEY_ENV = "NEGDATA_LLM_API_KEY"


class LLMConfig(Section):
    """The OpenAI-compatible LLM server(s) the plan, compose and paraphrase stages send to, and
    how requests are sent: one client for the whole run, with one budget of requests in flight."""

    local: bool = Field(
        default=True,
        description="Start the local vLLM server (`llm.serve`), or use a remote "
        "OpenAI-compatible server as is (`endpoint` or `endpoints` required).",
    )
    server_kind: ServerKind = Field(
        default="vllm",
        description="How structured output is asked for: `vllm` (OpenAI `json_schema`), "
        "`llamacpp` (`json_object` + `schema`) or `openai` (plain `json_object`); checked "
        "against the server's `/v1/models` at start-up.",
    )
    endpoint: str | None = Field(
        default=None,
        description="The server's base URL (`http://HOST:8000/v1`). Set `endpoint` or "
        "`endpoints`, not both. Never part of a stage hash: moving servers redoes nothing.",
    )
    endpoints: list[str] = Field(
        default_factory=list,
        description="Several servers of the same model (vLLM replicas, e.g. one per GPU node) "
        "instead of `endpoint`: each request goes to the one with the fewest in flight, and a "
        "dead one's requests move to the others. Never part of a stage hash.",
    )
    model: str = Field(
        default="SmolLM2-135M-Instruct",
        description="The served model's name, sent with every request.",
    )
    api_key: str = Field(
        default_factory=lambda: os.environ.get(LLM_API_KEY_ENV) or "EMPTY",
        repr=False,
        description="Sent as a bearer token; a local server is started with it (vLLM's "
        "`--api-key`, passed as `VLLM_API_KEY`). Leave it out of config files: its default is "
        "the `NEGDATA_LLM_API_KEY` environment variable, else none (`EMPTY`).",
    )
    max_concurrency: Annotated[int, Field(ge=1)] = Field(
        default=256,
        description="Requests in flight over all shards. Keep it at or a little above the "
        "servers' total `--max-num-seqs`.",
    )
    timeout_s: Annotated[float, Field(gt=0)] = Field(
        default=120.0, description="Seconds one request may take."
    )
    max_retries: Annotated[int, Field(ge=0)] = Field(
        default=4,
        description="Retries of a transient error (429, 5xx, timeouts, dropped connections), "
        "with exponential backoff and jitter.",
    )
    backoff_s: Annotated[float, Field(ge=0)] = Field(
        default=0.5, description="Seconds before the first retry, doubled for each next one."
    )
    server_wait_s: Annotated[float, Field(ge=0)] = Field(
        default=300.0,
        description="How long a server that refuses connections is waited for, on one shared "
        "probe, before the shard fails (with `endpoints`: when all of them refuse).",
    )
    temperature: Annotated[float, Field(ge=0, le=2)] = Field(
        default=0.7, description="Sampling temperature; changing it reruns the LLM stages."
    )
    max_tokens: Annotated[int, Field(ge=16)] = Field(
        default=384,
        description="Most completion tokens per request; changing it reruns the LLM stages.",
    )
    seed: int | None = Field(
        default=None,
        description="Sent with every request when set. Unset by default: vLLM samples seeded "
        "requests one by one (slower), and its CPU build can crash on them; the response cache is "
        "what makes a rerun reproduce a run exactly.",
    )
    cache: bool = Field(
        default=True,
        description="Keep every reply, keyed by a hash of the whole request, in the output "
        "folder beside the shard it is for (`llm_cache/<shard>/`, local, shared or on an object "
        "store): a shard resumed on another machine pays for no answer twice. A run-wide "
        "`llm_cache.sqlite` of an earlier version is still read.",
    )
    serve: ServeConfig = Field(
        default=ServeConfig(), description="How the local server is started (`llm.serve`, below)."
    )

    @model_validator(mode="after")
    def _remote_needs_endpoint(self) -> LLMConfig:
        if self.endpoint and self.endpoints:
            raise ValueError(
                "llm.endpoint and llm.endpoints are both set: list every server in llm.endpoints"
            )
        if not self.local and not self.endpoint and not self.endpoints:
            raise ValueError("llm.endpoint or llm.endpoints is required when llm.local is false")
        repeated = sorted({url for url in self.endpoints if self.endpoints.count(url) > 1})
        if repeated:
            raise ValueError(f"llm.endpoints lists {', '.join(repeated)} more than once")
        return self

    @property
    def base_urls(self) -> list[str]:
        """Every server the client sends to: ``endpoints``, else ``[base_url]``."""
        return list(self.endpoints) or [self.base_url]

    @property
    def base_url(self) -> str:
        """The one server: ``endpoint`` if set, else the local server's address (``llm.serve``
        host and port); with ``endpoints``, the first of them (``base_urls`` has them all)."""
        if self.endpoint:
            return self.endpoint
        if self.endpoints:
            return self.endpoints[0]
        return f"http://{self.serve.host}:{self.serve.port}/v1"


class PlanConfig(Section):
    """The plan stage: the LLM names, once per image, the objects its caption mentions and
    plausible absent ones, each then verified against the evidence."""

    min_candidates: Annotated[int, Field(ge=1)] = Field(
        default=5, description="Verified-absent candidates `vocabulary_fill` tops an image up to."
    )
    max_candidates: Annotated[int, Field(ge=1)] = Field(
        default=8, description="Most of the LLM's absent candidates kept per image."
    )
    vocabulary_fill: bool = Field(
        default=False,
        description="Top up absent candidates to `min_candidates` with verified-absent "
        "vocabulary labels that could be there, the most plausible first: those present, in the "
        'shard\'s own evidence, together with what the image shows ("no fork" beside a pizza), '
        "then (vocabulary `coco`) labels of the same or a related COCO supercategory "
        "(`compose/coco_supercategories.yaml`, with its source); never a label that keeps no "
        "company with what the image shows (a clinical vocabulary's findings all could).",
    )


class ComposeConfig(Section):
    """The compose stage: M captions per image from one LLM call, each negating one
    verified-absent object, and one NegMCQ question built from verified objects."""

    prompts_dir: Path = Field(
        default=Path("prompts"),
        description="The prompt files (`*.yaml`: id, version, system text, few-shot turns, user "
        "template); every record names its prompt as `id@version#hash`.",
    )
    captions_per_image: Annotated[int, Field(ge=1, le=8)] = Field(
        default=3, description="M, the captions asked for per image."
    )
    template_fallback: bool = Field(
        default=False,
        description="Let a template caption (`compose/templates.py`, `generator: template`) "
        "stand in for an LLM caption that fails the gates.",
    )
    max_caption_chars: Annotated[int, Field(ge=20)] = Field(
        default=500,
        description="Longest caption accepted, in characters (`length`). CLIP's 77 tokens "
        "(`too_long_for_clip`) bind first at this default.",
    )
    max_unaccounted_nouns: Annotated[int, Field(ge=0)] = Field(
        default=0,
        description="Nouns a caption may add that nothing accounts for: no object of the "
        "vocabulary, no word of the original caption, no scene word (`unaccounted_noun`; "
        "the accepted ones are listed per caption as `unverifiable_nouns`).",
    )
    readers_agree: bool = Field(
        default=False,
        description="Publish a caption only when the parse-based reader reads the negated "
        "object and every object the rules read as the rules do (`readers_disagree`): fewer "
        "false statements, fewer captions (docs/verification.md#two-readers).",
    )
    paraphrase_mcq: bool = Field(
        default=True,
        description="One LLM call per MCQ rewrites its four options; an option keeps its "
        "paraphrase only if every object keeps its polarity and it adds no claim the MCQ gates "
        "refuse.",
    )
    few_shot_order: Literal["fixed", "rotate"] = Field(
        default="fixed",
        description="`fixed` keeps one shared prompt prefix; `rotate` varies the few-shot order "
        "per image (more varied captions, fewer prefix-cache hits). `make bench-llm` measures "
        "both.",
    )


class ValidationConfig(Section):
    """Checks of accepted captions beyond the gates."""

    judge: bool = Field(
        default=False,
        description="Ask the LLM which objects each accepted caption says are present and "
        "absent, and reject a caption it contradicts (`judge_disagrees`).",
    )


class ReportConfig(Section):
    """The run's ``report.html``."""

    gallery_images: Annotated[int, Field(ge=0)] = Field(
        default=24,
        description="Images in the gallery (the first ones published): each adds a thumbnail of "
        "about 10 kB, so the page stays small on a 10,000-image shard.",
    )


class SplitFractions(Section):
    """The share of images in each split; they must sum to 1. An image's split follows from its
    sha256 alone (``negdata.publish.splits``): the same image is in the same split in every shard
    and run. Changing them redoes only the publish stage; raising ``validation`` or ``test``
    later only moves train images into them. ``configs/sample.yaml`` uses 0.6 / 0.15 / 0.25,
    which puts 7, 3 and 4 of the sample's 14 images in train, validation and test."""

    train: Annotated[float, Field(ge=0, le=1)] = Field(
        default=0.98, description="The share of images in `train`."
    )
    validation: Annotated[float, Field(ge=0, le=1)] = Field(
        default=0.01, description="The share of images in `validation`."
    )
    test: Annotated[float, Field(ge=0, le=1)] = Field(
        default=0.01, description="The share of images in `test`."
    )

    @model_validator(mode="after")
    def _sum_to_one(self) -> SplitFractions:
        total = math.fsum((self.train, self.validation, self.test))
        if abs(total - 1) > 1e-9:
            raise ValueError(f"train, validation and test must sum to 1, not {total:g}")
        return self


class PublishConfig(Section):
    """The publish stage, which gates every caption and question and writes the datasets."""

    splits: SplitFractions = Field(
        default=SplitFractions(), description="The split fractions (`publish.splits`, below)."
    )


class PairsConfig(Section):
    """NegPairs (``negdata pairs``): pairs of images that look alike and differ by one verified
    object X, present in one (``detect.t_affirm``) and absent in the other (below
    ``detect.t_absent``, every label X covers included). With ``detect.encoder``, look-alike
    means near neighbours in its embedding (``min_similarity``) whose other verified objects
    overlap (``min_overlap``); without one, the same verified objects but X."""

    min_overlap: Annotated[float, Field(gt=0, le=1)] = Field(
        default=1.0,
        description="Least Jaccard overlap of the other objects: those verified present in A "
        "but X against those verified present in B. 1 (the default): B shows exactly A's other "
        "objects, found by a hash join; below 1, every image sharing one of A's other objects "
        "is compared. With `detect.encoder`, B is among A's nearest images, and two images with "
        "no other object agree (overlap 1): the embedding, not a shared object, makes them "
        "alike.",
    )
    min_similarity: Annotated[float, Field(ge=-1, le=1)] = Field(
        default=0.85,
        description="With `detect.encoder`: least cosine similarity of A's and B's embeddings. "
        "Pairs are kept most similar first.",
    )
    neighbours: Annotated[int, Field(ge=1)] = Field(
        default=16,
        description="With `detect.encoder`: the nearest images looked at for each image.",
    )
    exact_up_to: Annotated[int, Field(ge=1)] = Field(
        default=200_000,
        description="With `detect.encoder`: up to this many images the neighbours are exact (a "
        "flat FAISS index); beyond, an IVF-PQ index finds them and the stored vectors rescore "
        "them.",
    )
    nprobe: Annotated[int, Field(ge=1)] = Field(
        default=32,
        description="With an IVF-PQ index: the lists searched per image (more: slower, fewer "
        "neighbours missed).",
    )
    max_per_image: Annotated[int, Field(ge=1)] = Field(
        default=2,
        description="Most pairs an image is in; the most similar pairs (with `detect.encoder`), "
        "then those of highest overlap, are kept first (then by key and object), so the same "
        "evidence always gives the same pairs.",
    )
    captions: bool = Field(
        default=False,
        description="Also write each pair's two captions: one LLM call per pair (prompts/"
        "pair.yaml, or pair_clinical.yaml for a clinical vocabulary, through the run's llm "
        "settings and response cache), each caption gated like NegCap's; the pairs whose "
        "captions both pass go to pairs/negpairs.parquet and, by split, to pairs/negpairs/ "
        "(Parquet) and pairs/negpairs_wds/ (WebDataset). Off: mining only, no LLM.",
    )


class Config(Section):
    """One YAML file, parsed into pydantic models (``negdata/config.py``); an unknown key or a
    bad value stops the run with one error naming the key. ``configs/sample.yaml`` is the
    default; ``configs/cc12m.yaml`` is the cluster run."""

    run: RunConfig = Field(default=RunConfig(), description="Output folder and scheduling.")
    input: InputConfig = Field(description="The source rows and their shards.")
    ingest: IngestConfig = Field(default=IngestConfig(), description="Fetching and image checks.")
    detect: DetectConfig = Field(description="Evidence sources and verdict thresholds.")
    llm: LLMConfig = Field(default=LLMConfig(), description="The LLM servers and requests.")
    plan: PlanConfig = Field(default=PlanConfig(), description="Absent candidates per image.")
    compose: ComposeConfig = Field(default=ComposeConfig(), description="Captions and questions.")
    validation: ValidationConfig = Field(
        default=ValidationConfig(), description="Checks beyond the gates."
    )
    report: ReportConfig = Field(default=ReportConfig(), description="The run's report.html.")
    publish: PublishConfig = Field(
        default=PublishConfig(), description="The splits of the datasets."
    )
    pairs: PairsConfig = Field(
        default=PairsConfig(), description="NegPairs: look-alike images, one object apart."
    )

    @model_validator(mode="after")
    def _file_input_is_confined(self) -> Config:
        if self.ingest.allow_file_urls and self.input.local_root is None:
            raise ValueError(
                "input.files_root is required when ingest.allow_file_urls is true: set it to "
                "the folder that local images must stay in"
            )
        return self

    @property
    def shards_at_once(self) -> int:
        """``run.shards_in_flight``, or enough shards (2 to 8) that their LLM phases together
        hold about four times ``llm.max_concurrency`` requests: a shard's plan calls must all
        finish before its compose calls start, and other shards fill that gap."""
        if self.run.shards_in_flight is not None:
            return self.run.shards_in_flight
        wanted = -(-4 * self.llm.max_concurrency // self.input.samples_per_shard)
        return min(MAX_AUTO_SHARDS, max(2, wanted))

    def section_hash(self, *sections: str) -> str:
        """Stable short hash of the named top-level sections (all when none are named).
        ``storage_options`` say how to reach the data, not what it is, and ``decode_workers``
        and ``devices`` how fast detection runs, not what it finds, so they are left out; so is
        ``detect.encoder`` while unset, so that evidence made before it existed stays done."""
        names = sections or tuple(type(self).model_fields)
        how = {"storage_options", "decode_workers", "devices"}
        payload = {name: getattr(self, name).model_dump(mode="json", exclude=how) for name in names}
        if "detect" in payload and payload["detect"]["encoder"] is None:
            del payload["detect"]["encoder"]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        return digest[:16]


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """``line 7, column 3: not valid YAML: mapping values are not allowed here``: where the
    parser stopped (1-based, as editors count), on one line."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"{where}not valid YAML: {problem}"


def _key_path(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc if not str(part).startswith(SOURCE_KINDS))


def load_config(path: str | Path) -> Config:
    """Read a YAML config; relative paths in it stay relative to the working directory."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a text file") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: {_yaml_problem(exc)}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    try:
        return Config.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = _key_path(first["loc"])  # empty for a check across sections, whose message names keys
        where = f"{path}: {key}" if key else str(path)
        raise ConfigError(f"{where}: {first['msg']}") from None
