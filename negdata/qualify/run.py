"""``negdata qualify``: a model through plan, compose and the publication gates on the shipped
images (``images.jsonl``), and what came of it.

The stages' own code runs (``plan_images``, ``compose_images``, ``select_captions``,
``select_mcqs``, the judge when ``validation.judge`` is on) with the config's settings, except
that no template stands in for a caption (the model's captions are what is measured) and no
reply is cached (every answer is the model's, now). Then each published caption and each option
of a published MCQ is held against the images' known objects (``truth.false_claims``).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence
from typing import get_args

from pydantic import BaseModel, computed_field

from negdata.compose.captions import compose_images
from negdata.compose.mcq import McqBalancer
from negdata.compose.plan import plan_images
from negdata.config import Config, LLMConfig
from negdata.detect.lexicon import run_lexicon
from negdata.llm.server import LLMServerError, check_server_kind, served_models
from negdata.publish.diversity import distinct_n, words
from negdata.publish.stage import (
    DUPLICATE,
    JUDGE_DISAGREES,
    judge_captions,
    select_captions,
    select_mcqs,
)
from negdata.qualify.images import VOCABULARY, load_images
from negdata.qualify.truth import false_captions, false_options
from negdata.records import Reject
from negdata.validate.gates import CaptionGate, CaptionReason, McqReason

log = logging.getLogger(__name__)

CONFIG_HASH = "qualify"  # stamped on the candidates, which are never published
STAGE = "qualify"  # names the progress bars and seeds the MCQs
EXAMPLES = 10  # false statements kept as examples


class GateRate(BaseModel):
    """One gate over the candidates: how many it refused (each candidate is refused by the
    first gate it fails), and the share it let through."""

    gate: str
    refused: int
    pass_rate: float | None


class Qualification(BaseModel):
    """What one model made of the shipped images."""

    config: str
    model: str
    endpoints: list[str]
    images: int
    plan_answered: int  # plan calls answered with a valid plan (one call per image)
    captions_requested: int  # one per verified-absent object the plan chose
    captions_written: int  # of those, the captions the model wrote: the gates' candidates
    captions_published: int
    caption_gates: list[GateRate]
    mcqs_built: int
    mcqs_published: int
    mcq_gates: list[GateRate]
    false_captions: int  # published captions the judge finds a false claim in
    mcq_options: int  # options of the published MCQs
    false_options: int  # options whose key (right or wrong) the judge finds untrue
    false_examples: list[str]
    prompt_tokens: int
    completion_tokens: int
    distinct_2: float | None  # distinct bigrams over all bigrams of the published captions
    duration_s: float

    @computed_field  # type: ignore[prop-decorator]
    @property
    def captions_per_image(self) -> float:
        return self.captions_published / self.images

    @computed_field  # type: ignore[prop-decorator]
    @property
    def mcqs_per_image(self) -> float:
        return self.mcqs_published / self.images

    @computed_field  # type: ignore[prop-decorator]
    @property
    def caption_pass_rate(self) -> float | None:
        return _share(self.captions_published, self.captions_written)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def mcq_pass_rate(self) -> float | None:
        return _share(self.mcqs_published, self.mcqs_built)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def false_captions_per_1000(self) -> float | None:
        share = _share(self.false_captions, self.captions_published)
        return None if share is None else 1000 * share

    @computed_field  # type: ignore[prop-decorator]
    @property
    def false_options_per_1000(self) -> float | None:
        share = _share(self.false_options, self.mcq_options)
        return None if share is None else 1000 * share

    @computed_field  # type: ignore[prop-decorator]
    @property
    def tokens_per_image(self) -> float:
        return (self.prompt_tokens + self.completion_tokens) / self.images


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def qualification_config(cfg: Config) -> Config:
    """``cfg`` as a qualification runs it: the shipped images' vocabulary, no template standing
    in for a caption of the model's, nothing cached."""
    return cfg.model_copy(
        update={
            "detect": cfg.detect.model_copy(update={"vocabulary": VOCABULARY}),
            "compose": cfg.compose.model_copy(update={"template_fallback": False}),
            "llm": cfg.llm.model_copy(update={"cache": False}),
        }
    )


def check_server(llm: LLMConfig, source: str) -> None:
    """Refuse in one line, naming the config ``source``, a server that does not answer, does
    not serve ``llm.model`` or is not of ``llm.server_kind``."""
    for url in llm.base_urls:
        try:
            served = served_models(url, llm.api_key)
        except LLMServerError as exc:
            hint = (
                f"start it with `negdata llm serve --config {source}`"
                if llm.local
                else "check llm.endpoint, or start the server"
            )
            raise LLMServerError(f"{source}: {exc}: {hint}") from None
        if llm.model not in served:
            raise LLMServerError(
                f"{source}: {url} serves {', '.join(served) or 'no model'}, not llm.model "
                f"{llm.model!r}"
            )
    check_server_kind(llm)


def _gate_rates(gates: Sequence[str], refused: list[Reject], candidates: int) -> list[GateRate]:
    """Every gate of ``gates`` (and any other reason found) with its refusals."""
    counts = Counter(r.reason for r in refused)
    return [
        GateRate(
            gate=gate,
            refused=counts[gate],
            pass_rate=_share(candidates - counts[gate], candidates),
        )
        for gate in dict.fromkeys([*gates, *counts])
    ]


def _tokens(*counters: dict[str, int]) -> tuple[int, int]:
    """Prompt and completion tokens the server reported, summed."""
    prompt = sum(c.get("llm_prompt_tokens", 0) for c in counters)
    return prompt, sum(c.get("llm_completion_tokens", 0) for c in counters)


def qualify(cfg: Config, source: str, first: int | None = None) -> Qualification:
    """Run the shipped images (the ``first`` of them, in file order, when given) through
    ``qualification_config(cfg)``'s model, whose server ``check_server`` has found answering;
    ``source`` names the config in the result."""
    started = time.monotonic()
    cfg = qualification_config(cfg)
    images = load_images()[:first]
    evidence = [image.evidence() for image in images]
    by_key = {e.key: e for e in evidence}
    truth = {image.key: image.objects for image in images}
    log.info("qualify %s (%s): %d images", cfg.llm.model, source, len(images))
    captions_of = {image.key: image.caption for image in images}
    records, _, plan_llm = plan_images(cfg, evidence, captions_of, f"{STAGE} plan")
    lexicon = run_lexicon(VOCABULARY, evidence)
    composed = compose_images(
        cfg,
        records,
        by_key,
        CONFIG_HASH,
        name=STAGE,
        lexicon=lexicon,
        balancer=McqBalancer(f"{cfg.run.seed}:{STAGE}:mcq"),
    )
    published, refused = select_captions(composed.captions, by_key, CaptionGate(cfg, lexicon))
    caption_gates: list[str] = [*get_args(CaptionReason), DUPLICATE]
    judge_llm: dict[str, int] = {}
    if cfg.validation.judge:
        caption_gates.append(JUDGE_DISAGREES)
        if published:
            published, judged, judge_llm = judge_captions(cfg, published, lexicon)
            refused += judged
    mcqs, mcq_refused = select_mcqs(cfg, composed.mcqs, by_key, lexicon)
    wrong_captions = false_captions(published, truth, lexicon)
    wrong_options = false_options(mcqs, truth, lexicon)
    prompt_tokens, completion_tokens = _tokens(plan_llm, composed.llm, judge_llm)
    result = Qualification(
        config=source,
        model=cfg.llm.model,
        endpoints=cfg.llm.base_urls,
        images=len(images),
        plan_answered=plan_llm.get("llm_succeeded", 0),
        captions_requested=composed.captions_requested,
        captions_written=len(composed.captions),
        captions_published=len(published),
        caption_gates=_gate_rates(caption_gates, refused, len(composed.captions)),
        mcqs_built=len(composed.mcqs),
        mcqs_published=len(mcqs),
        mcq_gates=_gate_rates(get_args(McqReason), mcq_refused, len(composed.mcqs)),
        false_captions=len(wrong_captions),
        mcq_options=4 * len(mcqs),
        false_options=len(wrong_options),
        false_examples=(wrong_captions + wrong_options)[:EXAMPLES],
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        distinct_2=distinct_n((words(c.caption) for c in published), 2),
        duration_s=round(time.monotonic() - started, 1),
    )
    log.info(
        "qualify %s: %d of %d captions and %d of %d MCQs published in %.0f s",
        result.model, result.captions_published, result.captions_written,
        result.mcqs_published, result.mcqs_built, result.duration_s,
    )  # fmt: skip
    return result
