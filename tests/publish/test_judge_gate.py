"""The optional judge gate in publish, against the real vLLM server: nothing is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from negdata.config import Config, LLMConfig
from negdata.detect.lexicon import lexicon_for
from negdata.publish.stage import judge_captions
from negdata.records import CaptionRecord


def _caption(key: str, text: str, negated: str) -> CaptionRecord:
    return CaptionRecord(
        key=key,
        image_key=key.split("_")[0],
        caption=text,
        negated=negated,
        negated_label=negated,
        style="affirmation_first",
        generator="template",
        original_caption="a photo",
        affirmed=[],
        prompt=None,
        model=None,
        config_hash="h",
    )


@pytest.mark.slow
def test_judge_keeps_or_rejects_every_caption_with_a_reason(vllm_server: LLMConfig) -> None:
    cfg = Config.model_validate(
        {
            "input": {"path": "unused.tsv"},
            "detect": {"sources": [{"kind": "labels", "path": "unused.json"}]},
            "compose": {"prompts_dir": str(Path("prompts").resolve())},
            "validation": {"judge": True},
            "llm": {**vllm_server.model_dump(mode="json"), "local": False},
        }
    )
    captions = [
        _caption("000000000_0", "A red bus on the street, but there is no dog.", "dog"),
        _caption("000000001_0", "There is no cat on the sofa; a laptop rests on it.", "cat"),
        _caption("000000002_0", "A kitchen with an oven and no microwave.", "microwave"),
    ]
    kept, rejects, llm = judge_captions(cfg, captions, lexicon_for("coco"))
    assert sorted([c.key for c in kept] + [r.key for r in rejects]) == [c.key for c in captions]
    assert all(r.reason == "judge_disagrees" and r.stage == "judge" for r in rejects)
    assert llm["llm_succeeded"] + llm.get("llm_invalid_output", 0) == len(captions)
