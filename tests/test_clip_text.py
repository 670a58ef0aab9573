"""Captions fit CLIP's 77 text tokens, counted as open_clip's trainer will tokenize them."""

from __future__ import annotations

import open_clip
import pytest

from negdata.clip_text import CONTEXT_LENGTH, clauses, clip_tokens, fits_clip, shorten
from negdata.compose.templates import template_caption
from negdata.detect.lexicon import lexicon_for
from negdata.validate.negation import analyze

# A CC12M-like alt-text of well over 77 tokens, its clauses separated by commas.
LONG_ALT_TEXT = ", ".join(
    [
        "Beautiful young woman with long curly hair wearing a red summer dress",
        "walking along the sandy beach at sunset with her golden retriever",
        "holding a straw hat in her hand while the waves roll in behind her",
        "palm trees and a white lighthouse on the rocky cliff in the background",
        "seagulls flying over a small fishing village with colorful wooden houses",
        "travel and vacation concept for tourism brochures and websites",
    ]
)


def _eot_position(text: str) -> int | None:
    """Where open_clip puts the end-of-text token; None when it was truncated away."""
    tokens = open_clip.tokenize([text], context_length=CONTEXT_LENGTH)[0]
    eot = open_clip.get_tokenizer("ViT-B-32").eot_token_id
    hits = (tokens == eot).nonzero()
    return int(hits[0, 0]) if len(hits) else None


@pytest.mark.parametrize(
    "text",
    ["A red bus on a street, but there is no dog.", "No dog.", LONG_ALT_TEXT[:200]],
)
def test_counts_agree_with_open_clip(text: str) -> None:
    assert _eot_position(text) == clip_tokens(text) - 1


# Text that exercises open_clip's cleaning and word pattern: entities, mojibake, accents,
# digits, contractions, punctuation runs, emoji, scripts other than Latin, odd whitespace.
TRICKY = [
    "There&amp;#39;s no dog &lt;here&gt;, isn&#39;t it?",
    "CafÃ© crÃ¨me at the Ã©cole",
    "Café crème — naïve façade, 1999's 2,048 px!!!",
    "   two\tcats\n\nand   no   dogs...   ",
    "The dog's bowl; they'll see it, we've gone, I'm here, you'd know, it's not.",
    "😀 a smiling emoji 🐶 next to no cat",
    "東京の夜景 without any cars",
    "Ünïcödé ÀÉÎÕÜ ßtraße",
    "#hashtag @user https://example.com/a_b?c=d",
    "x" * 120,
]


def test_the_count_is_open_clips_on_tricky_text_and_every_template_caption() -> None:
    tokenizer = open_clip.tokenizer.SimpleTokenizer()
    captions = [
        template_caption(style, absent, present, LONG_ALT_TEXT[:length], variant)  # type: ignore[arg-type]
        for style in ("affirmation_first", "negation_first")
        for variant in range(5)
        for absent, present in (("cat", []), ("dog", ["bench", "bicycle"]), ("person", ["tie"]))
        for length in (0, 60, 200)
    ]
    for text in [*TRICKY, LONG_ALT_TEXT, *captions]:
        assert clip_tokens(text) == len(tokenizer.encode(text)) + 2, text


def test_a_caption_over_the_context_loses_its_end_in_open_clip() -> None:
    text = f"{LONG_ALT_TEXT}, but there is no cat."
    assert not fits_clip(text)
    tokens = open_clip.tokenize([text])[0]
    decoded = open_clip.decode(tokens)
    assert "cat" not in decoded.split()


def test_shorten_drops_trailing_clauses() -> None:
    assert " ".join(clauses(LONG_ALT_TEXT)) == LONG_ALT_TEXT
    short = shorten(LONG_ALT_TEXT, context_length=40)
    assert fits_clip(short, 40) and LONG_ALT_TEXT.startswith(short)
    assert short.count(",") < LONG_ALT_TEXT.count(",")
    assert shorten(LONG_ALT_TEXT, context_length=4) == ""


@pytest.mark.parametrize("style", ["affirmation_first", "negation_first"])
@pytest.mark.parametrize("variant", range(5))
def test_template_on_a_long_alt_text_fits_with_its_negation(style: str, variant: int) -> None:
    text = template_caption(style, "cat", [], LONG_ALT_TEXT, variant)  # type: ignore[arg-type]
    assert fits_clip(text)
    assert "Beautiful young woman" in text  # the first clauses stay
    assert analyze(text, lexicon_for("coco"))["cat"] == "negated"
    assert "cat" in open_clip.decode(open_clip.tokenize([text])[0]).split()
