"""A finished run made without a detector or an LLM: every stage's files and done markers written
with negdata's own writers, from the bundled sample's photos, captions and labels, cycled to any
number of images. What the run-level files (stats.json, the data card, report.html) are made
from, at any size, in seconds, and the NegCap tars and Parquet in publish's layout that
evaluation and training read: ``tests/publish``, ``tests/test_eval_clip.py``,
``bench/report.py`` and ``bench/finetune_smoke.py`` build on it.

Image ``i`` is sample photo ``i % 14``, with a box per labelled object, three template captions
negating objects it lacks (every other label scored low, so the publish gates pass them), a
question when it shows an object, and a reject; NegCap's samples and Parquet are made by the
publish stage's own ``image_sample`` and ``write_tables``. The image of index 1 in each shard
gets a caption holding markup, as untrusted input can.
"""

from __future__ import annotations

import hashlib
import io
from collections import Counter
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from negdata.cli import PERSON_WEIGHTS
from negdata.config import Config, load_config
from negdata.detect.vocab import vocabulary
from negdata.english import with_article
from negdata.publish.layout import negcap_tar
from negdata.publish.samples import image_sample
from negdata.publish.stage import write_tables
from negdata.records import (
    SPLITS,
    Box,
    CaptionRecord,
    Evidence,
    IngestRow,
    LabelScore,
    McqRecord,
    PublishedCaption,
    PublishedMcq,
    Reject,
    Style,
    count_by,
    write_parquet,
)
from negdata.sample import SampleImage, build_sample, load_manifest, package_file
from negdata.shards import sample_key, shard_name, write_stats
from negdata.stages import STAGES, stage_hash
from negdata.wds import write_tar

MARKUP_CAPTION = '<script>alert("caption")</script> a <b>bold</b> cat & "friends"'
STYLES: tuple[Style, ...] = ("affirmation_first", "negation_first")


def synthetic_config(root: Path, samples_per_shard: int) -> Path:
    """configs/sample.yaml writing to ``root/out``, with the sample's labels and the real person
    weights as its evidence sources (the card hashes both)."""
    files = build_sample(root / "sample")
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["run"]["output_dir"] = str(root / "out")
    raw["input"].update(
        path=str(files.tsv), files_root=str(root), samples_per_shard=samples_per_shard
    )
    raw["detect"]["sources"][0]["path"] = str(files.labels)
    raw["detect"]["sources"][1]["weights"] = str(package_file(*PERSON_WEIGHTS))
    raw["compose"]["prompts_dir"] = str(Path("prompts").resolve())
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    return config


def build_run(root: Path, images: int, samples_per_shard: int = 10_000) -> Config:
    """Write a finished run of ``images`` images under ``root/out``; returns its config. The
    run-level files are left to ``negdata.pipeline.summarize``."""
    cfg = load_config(synthetic_config(root, samples_per_shard))
    photos = [(entry, _jpeg(entry)) for entry in load_manifest()]
    for shard, start in enumerate(range(0, images, samples_per_shard)):
        count = min(samples_per_shard, images - start)
        _write_shard(cfg, shard, [photos[(start + i) % len(photos)] for i in range(count)])
    return cfg


def _jpeg(entry: SampleImage) -> bytes:
    image = Image.open(package_file(entry.package, entry.path)).convert("RGB")
    image.thumbnail((512, 512))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def _write_shard(cfg: Config, shard: int, photos: list[tuple[SampleImage, bytes]]) -> None:
    out, name = cfg.run.output_dir, shard_name(shard)
    hashes = {stage.name: stage_hash(cfg, stage) for stage in STAGES}
    labels = vocabulary(cfg.detect.vocabulary)
    rows, evidence, captions, questions, rejects, samples = [], [], [], [], [], []
    for index, (entry, jpeg) in enumerate(photos):
        key = sample_key(shard, index)
        caption = MARKUP_CAPTION if index == 1 else entry.caption
        width, height = Image.open(io.BytesIO(jpeg)).size
        samples.append({"__key__": key, "jpg": jpeg, "txt": caption})
        rows.append(
            IngestRow(
                key=key,
                url=f"file:///{entry.id}",
                caption=caption,
                status="success",
                width=width,
                height=height,
                original_width=width,
                original_height=height,
            )
        )
        present = list(entry.labels)
        absent = [label for label in labels if label not in present][index % 7 :][:3]
        evidence.append(_evidence(key, present, labels, width, height))
        for i, negated in enumerate(absent):
            captions.append(
                CaptionRecord(
                    key=f"{key}_{i}",
                    image_key=key,
                    negated=negated,
                    negated_label=negated,
                    caption=f"A photo of {with_article(present[0])}, but no {negated}."
                    if present
                    else f"There is no {negated} in this photo.",
                    style=STYLES[i % 2],
                    generator="template",
                    original_caption=caption,
                    affirmed=present[:1],
                    prompt=None,
                    model=None,
                    config_hash=hashes["publish"],
                )
            )
        if present:
            questions.append(_question(key, present[0], absent[0], index % 4, hashes["publish"]))
        else:
            rejects.append(Reject(stage="validate", key=key, reason="mcq_no_present_object"))
        rejects.append(Reject(stage="validate", key=f"{key}_9", reason="not_negated"))
    write_tar(out / "shards" / f"{name}.tar", samples)
    write_parquet(out / "shards" / f"{name}.parquet", IngestRow, rows)
    write_parquet(out / "evidence" / f"{name}.parquet", Evidence, evidence)
    split_of = {e.key: SPLITS[0 if i % 10 < 8 else i % 10 - 7] for i, e in enumerate(evidence)}
    images = {sample_key(shard, index): jpeg for index, (_, jpeg) in enumerate(photos)}
    sha256 = {key: hashlib.sha256(jpg).hexdigest() for key, jpg in images.items()}
    published = [
        PublishedCaption(
            **c.model_dump(), split=split_of[c.image_key], jpg_sha256=sha256[c.image_key]
        )
        for c in captions
    ]
    by_image: dict[str, list[PublishedCaption]] = {}
    for published_caption in sorted(published, key=lambda c: c.key):
        by_image.setdefault(published_caption.image_key, []).append(published_caption)
    images_by_split = {}
    for split in SPLITS:
        keys = [key for key in sorted(by_image) if split_of[key] == split]
        images_by_split[split] = len(keys)
        if keys:  # no empty tar: ``datasets`` cannot read one
            seed = cfg.run.seed
            samples = [image_sample(k, by_image[k], images[k], sha256[k], seed) for k in keys]
            write_tar(negcap_tar(out, split, name), samples)
    write_tables(
        out,
        name,
        published,
        [PublishedMcq(**q.model_dump(), split=split_of[q.image_key]) for q in questions],
    )
    write_parquet(out / "rejects" / f"{name}.parquet", Reject, rejects)
    n = len(photos)
    stats: dict[str, dict[str, Any]] = {
        "ingest": {"count": n, "successes": n, "failed": 0},
        "detect": {"count": n, "boxes": sum(len(e.boxes) for e in evidence)},
        "plan": {"count": n, "planned": n},
        "compose": {"count": n, "images_composed": n, "mcq": len(questions)},
        "publish": {
            "images": n,
            "captions": len(captions),
            "captions_by_generator": {"template": len(captions)},
            "captions_by_style": {s: sum(c.style == s for c in captions) for s in STYLES},
            "mcq": len(questions),
            "mcq_templates": {"affirmation": len(questions)},
            "mcq_correct_positions": dict(Counter(str(q.correct_answer) for q in questions)),
            "rejects": count_by(rejects),
            "images_by_split": images_by_split,
            "images_published": sum(images_by_split.values()),
            "captions_by_split": dict(Counter(split_of[c.image_key] for c in captions)),
            "mcq_by_split": dict(Counter(split_of[q.image_key] for q in questions)),
        },
    }
    for stage in STAGES:
        write_stats(out / stage.directory, shard, hashes[stage.name], stats[stage.name])


def _evidence(
    key: str, present: list[str], labels: tuple[str, ...], width: int, height: int
) -> Evidence:
    """Boxes of the present objects, scored high, and a faint one of an absent object (as a
    detector draws them below ``t_present``); every other label of the vocabulary scored low,
    as a detector covering it scores it (what makes a negation or a question checkable)."""
    boxes = [
        Box(label=label, score=0.9, x0=width * (0.1 + 0.1 * i), y0=height * (0.1 + 0.1 * i),
            x1=width * (0.6 + 0.1 * i), y1=height * (0.9 - 0.1 * i), source="synthetic")
        for i, label in enumerate(present[:3])
    ]  # fmt: skip
    faint = next(label for label in labels if label not in present)
    boxes.append(Box(label=faint, score=0.01, x0=0, y0=0, x1=width / 4, y1=height / 4,
                     source="synthetic"))  # fmt: skip
    score = {label: 0.01 for label in labels} | {label: 0.9 for label in present}
    scores = [LabelScore(label=label, score=s, lowest=s) for label, s in sorted(score.items())]
    return Evidence(key=key, boxes=boxes, scores=scores, sources=["synthetic"])


def _question(key: str, positive: str, negative: str, correct: int, config_hash: str) -> McqRecord:
    a, n = with_article(positive), with_article(negative)
    right = f"This image features {a}, but not {n}."
    wrong = [
        f"This image features {n}.",
        f"This image does not feature {a}.",
        f"This image features {n}, but not {a}.",
    ]
    options = [*wrong[:correct], right, *wrong[correct:]]
    return McqRecord(
        key=key, image_key=key, caption_0=options[0], caption_1=options[1],
        caption_2=options[2], caption_3=options[3], correct_answer=correct,
        correct_answer_template="affirmation", positives=[positive], negative=negative,
        config_hash=config_hash,
    )  # fmt: skip
