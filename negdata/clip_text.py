"""Captions that fit CLIP's text context: 77 BPE tokens, start and end of text included.

CLIP's tokenizer truncates what does not fit, so a negation past token 77 is never seen in
training. Tokens are counted with open_clip's own tokenizer (its BPE vocabulary ships inside the
package), the one open_clip's trainer uses on our WebDataset captions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from open_clip.tokenizer import SimpleTokenizer

CONTEXT_LENGTH = 77
# Where a caption may be cut: after a clause's comma, semicolon, colon, dash or sentence end.
_CLAUSE_END = re.compile(r"(?<=[,;:.!?])\s+|\s+(?=[-\u2013\u2014]\s)")


@cache
def _tokenizer() -> SimpleTokenizer:
    from open_clip.tokenizer import SimpleTokenizer  # imports torch: only when counting

    return SimpleTokenizer()


def clip_tokens(text: str) -> int:
    """How many of CLIP's context positions ``text`` takes, start and end tokens included."""
    return len(_tokenizer().encode(text)) + 2


def fits_clip(text: str, context_length: int = CONTEXT_LENGTH) -> bool:
    return clip_tokens(text) <= context_length


def clauses(text: str) -> list[str]:
    """``text`` cut at clause boundaries, punctuation kept with the clause before it and a dash
    with the clause after it: joined with spaces, the clauses give ``text`` back."""
    return [c for c in _CLAUSE_END.split(text.strip()) if c]


def shorten(
    text: str,
    render: Callable[[str], str] = str,
    context_length: int = CONTEXT_LENGTH,
) -> str:
    """``render(kept)`` for the longest ``kept`` that is ``text`` without trailing clauses and
    whose rendering fits ``context_length``; "" when not even the first clause fits."""
    parts = clauses(text)
    while parts:
        rendered = render(" ".join(parts).rstrip(" ,;:-\u2013\u2014"))
        if fits_clip(rendered, context_length):
            return rendered
        parts.pop()
    return ""
