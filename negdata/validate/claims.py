"""Claims a sentence makes beyond which objects are there and which are not.

An exclusive claim ("only a motorcycle", "just a bench", "nothing but sand") says that nothing
else is there: it is true only when every object the evidence finds present is one the
sentence affirms. "Not only" and "not just" add rather than exclude, and claim nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from negdata.detect.lexicon import Lexicon
from negdata.records import Verdict

EXCLUSIVE = re.compile(
    r"(?<!\bnot )\b(only|just|solely|merely|alone|the sole|nothing but|nothing else|no other)\b",
    re.IGNORECASE,
)


def exclusive(text: str) -> bool:
    """Whether ``text`` claims that what it affirms is all there is."""
    return EXCLUSIVE.search(text) is not None


def left_out(
    text: str, polarities: Mapping[str, str], verdicts: Mapping[str, Verdict], lexicon: Lexicon
) -> list[str]:
    """The present objects an exclusive claim in ``text`` leaves out (a name is accounted for
    by any affirmed name that covers one of its labels: "only animals" covers the dog);
    ``[]`` when the claim holds or there is none."""
    if not exclusive(text):
        return []
    affirmed = [lexicon.members(name) for name, pol in polarities.items() if pol == "affirmed"]
    return sorted(
        name
        for name, verdict in verdicts.items()
        if verdict == "present" and not any(members & lexicon.members(name) for members in affirmed)
    )
