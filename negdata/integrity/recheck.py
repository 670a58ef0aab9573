"""Every published caption and question checked again against its shard's evidence, with the
publish stage's own gates (``CaptionGate``, ``mcq_gate``) and the config's thresholds and
vocabulary: a caption names no absent object as there, nor a present one as missing; a
question has exactly one true option, its correct answer."""

from __future__ import annotations

from negdata.config import Config
from negdata.detect.lexicon import run_lexicon
from negdata.integrity.tars import problem
from negdata.records import Evidence, PublishedCaption, PublishedMcq, read_parquet
from negdata.shards import Location
from negdata.validate.gates import CaptionGate, mcq_gate


def recheck_shard(
    cfg: Config,
    evidence_path: Location,
    captions: list[tuple[Location, PublishedCaption]],
    mcqs: list[tuple[Location, PublishedMcq]],
) -> list[str]:
    """Problems of one shard's captions and questions, each with the file it was read from."""
    if not captions and not mcqs:
        return []
    try:
        evidence = {e.key: e for e in read_parquet(evidence_path, Evidence)}
    except FileNotFoundError:
        return [problem(evidence_path, "missing: the shard's captions cannot be re-checked")]
    except (OSError, ValueError) as exc:
        return [problem(evidence_path, f"unreadable Parquet: {exc}")]
    # The lexicon the publish stage used: the vocabulary and every label the evidence covers.
    lexicon = run_lexicon(cfg.detect.vocabulary, evidence.values())
    gate = CaptionGate(cfg, lexicon)
    problems = []
    for path, caption in captions:
        seen = evidence.get(caption.image_key)
        reason: str | None = (
            "no evidence for its image" if seen is None else gate.check(caption, seen)
        )
        if reason is not None:
            problems.append(problem(path, f"{caption.key}: {reason}: {caption.caption}"))
    for path, mcq in mcqs:
        seen = evidence.get(mcq.image_key)
        reason = "no evidence for its image" if seen is None else mcq_gate(mcq, seen, lexicon, cfg)
        if reason is not None:
            problems.append(problem(path, f"{mcq.key}: {reason}"))
    return problems
