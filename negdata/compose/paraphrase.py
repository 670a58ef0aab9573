"""Optional MCQ paraphrase (one LLM call per question); a paraphrase must keep every polarity
and add no claim the gates would refuse: a noun nothing accounts for, text about the text, one
object called another."""

from __future__ import annotations

from typing import Any

from negdata.compose.schemas import ParaphraseOutput
from negdata.config import Config
from negdata.detect.lexicon import Lexicon
from negdata.llm import Batch, LLMResult
from negdata.llm.prompts import few_shot_shift, load_prompt
from negdata.records import McqRecord
from negdata.validate.claims import meta_text
from negdata.validate.gates import nonsense
from negdata.validate.negation import analyze
from negdata.validate.nouns import unaccounted_nouns


def options_of(mcq: McqRecord) -> list[str]:
    return [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]


def apply_paraphrase(
    mcq: McqRecord, paraphrases: list[str] | None, lexicon: Lexicon, prompt_ref: str
) -> McqRecord:
    """Take each paraphrased option only if it keeps every object's polarity, stays distinct and
    adds nothing ``mcq_gate`` refuses ("on a wooden shelf", "as in the images above", "the dog
    is a lion"); otherwise that option keeps its template text, and the question is not lost.
    Records which options were paraphrased."""
    templates = options_of(mcq)
    chosen, used = list(templates), [False] * 4
    for i, (template, new) in enumerate(zip(templates, paraphrases or [], strict=False)):
        new = new.strip()
        if not new or new.lower() in {c.lower() for c in chosen}:
            continue
        if analyze(new, lexicon) == analyze(template, lexicon) and not _adds_claims(new, lexicon):
            chosen[i], used[i] = new, True
    return mcq.model_copy(
        update={
            **{f"caption_{i}": text for i, text in enumerate(chosen)},
            "template_options": templates,
            "paraphrased": used,
            "prompt": prompt_ref if any(used) else None,
        }
    )


def _adds_claims(option: str, lexicon: Lexicon) -> bool:
    return bool(
        meta_text(option) or nonsense(option, lexicon) or unaccounted_nouns(option, "", lexicon)
    )


def paraphrase_batch(cfg: Config, mcqs: list[McqRecord], desc: str) -> Batch[McqRecord, Any]:
    """One call per question, asking for all four options paraphrased."""
    prompt = load_prompt(cfg.compose.prompts_dir, "paraphrase")

    def messages(mcq: McqRecord) -> list[dict[str, str]]:
        options = {f"option_{i}": o for i, o in enumerate(options_of(mcq))}
        return prompt.messages(few_shot_shift(cfg, mcq.image_key), **options)

    return Batch(mcqs, messages, ParaphraseOutput, desc, key=lambda mcq: mcq.key)


def apply_paraphrases(
    cfg: Config, mcqs: list[McqRecord], results: list[LLMResult[Any]], lexicon: Lexicon
) -> list[McqRecord]:
    """Each question with the paraphrases that keep every polarity (see ``apply_paraphrase``)."""
    ref = load_prompt(cfg.compose.prompts_dir, "paraphrase").ref
    return [
        apply_paraphrase(mcq, r.value.options if r.value else None, lexicon, ref)
        for mcq, r in zip(mcqs, results, strict=True)
    ]
