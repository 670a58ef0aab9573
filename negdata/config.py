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
    # fsspec options for output_dir's filesystem, e.g. {endpoint_url: http://minio:9000} for an
    # S3-compatible store. Credentials are best left to the environment (AWS_ACCESS_KEY_ID, ...).
    # Declared before output_dir, whose validator reads it.
    storage_options: dict[str, Any] = Field(default_factory=dict)
    # A local folder, or an object-store URL such as s3://bucket/negdata/run1 (negdata[s3]).
    output_dir: UPath = UPath("runs/sample")
    seed: int = 0
    # Shards the flow works on at once; unset: enough to keep llm.max_concurrency busy.
    shards_in_flight: Annotated[int, Field(ge=1)] | None = None
    # A run leases each shard it works on (negdata.leases), renewing the lease 4 times per
    # lease_ttl_s; a worker that dies loses its shards this long after its last renewal.
    lease_ttl_s: Annotated[float, Field(gt=0)] = 600.0
    # On a cluster (flows/cluster.py): shards per child flow run, and how many child runs a
    # chunk gets before its unfinished shards count as failed (a worker that dies costs one).
    shards_per_chunk: Annotated[int, Field(ge=1)] = 4
    chunk_attempts: Annotated[int, Field(ge=1)] = 3
    # Where a run's shard tasks run (flows/engines.py): "threads", in the flow's own process,
    # shards_in_flight at a time; or "dask", on a Dask cluster through prefect-dask (the dask
    # extra), one shard per worker's GPU resource at a time.
    engine: Literal["threads", "dask"] = "threads"
    # The dask engine's cluster: the scheduler of an existing one (tcp://head:8786), whose
    # workers declare --resources GPU=1 per GPU; unset, a LocalCluster the run starts and stops,
    # of dask_workers processes with one thread and one GPU resource each.
    dask_address: Annotated[str, Field(min_length=1)] | None = None
    dask_workers: Annotated[int, Field(ge=1)] = 2

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
    # A local file (tsv, parquet, csv) or folder (files); for webdataset, tar paths or fsspec
    # URLs with an optional brace pattern (s3://bucket/cc12m/{00000..02175}.tar). A string, not a
    # Path, because a Path would fold "s3://" into "s3:/".
    path: Annotated[str, Field(min_length=1)]
    format: InputFormat = "tsv"
    url_column: str = "url"
    caption_column: str = "caption"
    has_header: bool = False  # tsv only; csv always has one; without it tsv is url<TAB>caption
    samples_per_shard: Annotated[int, Field(gt=0)] = 10_000
    max_caption_chars: Annotated[int, Field(ge=1)] = 10_000  # longer: rejected, caption_too_long
    # The folder local input is confined to: a path or file:// URL in the url column must resolve
    # (symlinks followed) under it, else the row is rejected as outside_root; a relative path is
    # taken relative to it. Required when ingest.allow_file_urls is true; format "files" defaults
    # it to input.path.
    files_root: Path | None = None
    # fsspec options for reading webdataset tars from URLs (endpoint_url, anon, ...).
    storage_options: dict[str, Any] = Field(default_factory=dict)

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


# How ingest resizes: "longest" shrinks the longest side to image_size (never upscales),
# "center_crop" scales the shortest side to image_size and crops the centre square (img2dataset's
# mode), "none" keeps the original size.
ResizeMode = Literal["longest", "center_crop", "none"]


class IngestConfig(Section):
    image_size: Annotated[int, Field(ge=32)] = 512
    jpeg_quality: Annotated[int, Field(ge=10, le=100)] = 90
    resize_mode: ResizeMode = "longest"
    # Both checked from the header, before decoding. A side under min_image_size pixels is
    # rejected (image_too_small): detect runs at 640 px, where the objects of a smaller image are
    # too few pixels to find, and a missed object becomes a false negation. A longer side over
    # max_aspect_ratio times the shorter one is rejected (aspect_ratio_too_large): open_clip's
    # centre crop keeps a third of a 3:1 image, so its caption no longer describes what the model
    # sees. CC3M's own filter was stricter (over 400 px on both sides, ratio at most 2).
    min_image_size: Annotated[int, Field(ge=1)] = 128
    max_aspect_ratio: Annotated[float, Field(ge=1)] = 3.0
    # Larger width x height is rejected from the header, before decoding. The default is Pillow's
    # own limit; Pillow itself also refuses more than twice Image.MAX_IMAGE_PIXELS.
    max_pixels: Annotated[int, Field(ge=1)] = 89_478_485
    workers: Annotated[int, Field(ge=1)] | None = None  # decode processes; unset: one per core
    dedup: bool = False  # keep one copy of an image (same original sha256) per shard
    min_caption_chars: Annotated[int, Field(ge=1)] = 1
    # Read file:// URLs and plain paths from the url column, confined to input.files_root. Off
    # by default: a URL list from the open web must not publish this machine's files.
    allow_file_urls: bool = False
    # The open-web fetcher (negdata.ingest.http): per-URL limits, retries and politeness.
    connect_timeout_s: Annotated[float, Field(gt=0)] = 5.0
    read_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    total_timeout_s: Annotated[float, Field(gt=0)] = 30.0  # one URL, redirects and retries included
    max_body_bytes: Annotated[int, Field(ge=1)] = 20 * 1024 * 1024
    max_redirects: Annotated[int, Field(ge=0)] = 5
    retries: Annotated[int, Field(ge=0)] = 2  # transient failures only: 429, 5xx, network
    retry_backoff_s: Annotated[float, Field(ge=0)] = 0.5
    per_host_concurrency: Annotated[int, Field(ge=1)] = 16
    concurrency: Annotated[int, Field(ge=1)] = 256  # requests in flight over all hosts
    user_agent: Annotated[str, Field(min_length=1)] = (
        "negdata/0.1 (+https://github.com/negdata/negdata)"
    )
    honor_opt_out: bool = True  # skip images whose X-Robots-Tag says noai, noindex, ...
    # IPs or CIDRs the private-address guard lets through (a local mirror, a test server).
    allowed_hosts: list[str] = Field(default_factory=list)

    @field_validator("allowed_hosts")
    @classmethod
    def _allowed_hosts_are_networks(cls, value: list[str]) -> list[str]:
        for entry in value:
            ipaddress.ip_network(entry, strict=False)
        return value


class YoloSource(Section):
    kind: Literal["yolo"]
    weights: Path
    conf: Annotated[float, Field(ge=0, le=1)] = 0.05
    imgsz: Annotated[int, Field(ge=32)] = 640
    batch: Annotated[int, Field(ge=1)] = 16
    device: str = "auto"
    # fp16 on a CUDA device (the CPU always runs fp32).
    half: bool = True
    class_map: dict[str, str] = Field(default_factory=dict)


class LabelsSource(Section):
    kind: Literal["labels"]
    path: Path


# How a label oracle's images are found among the samples: "url" compares the sample's URL
# with the image's URL (a table's url column; COCO's coco_url, then flickr_url); "file_name"
# compares the last path segment of the sample's URL with that of the url column / file_name.
OracleMatch = Literal["url", "file_name"]


class CocoSource(Section):
    """A COCO instances file (``instances_*.json``) as ground truth over its categories."""

    kind: Literal["coco"]
    path: Path
    match: OracleMatch = "url"
    class_map: dict[str, str] = Field(default_factory=dict)  # category name -> vocabulary label


class TableSource(Section):
    """Labels per image from a CSV or JSONL file: rows of url, label and an optional score."""

    kind: Literal["table"]
    path: Path
    match: OracleMatch = "url"
    # A label a listed image has no row for: "absent" (0.0, the file lists every object of its
    # images) or "unknown" (not covered, as for Open Images' human-verified labels).
    unlisted: Literal["absent", "unknown"] = "absent"
    class_map: dict[str, str] = Field(default_factory=dict)  # file label -> vocabulary label


class OpenVocabSource(Section):
    """A YOLOE or YOLO-World model prompted with the class names of a vocabulary."""

    kind: Literal["open_vocab"]
    weights: Path  # a local .pt (yoloe-11l-seg.pt, yolov8x-worldv2.pt) or a model .yaml
    # The text encoder the model was trained with, a local file: a TorchScript one (.ts, YOLOE's
    # mobileclip_blt.ts or mobileclip2_b.ts) or an OpenAI CLIP checkpoint (.pt, YOLO-World's
    # ViT-B-32.pt). Its class embeddings are computed once per vocabulary and cached.
    text_encoder: Path
    # The class names it is prompted with: detect.vocabulary's, or another vocabulary's (its
    # labels then join the lexicon beside detect.vocabulary's).
    classes: Literal["vocabulary", VocabularyName] = "vocabulary"
    conf: Annotated[float, Field(ge=0, le=1)] = 0.05
    imgsz: Annotated[int, Field(ge=32)] = 640
    batch: Annotated[int, Field(ge=1)] = 16
    device: str = "auto"


class ChexpertSource(Section):
    """CheXpert-style finding labels (negdata.detect.chexpert): a CSV with an image column and
    the finding columns, each 1 (present), 0 (absent), -1 (uncertain) or blank (unmentioned)."""

    kind: Literal["chexpert"]
    path: Path
    # The image column: a URL as ingested, or a path that ingested URLs end with
    # ("CheXpert-v1.0-small/train/patient00001/study1/view1_frontal.jpg").
    path_column: Annotated[str, Field(min_length=1)] = "Path"


# The kinds, as tags in error locations.
SOURCE_KINDS = ("yolo", "labels", "coco", "table", "open_vocab", "chexpert")
SourceConfig = Annotated[
    YoloSource | LabelsSource | CocoSource | TableSource | OpenVocabSource | ChexpertSource,
    Field(discriminator="kind"),
]


class DetectConfig(Section):
    vocabulary: VocabularyName = "coco"
    sources: Annotated[list[SourceConfig], Field(min_length=1)]
    t_present: Annotated[float, Field(gt=0, le=1)] = 0.5
    t_absent: Annotated[float, Field(ge=0, le=1)] = 0.1
    # An object the caption does not name is affirmed (in a caption, as an MCQ positive) only
    # when a source scores it this high and no source covering it scores it below t_present:
    # one detector near t_present is wrong too often on web images to assert what nobody named.
    t_affirm: Annotated[float, Field(gt=0, le=1)] = 0.8
    # Processes that decode and letterbox JPEGs for the pixel detectors while they run;
    # unset: min(4, CPUs).
    decode_workers: Annotated[int, Field(ge=1)] | None = None
    # Where detection runs, one detector process per device (each with its own decode_workers):
    # "auto", every CUDA device the process sees (else the CPU), or a list such as
    # [cuda:0, cuda:1]. A source's own device, unless "auto", is kept.
    devices: Literal["auto"] | Annotated[list[str], Field(min_length=1)] = "auto"

    @model_validator(mode="after")
    def _thresholds_ordered(self) -> DetectConfig:
        if self.t_absent > self.t_present:
            raise ValueError("t_absent must not exceed t_present")
        if self.t_affirm < self.t_present:
            raise ValueError("t_affirm must not be below t_present")
        return self


class ServeConfig(Section):
    """How to start the local vLLM server; ignored when ``llm.local`` is false."""

    python: Path = Field(default_factory=lambda: cache_dir() / "vllm-venv" / "bin" / "python")
    model_dir: Path = Field(
        default_factory=lambda: cache_dir() / "models" / "SmolLM2-135M-Instruct"
    )
    host: str = "127.0.0.1"
    port: Annotated[int, Field(gt=0, lt=65536)] = 8765
    startup_timeout_s: Annotated[float, Field(gt=0)] = 300.0
    max_model_len: Annotated[int, Field(ge=256)] = 2048
    # The CPU build needs eager mode; on a GPU set it false to get CUDA graphs.
    enforce_eager: bool = True
    tensor_parallel_size: Annotated[int, Field(ge=1)] = 1
    gpu_memory_utilization: Annotated[float, Field(gt=0, le=1)] | None = None  # vLLM: 0.9
    max_num_seqs: Annotated[int, Field(ge=1)] | None = None  # vLLM's default when unset
    extra_args: list[str] = Field(default_factory=list)


ServerKind = Literal["vllm", "llamacpp", "openai"]
LLM_API_KEY_ENV = "NEGDATA_LLM_API_KEY"


class LLMConfig(Section):
    local: bool = True
    server_kind: ServerKind = "vllm"  # how structured output is asked for; checked at start-up
    # Where the servers are (never part of a stage hash): one, or several replicas of the same
    # model that the client spreads requests over. Set one of the two keys, not both.
    endpoint: str | None = None
    endpoints: list[str] = Field(default_factory=list)
    model: str = "SmolLM2-135M-Instruct"
    # Sent as a bearer token; a local server is started with it (vLLM's --api-key). Leave it
    # out of config files: its default is the NEGDATA_LLM_API_KEY environment variable.
    api_key: str = Field(
        default_factory=lambda: os.environ.get(LLM_API_KEY_ENV) or "EMPTY", repr=False
    )
    max_concurrency: Annotated[int, Field(ge=1)] = 256  # requests in flight, over all shards
    timeout_s: Annotated[float, Field(gt=0)] = 120.0
    max_retries: Annotated[int, Field(ge=0)] = 4
    backoff_s: Annotated[float, Field(ge=0)] = 0.5
    server_wait_s: Annotated[float, Field(ge=0)] = 300.0  # a down server is waited for this long
    temperature: Annotated[float, Field(ge=0, le=2)] = 0.7
    max_tokens: Annotated[int, Field(ge=16)] = 384
    # Sent with every request when set. Unset by default: vLLM samples seeded requests one by
    # one (slower), and its CPU build can crash on them; the response cache is what makes a
    # rerun reproduce a run exactly.
    seed: int | None = None
    cache: bool = True  # keep every reply (see Config.llm_cache for where)
    serve: ServeConfig = ServeConfig()

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
    min_candidates: Annotated[int, Field(ge=1)] = 5
    max_candidates: Annotated[int, Field(ge=1)] = 8
    vocabulary_fill: bool = False


class ComposeConfig(Section):
    prompts_dir: Path = Path("prompts")
    captions_per_image: Annotated[int, Field(ge=1, le=8)] = 3
    template_fallback: bool = False
    max_caption_chars: Annotated[int, Field(ge=20)] = 300
    max_new_unverifiable: Annotated[int, Field(ge=0)] = 1
    paraphrase_mcq: bool = True
    # "rotate" varies the few-shot order per image (more varied captions, fewer prefix-cache
    # hits); `make bench-llm` measures both. "fixed" keeps one shared prefix.
    few_shot_order: Literal["fixed", "rotate"] = "fixed"


class ValidationConfig(Section):
    judge: bool = False  # ask the LLM which objects each accepted caption affirms and negates


class ReportConfig(Section):
    # Images in report.html's gallery (the first ones published): each adds a thumbnail of
    # about 10 kB, so the page stays small on a 10,000-image shard.
    gallery_images: Annotated[int, Field(ge=0)] = 24


class SplitFractions(Section):
    """The share of images in each split. An image's split follows from its sha256 alone
    (``negdata.publish.splits``): the same image is in the same split in every shard and run."""

    train: Annotated[float, Field(ge=0, le=1)] = 0.98
    validation: Annotated[float, Field(ge=0, le=1)] = 0.01
    test: Annotated[float, Field(ge=0, le=1)] = 0.01

    @model_validator(mode="after")
    def _sum_to_one(self) -> SplitFractions:
        total = math.fsum((self.train, self.validation, self.test))
        if abs(total - 1) > 1e-9:
            raise ValueError(f"train, validation and test must sum to 1, not {total:g}")
        return self


class PublishConfig(Section):
    splits: SplitFractions = SplitFractions()


class Config(Section):
    run: RunConfig = RunConfig()
    input: InputConfig
    ingest: IngestConfig = IngestConfig()
    detect: DetectConfig
    llm: LLMConfig = LLMConfig()
    plan: PlanConfig = PlanConfig()
    compose: ComposeConfig = ComposeConfig()
    validation: ValidationConfig = ValidationConfig()
    report: ReportConfig = ReportConfig()
    publish: PublishConfig = PublishConfig()

    @model_validator(mode="after")
    def _file_input_is_confined(self) -> Config:
        if self.ingest.allow_file_urls and self.input.local_root is None:
            raise ValueError(
                "input.files_root is required when ingest.allow_file_urls is true: set it to "
                "the folder that local images must stay in"
            )
        return self

    @property
    def llm_cache(self) -> Path | None:
        """Where LLM replies are cached for this run, or None when caching is off: in the
        output folder when it is local, else (SQLite needs a local file) under ``cache_dir()``
        in a file named for the output URL."""
        if not self.llm.cache:
            return None
        out = self.run.output_dir
        if not is_remote(out):
            return Path(out.path) / "llm_cache.sqlite"
        digest = hashlib.sha256(str(out).encode()).hexdigest()[:16]
        return cache_dir() / "llm-cache" / f"{digest}.sqlite"

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
        and ``devices`` how fast detection runs, not what it finds, so they are left out."""
        names = sections or tuple(type(self).model_fields)
        how = {"storage_options", "decode_workers", "devices"}
        payload = {name: getattr(self, name).model_dump(mode="json", exclude=how) for name in names}
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
