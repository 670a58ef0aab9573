"""The plan stage (one LLM call per image): mentioned objects and absent candidates, verified."""

from __future__ import annotations

import logging
import time
from typing import Any

from negdata.compose.cooccurrence import Cooccurrence, kinship
from negdata.compose.schemas import PlanOutput
from negdata.config import Config
from negdata.detect.lexicon import Lexicon, run_lexicon
from negdata.detect.vocab import CLINICAL_VOCABULARIES
from negdata.llm import merge_counters, reject_of, run_structured
from negdata.llm.cache import ResponseCache, shard_cache
from negdata.llm.prompts import load_prompt
from negdata.records import (
    Evidence,
    IngestRow,
    ObjectVerdict,
    PlanRecord,
    Reject,
    count_by,
    flat,
    iter_parquet,
    parquet_sink,
    read_parquet,
    write_parquet,
)
from negdata.shards import Location, shard_name, write_stats
from negdata.validate.negation import polarity
from negdata.verify import (
    absent_labels,
    affirmable_labels,
    name_verdict,
    present_labels,
    verify,
)

log = logging.getLogger(__name__)

STAGE = "objects"


def captions_by_key(output_dir: Location, shard: int) -> dict[str, str]:
    rows = read_parquet(output_dir / "shards" / f"{shard_name(shard)}.parquet", IngestRow)
    return {r.key: r.caption for r in rows if r.status == "success"}


def _fill_from_vocabulary(
    candidates: list[ObjectVerdict],
    evidence: Evidence,
    caption: str,
    cfg: Config,
    company: Cooccurrence,
) -> list[ObjectVerdict]:
    """Top up absent candidates with verified-absent vocabulary labels the caption never names
    that could be there, the most plausible first (``company``: seen most with what the image
    shows; then kin of what it shows in COCO's supercategories). A label that keeps no company
    with what the image shows is no negative ("no tie" on a retina is true and teaches
    nothing); every finding of a clinical vocabulary could be on its radiograph."""
    lexicon = run_lexicon(cfg.detect.vocabulary, [evidence])
    skip = {c.label for c in candidates if c.verdict == "absent"} | set(lexicon.mentioned(caption))
    scores = evidence.score_map()
    # Absent as a name, not only as a label: in CheXpert's hierarchy "consolidation" scored 0 is
    # not absent beside an uncertain pneumonia, which it covers.
    pool = [
        label
        for label in absent_labels(evidence, cfg.detect)
        if label not in skip and name_verdict(label, scores, lexicon, cfg.detect)[0] == "absent"
    ]
    present = present_labels(evidence, cfg.detect)
    rank = {
        label: (
            company.plausibility(label, present),
            kinship(label, present, cfg.detect.vocabulary),
        )
        for label in pool
    }
    clinical = cfg.detect.vocabulary in CLINICAL_VOCABULARIES
    plausible = [label for label in pool if clinical or any(rank[label])]
    plausible.sort(key=lambda label: rank[label], reverse=True)  # stable: vocabulary order
    have = len({c.label for c in candidates if c.verdict == "absent"})
    chosen = plausible[: max(0, cfg.plan.min_candidates - have)]
    return candidates + [
        ObjectVerdict(noun=label, label=label, verdict="absent", score=scores[label])
        for label in chosen
    ]


def in_caption(noun: str, caption: str, lexicon: Lexicon) -> bool:
    """Whether the caption names ``noun``: the phrase itself, or, when ``noun`` is a lexicon term
    ("person"), any synonym of its label ("astronaut"). The LLM may invent mentions."""
    name = lexicon.name(noun)
    if name is not None and lexicon.is_term(noun):
        return polarity(caption, lexicon.terms(name)) != "unmentioned"
    return polarity(caption, [noun]) != "unmentioned"


def plan_record(
    evidence: Evidence,
    caption: str,
    output: PlanOutput | None,
    cfg: Config,
    prompt_ref: str,
    company: Cooccurrence | None = None,
) -> PlanRecord:
    """What the image's captions may affirm and negate; ``company``, the shard's co-occurrence
    counts, ranks the vocabulary fill (without it, only COCO's supercategories do)."""
    lexicon = run_lexicon(cfg.detect.vocabulary, [evidence])
    named_in_caption = [
        noun for noun in (output.mentioned if output else []) if in_caption(noun, caption, lexicon)
    ]
    mentioned = verify(named_in_caption, evidence, lexicon, cfg.detect)
    named = {m.noun for m in mentioned}
    named_anywhere = set(lexicon.mentioned(caption))  # even as a modifier: "bicycle shop"
    candidates = [
        c
        for c in verify(output.absent_candidates if output else [], evidence, lexicon, cfg.detect)
        if c.noun not in named and c.label not in named_anywhere
    ][: cfg.plan.max_candidates]
    if cfg.plan.vocabulary_fill:
        candidates = _fill_from_vocabulary(
            candidates, evidence, caption, cfg, company or Cooccurrence()
        )
    return PlanRecord(
        key=evidence.key,
        caption=caption,
        mentioned=mentioned,
        candidates=candidates,
        detected=affirmable_labels(evidence, cfg.detect),
        prompt=prompt_ref,
    )


def plan_images(
    cfg: Config,
    evidence: list[Evidence],
    captions: dict[str, str],
    desc: str,
    cache: ResponseCache | None = None,
    company: Cooccurrence | None = None,
) -> tuple[list[PlanRecord], list[Reject], dict[str, int]]:
    """One plan LLM call per image of ``evidence`` (``captions``: its original caption by key):
    the plan records, the images dropped, and the LLM counters. ``company`` ranks the
    vocabulary fill: the co-occurrence counts of the shard ``evidence`` is part of (by
    default those of ``evidence`` itself)."""
    prompt = load_prompt(cfg.compose.prompts_dir, "plan")

    def messages(ev: Evidence) -> list[dict[str, str]]:
        detected = ", ".join(present_labels(ev, cfg.detect)) or "nothing"
        return prompt.messages(caption=captions[ev.key], detected=detected)

    results, llm = run_structured(
        cfg.llm,
        evidence,
        messages,
        PlanOutput,
        desc=desc,
        cache=cache,
        key=lambda ev: ev.key,
    )
    if company is None:
        company = Cooccurrence.of(evidence, cfg.detect)
    records: list[PlanRecord] = []
    rejects: list[Reject] = []
    for ev, result in zip(evidence, results, strict=True):
        if result.value is None and not cfg.plan.vocabulary_fill:
            rejects.append(reject_of("plan", ev.key, result))
        else:
            records.append(
                plan_record(ev, captions[ev.key], result.value, cfg, prompt.ref, company)
            )
    return records, rejects, llm


def run_plan(cfg: Config, shard: int, config_hash: str) -> dict[str, Any]:
    """Plan the shard a row group of evidence at a time (``iter_parquet``), writing the records
    as they are made: what the stage holds does not grow with the shard."""
    started = time.monotonic()
    out_dir = cfg.run.output_dir
    name = shard_name(shard)
    evidence_path = out_dir / "evidence" / f"{name}.parquet"
    captions = captions_by_key(out_dir, shard)
    # Every image's vocabulary fill is ranked by what the whole shard shows together.
    company = Cooccurrence.of(flat(iter_parquet(evidence_path, Evidence)), cfg.detect)
    count = unverifiable = absent = 0
    rejects: list[Reject] = []  # images the LLM failed on, when nothing else plans them
    llm: dict[str, int] = {}
    out = out_dir / STAGE
    with (
        shard_cache(cfg, shard) as cache,
        parquet_sink(out / f"{name}.parquet", PlanRecord) as planned,
    ):
        for evidence in iter_parquet(evidence_path, Evidence):
            records, dropped, used = plan_images(
                cfg, evidence, captions, f"plan {name}", cache, company
            )
            planned.add(records)
            rejects += dropped
            llm = merge_counters(llm, used)
            count += len(evidence)
            verdicts = [o.verdict for r in records for o in r.mentioned + r.candidates]
            unverifiable += verdicts.count("unverifiable")
            absent += sum(1 for r in records for o in r.candidates if o.verdict == "absent")
    write_parquet(out / f"{name}_rejects.parquet", Reject, rejects)
    stats = {
        "count": count,
        "planned": planned.rows,
        "rejected": count_by(rejects),
        "unverifiable_nouns": unverifiable,
        "absent_candidates": absent,
        **llm,
        "duration_s": round(time.monotonic() - started, 3),
    }
    write_stats(out, shard, config_hash, stats)
    log.info("plan shard %s: %d planned", name, planned.rows)
    return stats
