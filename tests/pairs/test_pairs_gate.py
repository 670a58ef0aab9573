"""The gates a NegPair's captions pass: hand-written caption pairs, no LLM."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from negdata.compose.templates import pair_captions
from negdata.config import Config, load_config
from negdata.detect.lexicon import Lexicon, run_lexicon
from negdata.pairs.gate import Image, pair_problem
from negdata.records import known_evidence
from negdata.verify import box_counts, evidence_verdicts

VOCABULARY = ("person", "tie", "dog", "bench")


@pytest.fixture
def cfg(tmp_path: Path) -> Config:
    raw = {
        "run": {"output_dir": str(tmp_path / "out")},
        "input": {"path": str(tmp_path / "unused.tsv")},
        "detect": {"sources": [{"kind": "labels", "path": str(tmp_path / "unused.json")}]},
    }
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return load_config(path)


def _images(cfg: Config) -> tuple[tuple[Image, Image], Lexicon]:
    """A: one person wearing a tie; B: one person, no tie (nor dog, nor bench)."""
    a = known_evidence("a", {"person": 1, "tie": 1}, VOCABULARY, "oracle")
    b = known_evidence("b", {"person": 1}, VOCABULARY, "oracle")
    lexicon = run_lexicon(cfg.detect.vocabulary, [a, b])
    images = tuple(
        Image(evidence_verdicts(ev, lexicon, cfg.detect), box_counts(ev, cfg.detect))
        for ev in (a, b)
    )
    return (images[0], images[1]), lexicon


def test_a_true_pair_of_captions_is_published(cfg: Config) -> None:
    images, lexicon = _images(cfg)
    found = pair_problem(
        "A person standing outside, wearing a tie.",
        "A person standing outside, with no tie.",
        "tie",
        images,
        cfg,
        lexicon,
    )
    assert found is None


@pytest.mark.parametrize(
    ("caption_a", "caption_b", "reason"),
    [
        # B's caption says the tie is there: it is not
        ("A person wearing a tie.", "A person with a tie.", "pair_without_not_negated"),
        # A's caption says the tie is missing: it is there
        ("A person with no tie.", "A person with no tie.", "pair_with_not_affirmed"),
        # A's caption affirms the tie, and a dog that is not there
        ("A person wearing a tie, with a dog.", "A person with no tie.", "pair_with_not_true"),
        # B's caption negates the tie, and the person who is there
        ("A person wearing a tie.", "There is no person and no tie.", "pair_without_not_true"),
        # a chat reply's residue, before any truth is asked
        ("Sure! A person wearing a tie.", "A person with no tie.", "pair_text_prompt_residue"),
    ],
)
def test_a_false_caption_drops_the_pair_with_its_reason(
    cfg: Config, caption_a: str, caption_b: str, reason: str
) -> None:
    images, lexicon = _images(cfg)
    found = pair_problem(caption_a, caption_b, "tie", images, cfg, lexicon)
    assert found is not None and found[0] == reason, found


@pytest.mark.parametrize("variant", range(3))
def test_every_template_frame_writes_a_pair_the_gates_publish(cfg: Config, variant: int) -> None:
    """The stand-in captions (``compose.template_fallback``) are held to the same gates, and
    each frame passes them where its words are true."""
    images, lexicon = _images(cfg)
    with_tie, without_tie = pair_captions("tie", ["person"], ["person"], variant)
    assert pair_problem(with_tie, without_tie, "tie", images, cfg, lexicon) is None
    assert pair_problem(without_tie, with_tie, "tie", images, cfg, lexicon) is not None
