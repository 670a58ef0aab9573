"""Captions that fit CLIP's text context: 77 BPE tokens, start and end of text included.

CLIP's tokenizer truncates what does not fit, so a negation past token 77 is never seen in
training. Tokens are counted as open_clip's trainer will tokenize our WebDataset captions: its
text cleaning (ftfy, HTML entities, whitespace, lower case), its word pattern and the BPE merges
that ship inside the open_clip package. The counting is done here, not by open_clip's
``SimpleTokenizer``, because importing open_clip imports torch and torchvision, seconds in every
process that composes or publishes; tests check that both count alike.
"""

from __future__ import annotations

import gzip
import html
import itertools
import re
from collections.abc import Callable
from functools import cache, lru_cache

import ftfy
import regex

from negdata.sample import package_file

CONTEXT_LENGTH = 77
# Where a caption may be cut: after a clause's comma, semicolon, colon, dash or sentence end.
_CLAUSE_END = re.compile(r"(?<=[,;:.!?])\s+|\s+(?=[-\u2013\u2014]\s)")
# open_clip's word pattern (its special tokens never occur in a caption).
_WORD = regex.compile(
    r"""'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+""", regex.IGNORECASE
)
_VOCAB_FILE = "bpe_simple_vocab_16e6.txt.gz"
_MERGES = 49152 - 256 - 2  # the merges open_clip reads: its vocabulary is 49,408 tokens


@cache
def _merge_ranks() -> dict[tuple[str, str], int]:
    vocabulary = package_file("open_clip", _VOCAB_FILE, "counting CLIP tokens", "open_clip_torch")
    with gzip.open(vocabulary, "rt", encoding="utf-8") as lines:
        merges = lines.read().split("\n")[1 : _MERGES + 1]  # the first line is a header
    return {(first, second): rank for rank, (first, second) in enumerate(m.split() for m in merges)}


@cache
def _byte_symbols() -> dict[int, str]:
    """GPT-2's reversible map of bytes to printable characters, in which the merges are
    written: printable Latin-1 bytes stand for themselves, the rest for code points 256 on."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    printable += range(ord("®"), ord("ÿ") + 1)
    others = [b for b in range(256) if b not in printable]
    return {b: chr(b) for b in printable} | {b: chr(256 + n) for n, b in enumerate(others)}


@lru_cache(maxsize=2**16)  # the words of captions recur; a corpus's distinct ones need not stay
def _pieces(word: str) -> int:
    """How many BPE tokens ``word`` (already in byte symbols) becomes."""
    ranks = _merge_ranks()
    symbols = [*word[:-1], word[-1] + "</w>"]
    while len(symbols) > 1:
        pairs = set(itertools.pairwise(symbols))
        best = min(pairs, key=lambda pair: ranks.get(pair, len(ranks)))
        if best not in ranks:
            break
        merged, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == best:
                merged.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return len(symbols)


def _clean(text: str) -> str:
    """open_clip's default text cleaning ("lower")."""
    text = html.unescape(html.unescape(ftfy.fix_text(text))).strip()
    return " ".join(text.split()).lower()


def clip_tokens(text: str) -> int:
    """How many of CLIP's context positions ``text`` takes, start and end tokens included."""
    symbols = _byte_symbols()
    words = _WORD.findall(_clean(text))
    return 2 + sum(_pieces("".join(symbols[b] for b in w.encode("utf-8"))) for w in words)


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
