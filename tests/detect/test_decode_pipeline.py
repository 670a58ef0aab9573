"""The detect stage's decode pipeline on real shards with the real person weights: the same
evidence as Ultralytics' own per-image path, corrupt JPEGs as counted rejects, and a run killed
mid-shard that reruns to the same evidence."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import psutil
import pytest
import yaml
from PIL import Image

from negdata.config import Config, DetectConfig, LLMConfig, YoloSource, load_config
from negdata.detect.base import ImageItem, combine
from negdata.detect.decode import UNDECODABLE, RawSample, decode_batch, letterbox
from negdata.detect.detectors import build_detectors
from negdata.detect.stage import run_detect
from negdata.ingest.sources import shard_count
from negdata.ingest.stage import run_ingest
from negdata.publish.stage import upstream_rejects
from negdata.records import Evidence, Reject, read_parquet, write_parquet
from negdata.shards import read_stats, write_stats
from negdata.stages import STAGES, stage_hash
from negdata.wds import Sample, read_tar, write_tar
from tests.conftest import SampleConfig

INGEST = STAGES[0]
CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory, sample_config: SampleConfig) -> Config:
    """The bundled sample (14 photos) ingested; detect with labels + person."""
    root = tmp_path_factory.mktemp("pipeline")
    path, _ = sample_config(root, LLMConfig(endpoint="http://127.0.0.1:9"))  # never called
    cfg = load_config(path)
    for shard in range(shard_count(cfg.input)):
        run_ingest(cfg, shard, stage_hash(cfg, INGEST))
    return cfg


@pytest.fixture(scope="module")
def evidence(sample: Config, tmp_path_factory: pytest.TempPathFactory) -> list[Evidence]:
    """The stage's evidence for the 14 photos, in one shard."""
    root = tmp_path_factory.mktemp("whole")
    cfg = _with_shard(sample, root, _samples(sample), sample.detect)
    stats = run_detect(cfg.detect, root, 0, "h")
    assert stats["count"] == 14 and stats["rejected"] == {}
    return read_parquet(root / "evidence/00000.parquet", Evidence)


def _samples(cfg: Config) -> list[Sample]:
    """The sample's 14 photos, from all its ingested shards."""
    tars = sorted((cfg.run.output_dir / "shards").glob("*.tar"))
    return [sample for tar in tars for sample in read_tar(tar)]


def _with_shard(cfg: Config, root: Path, samples: list[Sample], detect: DetectConfig) -> Config:
    """``cfg`` writing to ``root``, whose shard 0 holds ``samples``, detecting with ``detect``."""
    run = cfg.run.model_copy(update={"output_dir": root})
    out = cfg.model_copy(update={"run": run, "detect": detect})
    write_tar(root / "shards" / "00000.tar", samples)
    write_stats(root / "shards", 0, stage_hash(out, INGEST), {"successes": len(samples)})
    return out


def _assert_same_evidence(
    got: list[Evidence], want: list[Evidence], score: float = 1e-4, pixels: float = 0.05
) -> None:
    assert [e.key for e in got] == [e.key for e in want]
    for a, b in zip(got, want, strict=True):
        assert a.sources == b.sources
        assert [s.label for s in a.scores] == [s.label for s in b.scores]
        for x, y in zip(a.scores, b.scores, strict=True):
            assert x.score == pytest.approx(y.score, abs=score)
            assert x.lowest == pytest.approx(y.lowest, abs=score)
        assert [(box.label, box.source) for box in a.boxes] == [
            (box.label, box.source) for box in b.boxes
        ]
        for p, q in zip(a.boxes, b.boxes, strict=True):
            assert p.score == pytest.approx(q.score, abs=score)
            assert (p.x0, p.y0, p.x1, p.y1) == pytest.approx((q.x0, q.y0, q.x1, q.y1), abs=pixels)


def test_pipeline_evidence_equals_ultralytics_per_image_predict(
    sample: Config, evidence: list[Evidence]
) -> None:
    detectors = build_detectors(sample.detect)
    names = [det.name for det in detectors]
    want = []
    for s in _samples(sample):  # the serial path: PIL decode, one predict call per image
        with Image.open(io.BytesIO(s["jpg"])) as image:
            item = ImageItem(s["__key__"], s["json"]["url"], "", image.convert("RGB"))
        want.append(combine(item.key, names, [det.detect([item])[0] for det in detectors]))
    assert sum(len(e.boxes) for e in want) > 10  # the sample's photos show people
    _assert_same_evidence(evidence, want)


@pytest.mark.parametrize("size", [160, 320, 640])
@pytest.mark.parametrize(
    ("height", "width"),
    [(480, 640), (640, 480), (640, 640), (333, 517), (517, 333), (1, 3000), (3000, 1), (7, 5),
     (1080, 1920), (161, 159)],
)  # fmt: skip
def test_letterbox_is_ultralytics_letterbox(height: int, width: int, size: int) -> None:
    """The decode workers' letterbox, written without Ultralytics (which imports torch), gives
    the pixels of Ultralytics' own ``LetterBox`` as its predictor uses it: wide, tall, square,
    odd, one pixel thin, smaller and larger than the model's input."""
    from ultralytics.data.augment import LetterBox

    rgb = np.random.default_rng(height * 7919 + width).integers(0, 256, (height, width, 3))
    rgb = rgb.astype(np.uint8)

    want = LetterBox((size, size), auto=False)(image=rgb.copy())

    got = letterbox(rgb, size)
    assert got.shape == want.shape == (size, size, 3) and got.dtype == np.uint8
    assert np.array_equal(got, want)


def test_a_decode_worker_imports_neither_ultralytics_nor_torch(
    sample: Config, tmp_path: Path
) -> None:
    samples = _samples(sample)[:2]
    batch = [RawSample(s["__key__"], s["json"]["url"], s["txt"], s["jpg"]) for s in samples]
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        decoded = pool.submit(decode_batch, batch, (320,)).result()
        heavy = pool.submit(_imported, ("ultralytics", "torch")).result()
    assert len(decoded.samples) == 2 and decoded.pixels[320].shape == (2, 320, 320, 3)
    assert heavy == []


def _imported(names: tuple[str, ...]) -> list[str]:
    return [name for name in names if name in sys.modules]


def test_a_corrupt_jpeg_is_a_counted_reject_and_the_rest_is_detected(
    sample: Config, evidence: list[Evidence], tmp_path: Path
) -> None:
    samples = _samples(sample)
    broken = samples[3]["__key__"]
    samples[3] = {**samples[3], "jpg": samples[3]["jpg"][:200] + b"\x00garbage" * 50}
    samples[7] = {**samples[7], "jpg": b"not a jpeg at all"}
    cfg = _with_shard(sample, tmp_path, samples, sample.detect)

    stats = run_detect(cfg.detect, tmp_path, 0, "h")

    assert stats["count"] == 12 and stats["rejected"] == {UNDECODABLE: 2}
    rejects = read_parquet(tmp_path / "evidence/00000_rejects.parquet", Reject)
    assert [(r.stage, r.key, r.reason) for r in rejects] == [
        ("detect", broken, UNDECODABLE),
        ("detect", samples[7]["__key__"], UNDECODABLE),
    ]
    assert rejects[1].detail == "UnidentifiedImageError: cannot identify image file"
    got = read_parquet(tmp_path / "evidence/00000.parquet", Evidence)
    _assert_same_evidence(got, [e for i, e in enumerate(evidence) if i not in (3, 7)])
    # They reach the published rejects with the later stages' (none here).
    for stage_dir in ("objects", "captions"):
        write_parquet(tmp_path / stage_dir / "00000_rejects.parquet", Reject, [])
    assert upstream_rejects(tmp_path, "00000", []) == rejects
    (tmp_path / "evidence/00000_rejects.parquet").unlink()  # as a run detected before had it
    assert upstream_rejects(tmp_path, "00000", []) == []


def test_weights_exported_to_onnx_give_the_same_evidence(
    sample: Config, evidence: list[Evidence], tmp_path: Path
) -> None:
    """``negdata detect export --format onnx`` on the real person weights; the stage runs the
    ONNX file through onnxruntime on the CPU."""
    source = sample.detect.sources[1]
    assert isinstance(source, YoloSource)
    weights = tmp_path / "person.pt"
    shutil.copyfile(source.weights, weights)
    onnx = tmp_path / "models/person.onnx"
    export = [*CLI, "detect", "export", "--weights", str(weights), "--format", "onnx"]
    done = subprocess.run(
        [*export, "--imgsz", str(source.imgsz), "--batch", str(source.batch), "--out", str(onnx)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(onnx) and onnx.stat().st_size > 1_000_000
    sources = [sample.detect.sources[0], source.model_copy(update={"weights": onnx})]
    detect = sample.detect.model_copy(update={"sources": sources})
    cfg = _with_shard(sample, tmp_path / "run", _samples(sample), detect)

    run_detect(cfg.detect, tmp_path / "run", 0, "h")

    got = read_parquet(tmp_path / "run/evidence/00000.parquet", Evidence)
    assert all(e.sources == ["labels:labels.json", "yolo:person.onnx"] for e in got)
    renamed = [
        e.model_copy(
            update={
                "sources": ["labels:labels.json", "yolo:person.onnx"],
                "boxes": [b.model_copy(update={"source": "yolo:person.onnx"}) for b in e.boxes],
            }
        )
        for e in evidence
    ]
    _assert_same_evidence(got, renamed, score=1e-3, pixels=0.5)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--format", "engine"], "--format engine: a TensorRT engine is built on the GPU"),
        (["--format", "onnx", "--weights", "missing.pt"], "--weights: weights file not found"),
        (["--format", "onnx", "--weights", "model.onnx"], "--weights: model.onnx is not a .pt"),
    ],
)
def test_export_mistakes_end_in_one_line(sample: Config, args: list[str], expected: str) -> None:
    """An engine needs a GPU: with none visible (CUDA_VISIBLE_DEVICES empty, as here), one line
    says so."""
    source = sample.detect.sources[1]
    assert isinstance(source, YoloSource)
    done = subprocess.run(
        [*CLI, "detect", "export", "--weights", str(source.weights), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CUDA_VISIBLE_DEVICES": ""},
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr and not done.stdout
    assert done.stderr.strip().startswith("negdata: ") and expected in done.stderr.strip()
    assert len(done.stderr.strip().splitlines()) == 1


def test_sources_that_need_no_pixels_decode_nothing(sample: Config, tmp_path: Path) -> None:
    """A labels-only config never decodes: the corrupt JPEG is no reject, its evidence the
    oracle's."""
    samples = _samples(sample)
    samples[0] = {**samples[0], "jpg": b"not a jpeg at all"}
    labels_only = sample.detect.model_copy(update={"sources": sample.detect.sources[:1]})
    cfg = _with_shard(sample, tmp_path, samples, labels_only)

    stats = run_detect(cfg.detect, tmp_path, 0, "h")

    assert stats["count"] == 14 and stats["rejected"] == {}
    evidence = read_parquet(tmp_path / "evidence/00000.parquet", Evidence)
    assert evidence[0].sources == ["labels:labels.json"] and evidence[0].scores


def test_two_devices_give_the_evidence_of_one(sample: Config, tmp_path: Path) -> None:
    """Two CPU processes stand in for two GPUs (there is none here): detect.devices starts one
    detector process per device, batch i goes to device i mod 2, and the evidence, rejects
    included, and the image encoder's embeddings are those of one device, byte for byte."""
    samples = _samples(sample)
    samples[5] = {**samples[5], "jpg": b"not a jpeg at all"}
    raw = sample.detect.model_dump(mode="json")
    raw["sources"][1].update(batch=3)  # 5 batches: each device gets some, the last is short
    raw["encoder"] = {
        "kind": "open_clip",
        "model": str(Path("tests/data/tiny-clip.json").resolve()),
    }
    one = DetectConfig.model_validate({**raw, "devices": ["cpu"], "decode_workers": 1})
    two = DetectConfig.model_validate({**raw, "devices": ["cpu", "cpu"], "decode_workers": 1})
    _with_shard(sample, tmp_path / "one", samples, one)
    _with_shard(sample, tmp_path / "two", samples, two)

    def detector_processes() -> int:  # children with decoders of their own (not a server's
        # watchdog, which a session's fixtures may have started)
        return sum(
            1
            for child in psutil.Process().children()
            if child.children() and "spawn_main" in " ".join(child.cmdline())
        )

    run_detect(one, tmp_path / "one", 0, "h")
    assert detector_processes() == 0  # one device: detection runs in this process
    stats = run_detect(two, tmp_path / "two", 0, "h")

    assert detector_processes() == 2
    assert stats["count"] == 13 and stats["rejected"] == {UNDECODABLE: 1}
    assert stats["encoder"] == {"name": "open_clip:tiny-clip:random", "dim": 32}
    for name in ("00000.parquet", "00000_rejects.parquet", "00000_embeddings.parquet"):
        assert (tmp_path / "two/evidence" / name).read_bytes() == (
            tmp_path / "one/evidence" / name
        ).read_bytes()


def test_a_decode_worker_that_dies_fails_the_shard_in_one_line_and_the_next_gets_a_fresh_pool(
    sample: Config, tmp_path: Path
) -> None:
    raw = sample.detect.model_dump(mode="json")
    raw["sources"][1].update(imgsz=160, batch=2)
    detect = DetectConfig.model_validate({**raw, "decode_workers": 3})  # a pool of its own
    cfg = _with_shard(sample, tmp_path, _samples(sample), detect)
    before = psutil.Process().children()
    run_detect(cfg.detect, tmp_path, 0, "h")
    decoders = [p for p in psutil.Process().children() if p not in before]
    assert len(decoders) == 3

    decoders[0].kill()  # as the kernel's OOM killer would
    decoders[0].wait(timeout=30)
    with pytest.raises(RuntimeError, match=r"^a decode worker died .*detect\.decode_workers$"):
        run_detect(cfg.detect, tmp_path, 0, "h2")

    assert (read_stats(tmp_path / "evidence", 0) or {})["config_hash"] == "h"  # still the first
    stats = run_detect(cfg.detect, tmp_path, 0, "h3")
    assert (
        stats["count"] == 14 and (read_stats(tmp_path / "evidence", 0) or {})["config_hash"] == "h3"
    )


def _detect_cli(config: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*CLI, "stage", "detect", "--shards", "0", "--config", config],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path.cwd())},
    )


def test_killed_mid_shard_then_rerun_gives_the_uninterrupted_evidence(
    sample: Config, tmp_path: Path
) -> None:
    samples = [
        {**s, "__key__": f"{copy}{s['__key__'][1:]}"} for copy in range(6) for s in _samples(sample)
    ]
    raw = sample.detect.model_dump(mode="json")
    raw["sources"][1].update(imgsz=320, batch=4)
    detect = DetectConfig.model_validate({**raw, "decode_workers": 2})
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    configs = {}
    for root in (whole, killed):
        cfg = _with_shard(sample, root, samples, detect)
        configs[root] = root / "config.yaml"
        configs[root].write_text(yaml.safe_dump(cfg.model_dump(mode="json")))
    run = _detect_cli(configs[whole])
    assert run.wait(timeout=600) == 0, run.stderr.read() if run.stderr else ""

    run = _detect_cli(configs[killed])
    proc = psutil.Process(run.pid)
    deadline = time.monotonic() + 300
    while len(proc.children()) < 2 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)  # the decode workers are up: detection has started
    time.sleep(2.0)
    decoders = proc.children()
    assert run.poll() is None, "finished before it could be killed"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    assert read_stats(killed / "evidence", 0) is None
    assert not (killed / "evidence/00000.parquet").exists()
    _, alive = psutil.wait_procs(decoders, timeout=15)
    assert not alive  # the decoders exit with the process that started them

    rerun = _detect_cli(configs[killed])
    assert rerun.wait(timeout=600) == 0, rerun.stderr.read() if rerun.stderr else ""
    got = (killed / "evidence/00000.parquet").read_bytes()
    assert got == (whole / "evidence/00000.parquet").read_bytes()
    assert len(read_parquet(killed / "evidence/00000.parquet", Evidence)) == len(samples)
    assert read_stats(killed / "evidence", 0) is not None
