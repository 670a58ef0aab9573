"""Running the stages (``negdata.stages``) on shards, under leases, and the run-level summary
files.

Prefect (flows/) and the CLI both drive the stages through this module, so a stage runs the
same way from a flow, a test or a shell.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from typing import Any, get_args

from negdata import __version__, preflight
from negdata.config import Config
from negdata.ingest.sources import shard_count
from negdata.leases import LeaseHeld, ShardLease
from negdata.llm.client import FailureReason
from negdata.publish import layout
from negdata.publish.diversity import diversity
from negdata.records import SPLITS, PublishedCaption
from negdata.shards import (
    STORAGE_ERRNOS,
    done_stats,
    is_remote,
    parse_shards,
    read_stats,
    shard_name,
    shard_ranges,
    stats_path,
    write_if_changed,
)
from negdata.stages import STAGES, Stage, stage_done, stage_hash

log = logging.getLogger(__name__)

DIVERSITY_SAMPLE = 100_000  # captions read for the diversity report (the first shards' captions)


def select_shards(cfg: Config, spec: str) -> list[int]:
    """The shards ``spec`` names (``"0-99,120"``), refused in one line when one is past the
    input's last shard: a typo such as ``0-99999999`` must not make empty shards."""
    last = max(r[-1] for r in shard_ranges(spec))
    return parse_shards(spec, shard_count(cfg.input, up_to=last))


class Tally:
    """The (stage, shard) pairs that are done, found done or finished, in this process: what a
    stopped run reports as kept."""

    def __init__(self) -> None:
        self._done: list[tuple[str, int]] = []
        self._lock = threading.Lock()

    def add(self, stage: str, shard: int) -> None:
        with self._lock:
            self._done.append((stage, shard))

    def describe(self, shards: list[int]) -> str:
        """``"7 of 20 stage-shards done (complete: 00000)"``."""
        with self._lock:
            done = set(self._done)
        complete = [shard_name(s) for s in shards if all((st.name, s) in done for st in STAGES)]
        shown = ", ".join(complete[:5]) + (", ..." if len(complete) > 5 else "")
        text = f"{len(done)} of {len(shards) * len(STAGES)} stage-shards done"
        return f"{text} (complete: {shown})" if complete else text


TALLY = Tally()


class StageError(RuntimeError):
    """A stage failed on a shard for a reason outside the data (a full disk, say): the message
    names the stage, the shard and the file."""


def run_stage(cfg: Config, stage: Stage, shard: int) -> dict[str, Any]:
    """Run one stage on one shard unless its done marker matches; returns the shard's stats."""
    config_hash = stage_hash(cfg, stage)
    stats = done_stats(cfg.run.output_dir / stage.directory, shard, config_hash)
    if stats is not None:  # one read of the marker: on an object store, one request
        TALLY.add(stage.name, shard)
        return {**stats, "skipped": True}
    try:
        result = {**stage.run(cfg, shard, config_hash), "skipped": False}
    except OSError as exc:
        if exc.errno not in STORAGE_ERRNOS:
            raise
        where = f" writing {exc.filename}" if exc.filename else ""
        raise StageError(
            f"{stage.name} shard {shard_name(shard)}: {os.strerror(exc.errno)}{where}"
        ) from exc
    TALLY.add(stage.name, shard)
    return result


def retry_failed_ingest(cfg: Config, shard: int) -> dict[str, Any]:
    """Fetch a finished shard's transient failures again and merge what now succeeds; when a
    row was recovered, the later stages of that shard lose their done markers, so the next run
    redoes them."""
    from negdata.ingest.stage import retry_failed

    ingest = STAGES[0]
    if not stage_done(cfg, ingest, shard):
        raise ValueError(f"shard {shard_name(shard)} has not been ingested with this config")

    def forget_later_stages() -> None:
        for stage in STAGES[1:]:
            stats_path(cfg.run.output_dir / stage.directory, shard).unlink(missing_ok=True)

    return retry_failed(cfg, shard, stage_hash(cfg, ingest), forget_later_stages)


def pending(cfg: Config, shards: list[int]) -> list[tuple[Stage, int]]:
    return [(st, s) for s in shards for st in STAGES if not stage_done(cfg, st, s)]


def check_before_run(cfg: Config, shards: list[int], stages: tuple[Stage, ...] = STAGES) -> None:
    """Refuse in one line, before any work starts, what would fail the run later
    (``negdata.preflight``): checked for what ``stages`` still have to do on ``shards``."""
    preflight.check_output_dir(cfg)  # first: reading the done markers needs the folder
    todo = {stage.name for stage, _ in pending(cfg, shards) if stage in stages}
    if "detect" in todo:
        preflight.check_detect_inputs(cfg)
    if cfg.llm.local and any(stage.uses_llm(cfg) for stage in stages if stage.name in todo):
        preflight.check_local_llm(cfg)
    if "publish" in todo:
        preflight.check_parser()


@contextlib.contextmanager
def leased(cfg: Config, shard: int) -> Iterator[bool]:
    """Hold the shard's lease (``negdata.leases``) for the block: True, or False when another
    live run is working on the shard, which this run then leaves alone (and says so)."""
    lease = ShardLease(cfg.run.output_dir, shard, cfg.run.lease_ttl_s)
    try:
        lease.hold()
    except LeaseHeld as held:
        log.warning("%s: skipped here", held)
        yield False
        return
    try:
        _sweep_unfinished(cfg, shard)
        yield True
    finally:
        lease.let_go()


def _sweep_unfinished(cfg: Config, shard: int) -> None:
    """Remove the temporary files a killed or stopped run left for this shard: whoever holds
    its lease is the only one writing them. (On an object store nothing is written before
    an upload, so nothing is left.)"""
    out = cfg.run.output_dir
    if is_remote(out):
        return
    name = shard_name(shard)
    folders = {out / st.directory for st in STAGES} | set(layout.folders(out))
    for folder in folders:
        for tmp in folder.glob(f".{name}*.tmp"):
            tmp.unlink(missing_ok=True)


def _json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, indent=2, sort_keys=True) + "\n"


def llm_efficiency(per_stage: dict[str, dict[str, int]], published: Counter[str]) -> dict[str, Any]:
    """What the LLM work cost per image and per accepted sample, whether paid in this output
    directory's runs or reused from the response cache (tokens of both kinds count)."""
    llm_stages = [per_stage.get(name, {}) for name in ("plan", "compose", "publish")]
    failures = get_args(FailureReason)
    calls = sum(
        st.get("llm_succeeded", 0) + sum(st.get(f, 0) for f in failures) for st in llm_stages
    )
    requests = sum(st.get("llm_requests", 0) for st in llm_stages)
    hits = sum(st.get("llm_cache_hits", 0) for st in llm_stages)
    tokens = sum(
        st.get("llm_prompt_tokens", 0) + st.get("llm_completion_tokens", 0)
        + st.get("llm_reused_tokens", 0)
        for st in llm_stages
    )  # fmt: skip
    images = per_stage.get("plan", {}).get("count", 0)
    captions = published.get("captions_by_generator.llm", 0)
    mcqs = per_stage.get("publish", {}).get("mcq", 0)
    return {
        "calls": calls,
        "calls_per_image": _ratio(calls, images),
        "tokens": tokens,
        "tokens_per_image": _ratio(tokens, images),
        "tokens_per_accepted_llm_caption": _ratio(tokens, captions),
        "tokens_per_accepted_mcq": _ratio(tokens, mcqs),
        "cache_hit_rate": _ratio(hits, hits + requests, 4),
    }


def _ratio(a: int, b: int, digits: int = 2) -> float | None:
    return round(a / b, digits) if b else None


def _published_captions(cfg: Config, shards: list[int]) -> Iterator[PublishedCaption]:
    """Published captions, shard by shard, up to ``DIVERSITY_SAMPLE`` of them."""
    every = (
        record
        for shard in shards
        for record in layout.published_captions(cfg.run.output_dir, shard_name(shard))
    )
    return islice(every, DIVERSITY_SAMPLE)


def published_shards(cfg: Config) -> list[int]:
    """Every shard whose publish stage has finished in this output directory."""
    return sorted(
        int(p.name.split("_")[0])
        for p in (cfg.run.output_dir / layout.MARKERS).glob("*_stats.json")
    )


def done_markers(cfg: Config) -> dict[str, int]:
    """How many shards each stage has a done marker for in the output folder (any config)."""
    out = cfg.run.output_dir
    return {st.name: sum(1 for _ in (out / st.directory).glob("*_stats.json")) for st in STAGES}


def summarize(cfg: Config, *, write: bool = True) -> dict[str, Any]:
    """Merge the per-shard stats of every published shard; with ``write``, into stats.json
    and each split's sizes.json too, then the data card and report (the end of a run;
    ``negdata summary`` only reads)."""
    out = cfg.run.output_dir
    shards = published_shards(cfg)
    per_stage: dict[str, dict[str, Any]] = {}
    rejects: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for stage in STAGES:
        merged: Counter[str] = Counter()
        for shard in shards:
            stats = read_stats(out / stage.directory, shard) or {}
            for key, value in stats.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    merged[key] += value
                elif isinstance(value, dict) and key in (
                    "captions_by_generator",
                    "mcq_templates",
                    "captions_by_style",
                    "mcq_correct_positions",
                    "images_by_split",
                    "captions_by_split",
                    "mcq_by_split",
                ):
                    totals.update({f"{key}.{k}": v for k, v in value.items()})
            if stage.name == "publish":
                rejects.update(stats.get("rejects") or {})
        per_stage[stage.name] = dict(sorted(merged.items()))
    summary = {
        "shards": shards,
        "stages": per_stage,
        "rejects_by_reason": dict(sorted(rejects.items())),
        "published": dict(sorted(totals.items())),
        "llm": llm_efficiency(per_stage, totals),
        "diversity": diversity(_published_captions(cfg, shards)),
        "negdata_version": __version__,
        "llm_model": cfg.llm.model,
    }
    if not write:
        return summary
    images = {
        s: (read_stats(out / layout.MARKERS, s) or {}).get("images_by_split", {}) for s in shards
    }
    with_tars = []
    for split in SPLITS:
        # open_clip's sample counts: the split's tars, which exist where a shard has images.
        sizes = {f"{shard_name(s)}.tar": n[split] for s, n in images.items() if n.get(split)}
        if sizes:
            write_if_changed(layout.sizes_path(out, split), _json(sizes))
            with_tars.append(split)
        else:
            layout.sizes_path(out, split).unlink(missing_ok=True)
    if with_tars:
        write_if_changed(layout.card_path(out), layout.negcap_card(with_tars))
    write_if_changed(out / "stats.json", _json(summary))
    write_docs(cfg, summary)
    return summary


def write_docs(cfg: Config, summary: dict[str, Any]) -> None:
    """The data card (README.md) and report.html of the output folder, from its summary."""
    from negdata.publish.run_docs import write_run_docs

    write_run_docs(cfg, summary, DIVERSITY_SAMPLE)
