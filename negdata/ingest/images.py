"""Decode, orient, resize and re-encode one image."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError


class ImageError(Exception):
    """The bytes are not a decodable image; reason code ``decode_error``."""

    reason = "decode_error"


@dataclass(frozen=True)
class Encoded:
    jpeg: bytes
    width: int
    height: int
    original_width: int
    original_height: int


def reencode(data: bytes, *, longest_side: int, quality: int) -> Encoded:
    """EXIF-orient, downscale so the longest side is at most ``longest_side``, encode as JPEG."""
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.load()
            oriented = ImageOps.exif_transpose(img)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"cannot decode image: {exc}") from None
    original_width, original_height = oriented.size
    rgb = oriented.convert("RGB")
    scale = longest_side / max(rgb.size)
    if scale < 1:
        size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
        rgb = rgb.resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    rgb.save(out, format="JPEG", quality=quality)
    return Encoded(out.getvalue(), rgb.width, rgb.height, original_width, original_height)
