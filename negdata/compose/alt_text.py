"""Web alt-text cleaned before a caption builds on it.

CC12M's captions are alt-text: file names, stock-photo ids and keyword lists, camera settings
after a pipe, URLs, hashtags, and ``<PERSON>`` where the crawl removed a name. None of it
describes the picture, and a caption that keeps it teaches CLIP the noise (and spends its 77
tokens on it). The original caption is kept as is in every record; only the text the LLM is
given, and the text a template caption repeats, is cleaned.
"""

from __future__ import annotations

import re

from negdata.detect.lexicon import Lexicon

PLACEHOLDER = "<PERSON>"
_FILE_NAME = re.compile(r"\b[\w.-]+\.(?:jpe?g|png|gif|webp|bmp|tiff?|heic)\b:?", re.IGNORECASE)
_URL = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_AFTER_PIPE = re.compile(r"\s*\|.*$")  # "title | site name", "... | Canon EOS 20D, 24mm"
_HASHTAG = re.compile(r"(?<!\w)#\w+")
_STOCK = re.compile(
    r"\b(?:royalty[- ]free|stock (?:photo|image|picture|illustration|footage|vector)s?"
    r"|free download|wallpapers?|desktop background|hd|4k|8k|uhd|1080p)\b",
    re.IGNORECASE,
)
# A trailing " - a, b, c, ..." run of three or more short keywords.
DASHES = "-\u2013\u2014"  # hyphen, en dash, em dash
_KEYWORDS = re.compile(rf"\s+[{DASHES}]\s+(?:[\w' ]{{1,25}},\s*){{2,}}[\w' ]{{1,25}}\s*$")
_PLACED = re.compile(r"(?:(^|[.!?]\s+)|([A-Za-z][\w'-]*)\s+)?" + re.escape(PLACEHOLDER))


def clean_alt_text(text: str, lexicon: Lexicon) -> str:
    """The caption without what describes no picture; "" when nothing is left."""
    text = _AFTER_PIPE.sub("", text)
    for noise in (_URL, _FILE_NAME, _HASHTAG, _STOCK):
        text = noise.sub(" ", text)
    text = _KEYWORDS.sub("", text)
    text = _PLACED.sub(lambda m: _unnamed(m, lexicon), text)
    text = re.sub(r"([!?.])\1+", r"\1", text)  # "for sale!!"
    text = re.sub(r"\s+([,;:.!?])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    text = re.sub(r"\s{2,}", " ", text)
    return text.strip(f" ,;:{DASHES}")


def _unnamed(placed: re.Match[str], lexicon: Lexicon) -> str:
    """A removed name: after a title ("Commodore <PERSON>") or a word for a person ("astronaut
    <PERSON>") it is dropped; elsewhere it stands for somebody ("<PERSON> gives instructions as
    <PERSON> looks on": someone)."""
    start, before = placed.group(1), placed.group(2)
    if before is None:
        return f"{start or ''}Someone"
    if before[0].isupper() or lexicon.name(before.lower()) == "person":
        return before
    return f"{before} someone"
