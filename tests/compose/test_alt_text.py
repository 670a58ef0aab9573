"""Alt-text cleaned before a caption builds on it: the sample's own noisy captions, and more."""

from __future__ import annotations

import pytest

from negdata.compose.alt_text import clean_alt_text
from negdata.compose.templates import template_caption
from negdata.detect.lexicon import lexicon_for

LEXICON = lexicon_for("coco")


@pytest.mark.parametrize(
    ("alt_text", "cleaned"),
    [
        (
            "Espresso in a red cup with saucer and spoon on a rustic wooden table - coffee, "
            "espresso, caffeine, crema, morning, hot drink, brown, closeup, stock image",
            "Espresso in a red cup with saucer and spoon on a rustic wooden table",
        ),
        (
            "IMG_2047.JPG: red Yamaha Maxim motorcycle parked in a cluttered garage beside an "
            "old wooden bench | Canon EOS 20D, 24mm, f/8",
            "red Yamaha Maxim motorcycle parked in a cluttered garage beside an old wooden bench",
        ),
        (
            "orange pompon dahlia in the garden, shallow depth of field - royalty free stock "
            "photo #38219385",
            "orange pompon dahlia in the garden, shallow depth of field",
        ),
        (
            "Hubble eXtreme Deep Field XDF galaxies universe space wallpaper hd 4k desktop "
            "background free download",
            "Hubble eXtreme Deep Field XDF galaxies universe space",
        ),
        ("Commodore <PERSON>, official US Navy portrait", "Commodore, official US Navy portrait"),
        (
            "Official portrait of astronaut <PERSON> in her suit",
            "Official portrait of astronaut in her suit",
        ),
        (
            "<PERSON> gives instructions from the touchline as <PERSON> looks on",
            "Someone gives instructions from the touchline as someone looks on",
        ),
        ("Sunset at the pier. <PERSON> waves #travel #summer", "Sunset at the pier. Someone waves"),
        ("Yamaha Maxim for sale!! see https://example.com/ad?id=7", "Yamaha Maxim for sale! see"),
        ("tabby cat close up", "tabby cat close up"),
        ("stock photo #1234", ""),
    ],
)
def test_noise_goes_and_the_picture_stays(alt_text: str, cleaned: str) -> None:
    assert clean_alt_text(alt_text, LEXICON) == cleaned


def test_a_template_with_nothing_left_to_build_on_affirms_nothing() -> None:
    for style in ("affirmation_first", "negation_first"):
        assert template_caption(style, "dog", [], "") == "There is no dog in this picture."
