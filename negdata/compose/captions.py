"""The compose stage (one LLM call per image): M negated captions, template stand-ins, one MCQ."""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from negdata.clip_text import shorten
from negdata.compose.alt_text import clean_alt_text
from negdata.compose.clinical import clinical_caption
from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.compose.paraphrase import apply_paraphrases, paraphrase_batch
from negdata.compose.schemas import ComposedCaption, ComposeOutput
from negdata.compose.templates import template_caption
from negdata.config import Config
from negdata.detect.lexicon import Lexicon, run_lexicon
from negdata.detect.vocab import CLINICAL_VOCABULARIES
from negdata.english import counted, natural
from negdata.llm import Batch, merge_counters, reject_of, run_batches
from negdata.llm.cache import ResponseCache, shard_cache
from negdata.llm.prompts import few_shot_shift, load_prompt
from negdata.records import (
    CaptionRecord,
    Evidence,
    InOrder,
    McqRecord,
    ObjectVerdict,
    PlanRecord,
    Reject,
    Style,
    count_by,
    flat,
    iter_parquet,
    parquet_sink,
    write_parquet,
)
from negdata.shards import shard_name, write_stats
from negdata.verify import box_counts, present_labels

log = logging.getLogger(__name__)

STAGE = "captions"
STYLES: tuple[Style, ...] = ("affirmation_first", "negation_first")
# The alt-text the LLM builds on keeps room in CLIP's 77 tokens for the negation it adds.
ALT_TEXT_TOKENS = 56


@dataclass(frozen=True)
class ImagePlan:
    """What one image's captions may affirm and negate."""

    record: PlanRecord
    affirm: list[str]
    present: list[str]
    negatives: list[ObjectVerdict]
    styles: list[Style]
    alone: bool = False  # ``present`` (its first three) is all the evidence finds present


def image_plan(record: PlanRecord, cfg: Config) -> ImagePlan:
    """Affirm what the caption names and the evidence does not contradict; detected-only labels
    stand in only when the caption names nothing usable, so a detector's false positive is not
    affirmed where the caption offers a second witness. A clinical vocabulary affirms only what
    the labels confirm: a finding the report hedges is never stated."""
    clinical = cfg.detect.vocabulary in CLINICAL_VOCABULARIES
    allowed = {"present"} if clinical else {"present", "uncertain", "unverifiable"}
    mentioned_ok = _one_per_label([m for m in record.mentioned if m.verdict in allowed])
    mentioned_labels = {m.label for m in record.mentioned if m.label}
    detected_only = [label for label in record.detected if label not in mentioned_labels]
    affirm = [m.noun for m in mentioned_ok] or detected_only
    present = [m.noun for m in mentioned_ok if m.verdict == "present"] or detected_only
    negatives: list[ObjectVerdict] = []
    for cand in record.candidates:
        if cand.verdict == "absent" and cand.label not in {n.label for n in negatives}:
            negatives.append(cand)
    negatives = negatives[: cfg.compose.captions_per_image]
    rng = random.Random(f"{cfg.run.seed}:{record.key}:style")
    styles = [rng.choice(STYLES) for _ in negatives]
    return ImagePlan(record, affirm, present, negatives, styles)


def names_everything(plan: ImagePlan, evidence: Evidence, cfg: Config, lexicon: Lexicon) -> bool:
    """Whether the objects a template caption shows (the first three present ones) are every
    object the evidence finds present: only then may it say "only" or "just"."""
    shown = {lexicon.name(noun) for noun in plan.present[:3]}
    covered: set[str] = set().union(*(lexicon.members(name) for name in shown if name))
    return bool(covered) and set(present_labels(evidence, cfg.detect)) <= covered


def counted_plan(plan: ImagePlan, evidence: Evidence, cfg: Config, lexicon: Lexicon) -> ImagePlan:
    """``plan`` as the evidence backs it: its objects counted where the boxes count them
    ("people", never "a person" beside two), each negated object a vocabulary term (never the
    LLM's "big cat, bear"), and ``alone`` when the objects a template shows are all there is."""
    boxes = box_counts(evidence, cfg.detect)

    def count(noun: str) -> str:
        name = lexicon.name(noun)
        return counted(noun, boxes.get(name) if name else None)

    negatives = [  # "big cat, bear" verified as bear is negated as "bear"
        n if lexicon.is_term(n.noun) else n.model_copy(update={"noun": natural(str(n.label))})
        for n in plan.negatives
    ]
    plan = dataclasses.replace(
        plan,
        affirm=[count(n) for n in plan.affirm],
        present=[count(n) for n in plan.present],
        negatives=negatives,
    )
    return dataclasses.replace(plan, alone=names_everything(plan, evidence, cfg, lexicon))


def _one_per_label(verdicts: list[ObjectVerdict]) -> list[ObjectVerdict]:
    """The first noun of each label: "a cameraman and a person" affirm one person."""
    seen: set[str] = set()
    kept = []
    for v in verdicts:
        if v.label is None or v.label not in seen:
            kept.append(v)
        if v.label is not None:
            seen.add(v.label)
    return kept


def _variant(cfg: Config, key: str) -> int:
    """The phrasing of a template caption: seeded per caption, so reruns write the same text."""
    return random.Random(f"{cfg.run.seed}:{key}:frame").randrange(1 << 16)


def _match(
    output: ComposeOutput | None, plan: ImagePlan, lexicon: Lexicon
) -> list[ComposedCaption | None]:
    """The LLM caption for each requested negative: same label first, else same position."""
    if output is None:
        return [None] * len(plan.negatives)
    by_label = {lexicon.name(c.negated): c for c in output.captions}
    matched: list[ComposedCaption | None] = []
    for i, neg in enumerate(plan.negatives):
        fallback = output.captions[i] if i < len(output.captions) else None
        matched.append(by_label.get(neg.label, fallback))
    return matched


def caption_candidates(
    plan: ImagePlan, output: ComposeOutput | None, model: str | None, prompt_ref: str,
    cfg: Config, config_hash: str, lexicon: Lexicon,
) -> list[CaptionRecord]:  # fmt: skip
    """Per negative: the LLM's caption, then (if allowed) the template stand-in, same key."""
    rows = []
    matched = _match(output, plan, lexicon)
    for j, (neg, style, llm) in enumerate(zip(plan.negatives, plan.styles, matched, strict=True)):
        base = CaptionRecord(
            key=f"{plan.record.key}_{j}",
            image_key=plan.record.key,
            caption="",
            negated=neg.noun,
            negated_label=str(neg.label),
            style=style,
            generator="llm",
            original_caption=plan.record.caption,
            affirmed=plan.affirm,
            prompt=prompt_ref,
            model=model,
            config_hash=config_hash,
        )
        if llm is not None:
            rows.append(base.model_copy(update={"caption": llm.text.strip()}))
        if cfg.compose.template_fallback:
            cleaned = clean_alt_text(plan.record.caption, lexicon)
            variant = _variant(cfg, base.key)
            if cfg.detect.vocabulary in CLINICAL_VOCABULARIES:
                text = clinical_caption(style, neg.noun, plan.present, cleaned, variant)
            else:
                text = template_caption(
                    style, neg.noun, plan.present, cleaned, variant, alone=plan.alone
                )
            rows.append(
                base.model_copy(
                    update={
                        "caption": text,
                        "generator": "template",
                        "affirmed": plan.present,
                        "prompt": None,
                        "model": None,
                    }
                )
            )
    return rows


def _image_key(plan: ImagePlan) -> str:
    return plan.record.key


@dataclass(frozen=True)
class Composed:
    """What compose made of a set of plan records: caption candidates (LLM before template, per
    caption key), one MCQ per image with a present object, the images and questions dropped,
    and the LLM counters."""

    images_composed: int
    captions_requested: int  # one per verified-absent object chosen, over the images composed
    captions: list[CaptionRecord]
    mcqs: list[McqRecord]
    rejects: list[Reject]
    llm: dict[str, int]


def compose_images(
    cfg: Config,
    records: list[PlanRecord],
    evidence: Mapping[str, Evidence],
    config_hash: str,
    *,
    name: str,
    lexicon: Lexicon,
    balancer: McqBalancer,
    cache: ResponseCache | None = None,
) -> Composed:
    """One compose LLM call per image of ``records`` (and one paraphrase call per MCQ, when
    configured), checked against ``evidence`` (by image key). ``name`` labels the progress
    bars; ``lexicon`` is the shard's (``run_lexicon`` of all its evidence); ``balancer`` deals
    the shard's MCQ answer positions and templates, across calls in turn; ``cache`` is the
    shard's response cache."""
    plans: list[ImagePlan] = []
    rejects: list[Reject] = []
    mcqs: list[McqRecord] = []
    for record in records:
        plan = image_plan(record, cfg)
        if record.key in evidence:
            plan = counted_plan(plan, evidence[record.key], cfg, lexicon)
        if not plan.negatives:
            rejects.append(
                Reject(
                    stage="compose",
                    key=record.key,
                    reason="no_absent_object",
                    detail="no object that could be there is verified absent",
                )
            )
            continue
        plans.append(plan)
        if plan.present:
            mcqs.append(
                build_mcq(
                    record.key,
                    plan.present,
                    plan.negatives[0].noun,
                    balancer,
                    config_hash,
                    clinical=cfg.detect.vocabulary in CLINICAL_VOCABULARIES,
                )
            )
        else:
            rejects.append(
                Reject(
                    stage="mcq",
                    key=record.key,
                    reason="mcq_no_present_object",
                    detail="no object is verified present",
                )
            )
    prompt = load_prompt(cfg.compose.prompts_dir, "compose")

    def messages(plan: ImagePlan) -> list[dict[str, str]]:
        requests = [
            {"negated": n.noun, "style": s}
            for n, s in zip(plan.negatives, plan.styles, strict=True)
        ]
        return prompt.messages(
            few_shot_shift(cfg, plan.record.key),
            caption=shorten(
                clean_alt_text(plan.record.caption, lexicon), context_length=ALT_TEXT_TOKENS
            ),
            affirm=", ".join(plan.affirm) or "(see caption)",
            requests=json.dumps(requests),
        )

    batches: list[Batch[Any, Any]] = [
        Batch(plans, messages, ComposeOutput, f"compose {name}", _image_key)
    ]
    paraphrase = cfg.compose.paraphrase_mcq and bool(mcqs)
    if paraphrase:  # independent of the captions: both batches are in flight together
        batches.append(paraphrase_batch(cfg, mcqs, f"paraphrase {name}"))
    answers = run_batches(cfg.llm, batches, cache=cache)
    results, llm = answers[0]
    captions: list[CaptionRecord] = []
    for plan, result in zip(plans, results, strict=True):
        if result.value is None:
            rejects.append(reject_of("compose", plan.record.key, result))
        captions += caption_candidates(
            plan, result.value, result.model, prompt.ref, cfg, config_hash, lexicon
        )
    if paraphrase:
        mcqs = apply_paraphrases(cfg, mcqs, answers[1][0], lexicon)
        llm = merge_counters(llm, answers[1][1])
    rejects.sort(key=lambda r: (r.key, r.stage))
    requested = sum(len(plan.negatives) for plan in plans)
    return Composed(len(plans), requested, captions, mcqs, rejects, llm)


def run_compose(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    """Compose the shard a row group of plan records at a time, writing what it makes as it
    goes: what the stage holds does not grow with the shard."""
    started = time.monotonic()
    out_dir = cfg.run.output_dir
    name = shard_name(shard)
    plan_path = out_dir / "objects" / f"{name}.parquet"
    evidence_path = out_dir / "evidence" / f"{name}.parquet"
    lexicon = run_lexicon(cfg.detect.vocabulary, flat(iter_parquet(evidence_path, Evidence)))
    balancer = McqBalancer(f"{cfg.run.seed}:{shard}:mcq")
    count = composed_images = paraphrased = 0
    rejects: list[Reject] = []
    llm: dict[str, int] = {}
    out = out_dir / STAGE
    with (
        shard_cache(cfg, shard) as cache,
        parquet_sink(out / f"{name}.parquet", CaptionRecord) as captions,
        parquet_sink(out / f"{name}_mcq.parquet", McqRecord) as mcqs,
    ):
        # Both files are in the shard's order, the plan's images a subset of the evidence's.
        shown = InOrder(flat(iter_parquet(evidence_path, Evidence)), lambda ev: ev.key)
        for records in iter_parquet(plan_path, PlanRecord):
            evidence = {ev.key: ev for ev in shown.upto(records[-1].key if records else "")}
            composed = compose_images(
                cfg,
                records,
                evidence,
                config_hash,
                name=name,
                lexicon=lexicon,
                balancer=balancer,
                cache=cache,
            )
            captions.add(composed.captions)
            mcqs.add(composed.mcqs)
            rejects += composed.rejects
            llm = merge_counters(llm, composed.llm)
            count += len(records)
            composed_images += composed.images_composed
            paraphrased += sum(sum(m.paraphrased) for m in composed.mcqs)
    write_parquet(out / f"{name}_rejects.parquet", Reject, rejects)
    stats = {
        "count": count,
        "images_composed": composed_images,
        "caption_candidates": captions.rows,
        "mcq": mcqs.rows,
        "mcq_options_paraphrased": paraphrased,
        "rejected": count_by(rejects),
        **llm,
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("compose shard %s: %d candidates, %d mcq", name, captions.rows, mcqs.rows)
    return stats
