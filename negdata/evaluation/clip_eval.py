"""An open_clip model on one split of a finished run, scored as NegBench scores it: NegMCQ
accuracy, overall and per template, and negated retrieval recall@1 and @5 (each negated caption
retrieving its image among the images of the split's captions).

Images are read from the split's NegCap tars, and from the ingested ``shards/`` tars for those
no NegCap sample holds (a question's image whose captions were all rejected)."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from negdata.clip_models import Clip
from negdata.export.negbench_rows import NEGBENCH_TEMPLATES
from negdata.publish import layout
from negdata.records import SPLITS, PublishedCaption, PublishedMcq, read_parquet
from negdata.shards import Location
from negdata.wds import read_tar

log = logging.getLogger(__name__)

RECALL_AT = (1, 5)


@dataclass(frozen=True)
class SplitData:
    """A split's questions and captions, and the JPEG of every image they name, by key."""

    questions: list[PublishedMcq]
    captions: list[PublishedCaption]
    images: dict[str, bytes]


@dataclass(frozen=True)
class ClipScores:
    split: str
    questions: int
    mcq_accuracy: float | None
    by_template: dict[str, tuple[int, int]]  # negdata's template -> (right, questions)
    captions: int
    images: int
    recall: dict[int, float]  # k -> recall@k


def read_split(run: Location, split: str) -> SplitData:
    if split not in SPLITS:
        raise ValueError(f"split {split!r}: choose from {', '.join(SPLITS)}")
    mcq_files: list[Location] = sorted((run / layout.NEGMCQ / split).glob("*.parquet"), key=str)
    caption_files: list[Location] = sorted(
        (run / layout.NEGCAP_PARQUET / split).glob("*.parquet"), key=str
    )
    questions = [q for path in mcq_files for q in read_parquet(path, PublishedMcq)]
    captions = [c for path in caption_files for c in read_parquet(path, PublishedCaption)]
    if not questions and not captions:
        raise ValueError(f"{run}: no NegMCQ or NegCap Parquet in split {split!r}")
    wanted = {q.image_key for q in questions} | {c.image_key for c in captions}
    shards = sorted({path.stem for path in [*mcq_files, *caption_files]})
    negcap: list[Location] = sorted((run / layout.NEGCAP / split).glob("*.tar"), key=str)
    tars = [*negcap, *(run / "shards" / f"{name}.tar" for name in shards)]
    return SplitData(questions, captions, read_images(tars, wanted, f"{run}, split {split!r}"))


def read_images(tars: Sequence[Location], wanted: set[str], where: str) -> dict[str, bytes]:
    """The JPEG of every ``wanted`` key, from the first of ``tars`` that holds it (a tar that
    is not there is passed over); an error naming ``where`` when a key is in none."""
    images: dict[str, bytes] = {}
    for tar in tars:
        if wanted <= images.keys():
            break
        if tar.exists():
            for sample in read_tar(tar):
                if sample["__key__"] in wanted and "jpg" in sample:
                    images.setdefault(sample["__key__"], sample["jpg"])
    missing = wanted - images.keys()
    if missing:
        raise ValueError(f"{where}: no image for {len(missing)} keys, e.g. {min(missing)}")
    return images


def image_features(clip: Clip, jpegs: Sequence[bytes], batch_size: int) -> Any:
    import torch
    from PIL import Image

    out = []
    for start in range(0, len(jpegs), batch_size):
        batch = [
            clip.preprocess(Image.open(io.BytesIO(j)).convert("RGB"))
            for j in jpegs[start : start + batch_size]
        ]
        with torch.no_grad():
            features = clip.model.encode_image(torch.stack(batch).to(clip.device))
        out.append(torch.nn.functional.normalize(features.float(), dim=-1).cpu())
    return torch.cat(out)


def text_features(clip: Clip, texts: Sequence[str], batch_size: int) -> Any:
    import torch

    out = []
    for start in range(0, len(texts), batch_size):
        tokens = clip.tokenizer(list(texts[start : start + batch_size])).to(clip.device)
        with torch.no_grad():
            features = clip.model.encode_text(tokens)
        out.append(torch.nn.functional.normalize(features.float(), dim=-1).cpu())
    return torch.cat(out)


def evaluate(clip: Clip, data: SplitData, split: str, batch_size: int = 64) -> ClipScores:
    from negdata.evaluation.scores import mcq_tallies, recall_at_k

    keys = sorted(data.images)
    row = {key: i for i, key in enumerate(keys)}
    images = image_features(clip, [data.images[k] for k in keys], batch_size)
    log.info("eval-clip: %d images encoded", len(keys))
    accuracy, by_template = None, {}
    if data.questions:
        options = [getattr(q, f"caption_{i}") for q in data.questions for i in range(4)]
        texts = text_features(clip, options, batch_size).view(len(data.questions), 4, -1)
        mine = images[[row[q.image_key] for q in data.questions]]
        scores = (texts @ mine.unsqueeze(2)).squeeze(2)
        overall, per = mcq_tallies(
            scores,
            [q.correct_answer for q in data.questions],
            [q.correct_answer_template for q in data.questions],
        )
        accuracy = overall.accuracy
        by_template = {t: (per[t].correct, per[t].total) for t in sorted(per)}
    recall: dict[int, float] = {}
    gallery = sorted({c.image_key for c in data.captions})
    if data.captions:
        column = {key: i for i, key in enumerate(gallery)}
        texts = text_features(clip, [c.caption for c in data.captions], batch_size)
        scores = texts @ images[[row[k] for k in gallery]].T
        recall = recall_at_k(scores, [column[c.image_key] for c in data.captions], RECALL_AT)
    return ClipScores(
        split=split,
        questions=len(data.questions),
        mcq_accuracy=accuracy,
        by_template=by_template,
        captions=len(data.captions),
        images=len(gallery),
        recall=recall,
    )


def number(value: float | None) -> str:
    """A score as eval-clip prints it; ``-`` where there is none."""
    return "-" if value is None else f"{value:.3f}"


def report(clip: Clip, scores: ClipScores, run: Location) -> str:
    """What ``negdata eval-clip`` prints."""
    weights = clip.weights or "random init (no --pretrained)"
    lines = [
        f"{clip.name}, weights: {weights}; {run}, split {scores.split}",
        f"NegMCQ: {scores.questions} questions, accuracy {number(scores.mcq_accuracy)} "
        "(chance 0.250)",
        f"  {'template':<13}{'NegBench':<10}{'questions':>10}{'accuracy':>10}",
    ]
    for ours, theirs in NEGBENCH_TEMPLATES.items():
        right, total = scores.by_template.get(ours, (0, 0))
        value = right / total if total else None
        lines.append(f"  {ours:<13}{theirs:<10}{total:>10}{number(value):>10}")
    recall = ", ".join(f"recall@{k} {number(scores.recall.get(k))}" for k in RECALL_AT)
    lines.append(
        f"Negated retrieval (text to image): {scores.captions} captions, "
        f"{scores.images} images: {recall}"
    )
    short = [k for k in RECALL_AT if scores.captions and k > scores.images]
    if short:
        lines.append(
            f"  recall@{', @'.join(map(str, short))} not scored: the gallery has "
            f"{scores.images} image{'s' * (scores.images != 1)}, fewer than {short[0]}"
        )
    return "\n".join(lines)
