"""A NegPair's two captions: one LLM call per pair (``prompts/pair.yaml``), both gated.

The request names the object X, the objects both images show and each image's original caption
(cleaned of what describes no picture, as compose cleans it). It goes through the run's LLM
client, batching and response cache (``llm_cache/pairs/``, keyed by the pair id), so a rerun
after a crash asks nothing again. The paired images' evidence and ingest rows are copied once
into a temporary store (``negdata.pairs.store``) and the pairs captioned ``BLOCK`` at a time,
so memory stays flat however many pairs a run has. A pair is published only when both
captions pass ``negdata.pairs.gate``; with ``compose.template_fallback`` a template's pair of
captions, gated the same way, stands in for the LLM's where those fail (report impressions for
a clinical vocabulary, whose prompt is ``prompts/pair_clinical.yaml``); every other pair is a
counted ``Reject``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from hashlib import sha256
from typing import Any, Literal

from negdata.clip_text import shorten
from negdata.compose.alt_text import clean_alt_text
from negdata.compose.captions import ALT_TEXT_TOKENS
from negdata.compose.clinical import clinical_pair_captions
from negdata.compose.schemas import PairCaptionsOutput
from negdata.compose.templates import pair_captions
from negdata.config import Config, SplitFractions
from negdata.detect.lexicon import Lexicon, labels_lexicon
from negdata.detect.vocab import CLINICAL_VOCABULARIES
from negdata.english import counted, natural, with_article
from negdata.llm import merge_counters, run_structured
from negdata.llm.cache import shard_cache
from negdata.llm.prompts import Prompt, few_shot_shift, load_prompt
from negdata.pairs.gate import Image, pair_problem
from negdata.pairs.mine import Pair
from negdata.pairs.store import Stored, paired_images
from negdata.publish.splits import split_of
from negdata.records import NegPairRecord, Reject, Split
from negdata.shards import Location
from negdata.verify import box_counts, evidence_verdicts

PROMPT = "pair"
CLINICAL_PROMPT = "pair_clinical"  # report impressions, for a clinical vocabulary
BLOCK = 10_000  # pairs captioned at a time: what is held is one block's images
CACHE = "pairs"  # the response cache's folder under llm_cache/
STAGE = "pairs"


@dataclass(frozen=True)
class Captioned:
    """What captioning made of the mined pairs: the published ones, in mining order, the
    dropped ones with their reasons, the LLM counters (``llm_requests``, ``llm_cache_hits``
    ...), and, with ``compose.template_fallback``, the pairs whose captions a template wrote
    where the LLM's failed (``compose.templates.pair_captions``, gated the same way)."""

    published: list[NegPairRecord]
    rejects: list[Reject]
    llm: dict[str, int]
    templates: dict[str, int]  # pairs a template wrote, by why the LLM's captions failed


def pair_prompt(cfg: Config) -> Prompt:
    clinical = cfg.detect.vocabulary in CLINICAL_VOCABULARIES
    return load_prompt(cfg.compose.prompts_dir, CLINICAL_PROMPT if clinical else PROMPT)


def pair_split(pair: Pair, hashes: Mapping[str, str | None], fractions: SplitFractions) -> Split:
    """Both images' split: that of the smaller of their two sha256 (``publish.splits``, as
    publish splits images), so a pair is never cut in two. An image with no sha256 (a run
    folder of evidence alone) stands in with the sha256 of its key."""

    def digest(key: str) -> str:
        return hashes.get(key) or sha256(key.encode()).hexdigest()

    return split_of(min(digest(pair.a.key), digest(pair.b.key)), fractions)


def _shared(pair: Pair) -> list[str]:
    return sorted((pair.a.present - {pair.object}) & pair.b.present)


def each_counted(pair: Pair, images: Mapping[str, Image]) -> tuple[list[str], list[str]]:
    """The objects both images show, but X, as each image's own boxes count them."""
    a, b = (images[side.key].boxes for side in (pair.a, pair.b))
    shared = _shared(pair)
    return [counted(n, a.get(n)) for n in shared], [counted(n, b.get(n)) for n in shared]


def shared_objects(pair: Pair, images: Mapping[str, Image]) -> list[str]:
    """The objects both images show, but X, as a caption of either names them: counted
    ("people") where both images' boxes agree on the count, else the plain name."""
    named = zip(_shared(pair), *each_counted(pair, images), strict=True)
    return [a if a == b else natural(label) for label, a, b in named]


def caption_pairs(
    cfg: Config, evidence_dir: Location, pairs: Sequence[Pair], config_hash: str
) -> Captioned:
    """One LLM call per pair, then the gates, ``BLOCK`` pairs at a time; see the module's
    docstring."""
    prompt = pair_prompt(cfg)
    sides = [(side.shard, side.key) for pair in pairs for side in (pair.a, pair.b)]
    done = Captioned([], [], {}, {})
    with (
        paired_images(cfg.run.output_dir, evidence_dir, sides) as stored,
        shard_cache(cfg, CACHE) as cache,
    ):
        lexicon = labels_lexicon(cfg.detect.vocabulary, stored.labels)  # the whole run's
        for start in range(0, len(pairs), BLOCK):
            block = pairs[start : start + BLOCK]
            images = stored.read(key for pair in block for key in (pair.a.key, pair.b.key))
            part = _caption_block(cfg, prompt, block, images, lexicon, cache, config_hash)
            done.published.extend(part.published)
            done.rejects.extend(part.rejects)
            done.llm.update(merge_counters(done.llm, part.llm))
            done.templates.update(merge_counters(done.templates, part.templates))
    return replace(done, templates=dict(sorted(done.templates.items())))


def _caption_block(
    cfg: Config,
    prompt: Prompt,
    pairs: Sequence[Pair],
    stored: Mapping[str, Stored],
    lexicon: Lexicon,
    cache: Any,
    config_hash: str,
) -> Captioned:
    images = {  # each image's verdicts and boxes, once however many pairs it is in
        key: Image(
            verdicts=evidence_verdicts(image.evidence, lexicon, cfg.detect),
            boxes=box_counts(image.evidence, cfg.detect),
            original=image.caption,
        )
        for key, image in stored.items()
    }

    def original(key: str) -> str:
        cleaned = clean_alt_text(images[key].original, lexicon)
        return shorten(cleaned, context_length=ALT_TEXT_TOKENS) if cleaned else ""

    def messages(pair: Pair) -> list[dict[str, str]]:
        return prompt.messages(
            few_shot_shift(cfg, pair.id),
            object=natural(pair.object),
            a_object=with_article(pair.object),
            shared=", ".join(shared_objects(pair, images)) or "(nothing else)",
            caption_a=original(pair.a.key) or "(none)",
            caption_b=original(pair.b.key) or "(none)",
        )

    results, llm = run_structured(
        cfg.llm,
        pairs,
        messages,
        PairCaptionsOutput,
        desc="pair captions",
        cache=cache,
        key=lambda pair: pair.id,
    )
    hashes = {key: image.sha256 for key, image in stored.items()}
    published: list[NegPairRecord] = []
    rejects: list[Reject] = []
    stood_in: Counter[str] = Counter()
    for pair, result in zip(pairs, results, strict=True):
        record = pair.record()
        both = (images[pair.a.key], images[pair.b.key])
        if result.value is None:
            problem: tuple[str, str] | None = (
                "pair_llm_failed",
                f"{result.reason}: {result.detail or ''}",
            )
        else:
            caption_a = result.value.with_object.strip()
            caption_b = result.value.without_object.strip()
            problem = pair_problem(caption_a, caption_b, pair.object, both, cfg, lexicon)
        generator: Literal["llm", "template"] = "llm"
        if problem is not None and cfg.compose.template_fallback:
            variant = random.Random(f"{cfg.run.seed}:{record.pair_id}:frame").randrange(1 << 16)
            if cfg.detect.vocabulary in CLINICAL_VOCABULARIES:
                caption_a, caption_b = clinical_pair_captions(pair.object, _shared(pair), variant)
            else:
                caption_a, caption_b = pair_captions(
                    pair.object, *each_counted(pair, images), variant
                )
            if pair_problem(caption_a, caption_b, pair.object, both, cfg, lexicon) is None:
                stood_in[problem[0]] += 1
                problem, generator = None, "template"
        if problem is not None:
            reason, text = problem
            rejects.append(Reject(stage=STAGE, key=record.pair_id, reason=reason, detail=text))
            continue
        published.append(
            NegPairRecord(
                **record.model_dump(),
                caption_a=caption_a,
                caption_b=caption_b,
                generator=generator,
                prompt=prompt.ref if generator == "llm" else None,
                model=result.model if generator == "llm" else None,
                config_hash=config_hash,
                split=pair_split(pair, hashes, cfg.publish.splits),
            )
        )
    return Captioned(published, rejects, llm, dict(sorted(stood_in.items())))


def caption_stats(captioned: Captioned, prompt_ref: str) -> dict[str, Any]:
    """The ``captions`` entry of ``pairs/stats.json``."""
    dropped: dict[str, int] = {}
    for reject in captioned.rejects:
        dropped[reject.reason] = dropped.get(reject.reason, 0) + 1
    return {
        "published": len(captioned.published),
        "dropped": dict(sorted(dropped.items())),
        "template": captioned.templates,
        "prompt": prompt_ref,
        **dict(sorted(captioned.llm.items())),
    }
