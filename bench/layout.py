"""`make bench-layout`: NegCap stored one sample per image, against one sample per caption.

Both layouts hold the same accepted captions and are written with negdata's own tar writer:

  per image (published): ``jpg``, ``txt`` (one caption), ``json`` (the image with every caption);
  per caption (negdata before issue 12): each caption its own sample, ``jpg`` (the image again),
      ``txt`` (the caption), ``json`` (the caption's record), the captions of an image adjacent.

(1) Bytes per caption, on a finished run (``--config``'s output folder; ``make generate`` makes
    the sample's): the published tars over every split, against the same captions rewritten per
    caption, shard by shard.
(2) Images twice in one training batch, in open_clip's own loader
    (``open_clip_train.data.get_wds_dataset``, as ``--dataset-type webdataset`` builds it: sample
    count from sizes.json, shard shuffle, a 5,000-sample shuffle buffer, batches of
    ``--batch-size``, one epoch). The run has too few images for batches of 256, so ``--images``
    images are made from its images, each re-encoded small with a mark of its own (no two alike)
    and carrying its source's captions, in ``--shards`` tars per layout. Per batch: the copies of
    an image beyond its first.

Usage: ``python -m bench.layout [--config configs/sample.yaml] [--images 4096] [--shards 16]
[--batch-size 256]``; results also in ``runs/bench-layout/result.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from PIL import Image, ImageDraw

from bench.open_clip_compat import webdataset_1_markers_dropped
from negdata.config import load_config
from negdata.records import SPLITS
from negdata.shards import is_remote
from negdata.wds import Sample, read_tar, write_tar

SIDE = 96  # longest side of the made images: decoding stays cheap, the count is what matters


def published(out: Path) -> tuple[dict[str, list[Sample]], dict[str, dict[str, Any]]]:
    """The published samples by shard name, and every caption's Parquet row by caption key."""
    by_shard: dict[str, list[Sample]] = {}
    for split in SPLITS:
        for tar in sorted((out / "negcap" / split).glob("*.tar"), key=lambda p: p.name):
            by_shard.setdefault(tar.stem, []).extend(read_tar(tar))
    rows = {}
    for path in sorted((out / "negcap_parquet").glob("*/*.parquet")):
        for row in pq.read_table(path).to_pylist():
            row.pop("split")
            rows[row["key"]] = row
    return by_shard, rows


def per_caption(
    samples: list[Sample], rows: dict[str, dict[str, Any]], origin: dict[str, str] | None = None
) -> list[Sample]:
    """The layout before: a sample per caption, each with its image and its own record
    (``origin``: the published caption a made caption copies, by key)."""
    out = []
    for sample in sorted(samples, key=lambda s: s["__key__"]):
        for caption in sample["json"]["captions"]:
            key = caption["key"]
            row = {**rows[(origin or {}).get(key, key)], "key": key, "image_key": sample["__key__"]}
            out.append({"__key__": key, "jpg": sample["jpg"], "txt": row["caption"], "json": row})
    return out


def bytes_per_caption(out: Path, work: Path) -> dict[str, Any]:
    by_shard, rows = published(out)
    after = sum(
        t.stat().st_size for split in SPLITS for t in (out / "negcap" / split).glob("*.tar")
    )
    before = 0
    for name, samples in by_shard.items():
        tar = work / "per-caption" / f"{name}.tar"
        write_tar(tar, per_caption(samples, rows))
        before += tar.stat().st_size
    images = sum(len(s) for s in by_shard.values())
    ingested = sum(t.stat().st_size for t in (out / "shards").glob("*.tar"))
    return {
        "images": images,
        "captions": len(rows),
        "ingested_tar_bytes": ingested,
        "per_caption_bytes": before,
        "per_image_bytes": after,
        "per_caption_bytes_per_caption": round(before / len(rows)),
        "per_image_bytes_per_caption": round(after / len(rows)),
        "ratio": round(before / after, 2),
    }


def made_images(sources: list[Sample], count: int) -> tuple[list[Sample], dict[str, str]]:
    """``count`` samples in the published layout, cycling through ``sources``: each image
    scaled to ``SIDE`` and marked with its own number (so no two are the same picture), with
    its source's captions; and the source caption of each made caption, by key."""
    made, origin = [], {}
    for i in range(count):
        source = sources[i % len(sources)]
        image = Image.open(io.BytesIO(source["jpg"])).convert("RGB")
        image.thumbnail((SIDE, SIDE))
        ImageDraw.Draw(image).rectangle((0, 0, 15, 3), fill=(i % 256, i // 256 % 256, 255))
        buffer = io.BytesIO()
        image.save(buffer, format="JPEG", quality=90)
        key = f"{i // 10_000:05d}{i % 10_000:04d}"
        record = json.loads(json.dumps(source["json"]))
        record["key"] = key
        for n, caption in enumerate(record["captions"]):
            origin[f"{key}{n}"] = caption["key"]
            caption["key"] = f"{key}{n}"
        made.append(
            {"__key__": key, "jpg": buffer.getvalue(), "txt": source["txt"], "json": record}
        )
    return made, origin


def write_layout(folder: Path, samples: list[Sample], shards: int) -> list[Path]:
    """``samples`` in ``shards`` tars of consecutive samples, with open_clip's sizes.json."""
    per = -(-len(samples) // shards)
    paths, sizes = [], {}
    for s in range(shards):
        part = samples[s * per : (s + 1) * per]
        path = folder / f"{s:05d}.tar"
        write_tar(path, part)
        paths.append(path)
        sizes[path.name] = len(part)
    (folder / "sizes.json").write_text(json.dumps(sizes))
    return paths


def fingerprint(image: Image.Image) -> int:
    """What open_clip's preprocess would turn into a tensor: here, a number naming the picture."""
    return int.from_bytes(hashlib.sha256(image.tobytes()).digest()[:7], "big")


def untokenized(text: str) -> list[str]:
    """Tokens are not what is counted: the text goes through as it is."""
    return [text]


def batches_in_open_clip(paths: list[Path], batch_size: int) -> list[list[int]]:
    """One epoch of open_clip's training loader over ``paths``: each batch's image fingerprints.

    On webdataset 1.x its end-of-shard markers are dropped (``bench/open_clip_compat.py``);
    everything else is open_clip's pipeline as it is."""
    from open_clip_train import data as open_clip_data

    args = argparse.Namespace(
        train_data="::".join(str(p) for p in paths),
        train_num_samples=None,  # from sizes.json, as the trainer does without the flag
        train_data_upsampling_factors=None,
        dataset_resampled=False,
        seed=0,
        batch_size=batch_size,
        world_size=1,
        workers=0,
    )
    with webdataset_1_markers_dropped():
        data = open_clip_data.get_wds_dataset(
            args, fingerprint, is_train=True, tokenizer=untokenized
        )
        return [images.tolist() for images, _ in data.dataloader]


def duplicates(batches: list[list[int]]) -> dict[str, Any]:
    extra = [len(b) - len(set(b)) for b in batches]
    return {
        "batches": len(batches),
        "batches_with_an_image_twice": sum(e > 0 for e in extra),
        "extra_copies_per_batch_mean": round(statistics.fmean(extra), 2) if extra else None,
        "extra_copies_per_batch_max": max(extra, default=0),
    }


def in_batch_duplicates(
    out: Path, work: Path, images: int, shards: int, batch_size: int
) -> dict[str, Any]:
    by_shard, rows = published(out)
    made, origin = made_images([s for name in sorted(by_shard) for s in by_shard[name]], images)
    result = {}
    for name, samples in (("per_caption", per_caption(made, rows, origin)), ("per_image", made)):
        paths = write_layout(work / name, samples, shards)
        batches = batches_in_open_clip(paths, batch_size)
        result[name] = {"samples": len(samples), **duplicates(batches)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--config", default="configs/sample.yaml", help="the finished run's")
    parser.add_argument("--images", type=int, default=4096, help="images made for (2)")
    parser.add_argument("--shards", type=int, default=16, help="tars per layout for (2)")
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()
    location = load_config(args.config).run.output_dir
    if is_remote(location):
        parser.error(f"{location}: the bench reads a local output folder")
    out = Path(location.path)
    if not list((out / "publish").glob("*_stats.json")):
        parser.error(f"{out} holds no published shard: run `make generate` first")
    with tempfile.TemporaryDirectory(prefix="negdata-bench-layout-") as tmp:
        work = Path(tmp)
        size = bytes_per_caption(out, work)
        batches = in_batch_duplicates(out, work, args.images, args.shards, args.batch_size)
    result = {"bytes": size, "batches": batches, "batch_size": args.batch_size}
    folder = Path("runs/bench-layout")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"(1) {out}: {size['images']} images, {size['captions']} captions; ingested tars "
          f"{size['ingested_tar_bytes']:,} bytes")  # fmt: skip
    print("layout        tar bytes   bytes per caption")
    for name in ("per_caption", "per_image"):
        print(f"{name:<12}{size[f'{name}_bytes']:>11,}{size[f'{name}_bytes_per_caption']:>20,}")
    print(f"per caption / per image: {size['ratio']}x")
    print(f"\n(2) open_clip's loader, {args.images} images, batches of {args.batch_size}")
    print("layout        samples  batches  with an image twice  extra copies/batch (mean, max)")
    for name, r in batches.items():
        twice, mean = r["batches_with_an_image_twice"], r["extra_copies_per_batch_mean"]
        counts = f"{r['samples']:>9}{r['batches']:>9}{twice:>21}"
        print(f"{name:<12}{counts}{mean:>14}, {r['extra_copies_per_batch_max']}")
    print(f"full result: {folder / 'result.json'}")


if __name__ == "__main__":
    main()
