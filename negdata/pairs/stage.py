"""``negdata pairs``: mine a run's NegPairs from its evidence, once per config and evidence.

Writes ``pairs/pairs.parquet`` (``PairRecord`` rows: every mined pair), with ``pairs.captions``
``pairs/negpairs.parquet`` (``NegPairRecord`` rows: the pairs whose two LLM captions passed the
gates), the same pairs as split datasets (``negdata.pairs.publish``) and
``pairs/rejects.parquet`` (the others, each with its reason), then
``pairs/stats.json``, the done marker: it records a hash of the ``pairs`` settings, the detect
stage's hash and the shards whose evidence was read (and, with captions, the prompt, the LLM
settings that change its answers and the gates' settings), so a rerun over the same evidence
skips and a changed setting redoes.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from typing import Any

from negdata import __version__
from negdata.config import Config
from negdata.llm import check_server_kind, llm_server
from negdata.pairs.captions import caption_pairs, caption_stats, pair_prompt
from negdata.pairs.images import indexed_jpegs
from negdata.pairs.labels import read_labels
from negdata.pairs.layout import FOLDER, NEGPAIRS_FILE, PAIRS_FILE, REJECTS_FILE, STATS_FILE
from negdata.pairs.mine import histogram, mine
from negdata.pairs.neighbours import Neighbours, load_vectors, saved_nearest
from negdata.pairs.publish import clear_published, publish_pairs
from negdata.records import NegPairRecord, PairRecord, Reject, write_parquet
from negdata.shards import Location, is_done, shards_with_stats, write_json_atomic
from negdata.stages import STAGES, llm_outputs, stage_hash
from negdata.validate.parser import parser_info

log = logging.getLogger(__name__)


def pairs_hash(cfg: Config, detect_hash: str, shards: list[int]) -> str:
    payload: dict[str, Any] = {
        "pairs": cfg.section_hash("pairs"),
        "detect": detect_hash,
        "shards": shards,
    }
    if cfg.pairs.captions:  # what else the captions depend on
        payload["captions"] = {
            "prompt": pair_prompt(cfg).ref,
            "llm": llm_outputs(cfg),
            "gates": cfg.compose.model_dump(
                mode="json", include={"max_caption_chars", "max_unaccounted_nouns"}
            ),
            "seed": cfg.run.seed,
            "splits": cfg.publish.splits.model_dump(mode="json"),
            "negdata": __version__,
            "parser": parser_info().digest,  # the noun gate reads through the parser
        }
    return _digest(payload)


def _digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]


def _previous(stats_file: Location) -> dict[str, Any] | None:
    try:
        found: dict[str, Any] = json.loads(stats_file.read_text())
    except FileNotFoundError:
        return None
    return found


def _similarity_stats(
    cfg: Config, neighbours: Neighbours | None, kept: list[float | None], reused: bool
) -> dict[str, Any]:
    """With an encoder: the index (and whether an earlier run's neighbours were reused), the
    similarity cut, and the histograms of the kept pairs' similarity and of every image's
    nearest neighbour's (what a lower cut would let in)."""
    if neighbours is None:
        return {"encoder": None}
    first = neighbours.similarity[:, :1].reshape(-1)
    return {
        "encoder": cfg.detect.encoder.model_dump(mode="json") if cfg.detect.encoder else None,
        "index": neighbours.index,
        "neighbours_reused": reused,
        "neighbours": cfg.pairs.neighbours,
        "min_similarity": cfg.pairs.min_similarity,
        "similarity_histogram": histogram(value for value in kept if value is not None),
        "nearest_similarity_histogram": histogram(float(v) for v in first),
    }


def run_pairs(cfg: Config) -> dict[str, Any]:
    """Mine the pairs of every shard whose evidence this config's detect stage finished; return
    the stats (those of the earlier run, with ``skipped``, when nothing changed)."""
    out = cfg.run.output_dir
    detect = next(stage for stage in STAGES if stage.name == "detect")
    evidence_dir = out / detect.directory
    detect_hash = stage_hash(cfg, detect)
    markers = shards_with_stats(evidence_dir)
    shards = [s for s in markers if is_done(evidence_dir, s, detect_hash)]
    stale = sorted(set(markers) - set(shards))
    if not shards:
        raise ValueError(
            f"{evidence_dir}: no shard's evidence was made with this config's detect settings "
            f"({len(stale)} made with others): run the detect stage first "
            "(negdata stage detect --shards ...)"
        )
    if stale:
        log.warning("pairs: %d shards' evidence is from other detect settings", len(stale))
    folder = out / FOLDER
    config_hash = pairs_hash(cfg, detect_hash, shards)
    previous = _previous(folder / STATS_FILE)
    if previous is not None and previous.get("config_hash") == config_hash:
        log.info("pairs: done already for these settings and evidence (%s)", folder)
        return {**previous, "skipped": True}
    images = list(read_labels(evidence_dir, shards, cfg.detect.vocabulary, cfg.detect))
    neighbours, reused = None, False
    if cfg.detect.encoder is not None:
        settings = cfg.pairs.model_dump(include={"neighbours", "exact_up_to", "nprobe"})
        neighbours, reused = saved_nearest(
            folder,
            _digest({"detect": detect_hash, "shards": shards, **settings}),
            lambda: load_vectors(evidence_dir, images),
            cfg.pairs.neighbours,
            cfg.pairs.exact_up_to,
            cfg.pairs.nprobe,
        )
    similar = None if neighbours is None else (neighbours, cfg.pairs.min_similarity)
    kept, dropped = mine(images, cfg.pairs.min_overlap, cfg.pairs.max_per_image, similar)
    rows = write_parquet(folder / PAIRS_FILE, PairRecord, (pair.record() for pair in kept))
    captions: dict[str, Any] | None = None
    if cfg.pairs.captions:
        with llm_server(cfg.llm) as answering:  # llm.local: started here, as the flow does
            check_server_kind(cfg.llm, answering)
            captioned = caption_pairs(cfg, evidence_dir, kept, config_hash)
        write_parquet(folder / NEGPAIRS_FILE, NegPairRecord, captioned.published)
        write_parquet(folder / REJECTS_FILE, Reject, captioned.rejects)
        sides = [(p.shard_a, p.key_a) for p in captioned.published]
        sides += [(p.shard_b, p.key_b) for p in captioned.published]
        with indexed_jpegs(out, sides) as jpegs:
            splits = publish_pairs(folder, captioned.published, jpegs)
        captions = {**caption_stats(captioned, pair_prompt(cfg).ref), "splits": splits}
        log.info(
            "pairs: %d of %d published with both captions (dropped: %s)",
            captions["published"],
            rows,
            ", ".join(f"{reason} {n}" for reason, n in captions["dropped"].items()) or "none",
        )
    else:
        clear_published(folder)
    stats: dict[str, Any] = {
        "shards": len(shards),
        "shards_left_out": stale,
        "images": len(images),
        "images_with_two_objects": sum(1 for image in images if len(image.present) >= 2),
        "pairs": rows,
        "images_in_pairs": len({p.a.key for p in kept} | {p.b.key for p in kept}),
        "objects": dict(sorted(Counter(pair.object for pair in kept).items())),
        "dropped": dropped,
        "overlap_histogram": histogram(pair.overlap for pair in kept),
        "min_overlap": cfg.pairs.min_overlap,
        "max_per_image": cfg.pairs.max_per_image,
        **_similarity_stats(cfg, neighbours, [pair.similarity for pair in kept], reused),
        "config_hash": config_hash,
    }
    if captions is not None:
        stats["captions"] = captions
    write_json_atomic(folder / STATS_FILE, stats)  # last: the done marker
    log.info(
        "pairs: %d from %d images of %d shards (dropped: %s)",
        rows,
        len(images),
        len(shards),
        ", ".join(f"{reason} {n}" for reason, n in dropped.items()),
    )
    return stats
