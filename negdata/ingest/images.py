"""Decode, orient, resize and re-encode one image, rejecting hostile bytes with a reason code.

Web-scraped "images" are often HTML error pages, truncated downloads, decompression bombs or
exotic pixel modes. Each reject carries one of these reason codes, counted per shard:

- ``not_an_image``: the bytes start with no JPEG, PNG, GIF, WebP, BMP or TIFF signature. The
  detail gives only their length: the bytes may be any file's, and none of them is ever stored.
- ``decode_error``: the format is known but Pillow cannot decode the pixels.
- ``decompression_bomb``: width x height is above ``max_pixels``, judged from the header.
- ``image_too_small``: a side is below ``min_size``, judged from the header.
- ``aspect_ratio_too_large``: the long side is over ``max_aspect_ratio`` times the short one,
  judged from the header.

Everything here is per call (no global Pillow settings are changed), so it is safe to run from
threads and process pools.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass

import numpy as np
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

from negdata.config import IngestConfig, ResizeMode

# Signatures Pillow's plugins also accept; the value is the plugin's format name.
_SIGNATURES = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"BM", "BMP"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"II+\x00", "TIFF"),  # BigTIFF
    (b"MM\x00+", "TIFF"),
)
# EXIF orientations that rotate by 90 degrees, swapping width and height.
_SWAPS_SIDES = (5, 6, 7, 8)
# Draft a JPEG to at least this multiple of the output size, like Image.thumbnail does, so the
# DCT-domain reduction costs no visible quality before the resampling pass.
_DRAFT_GAP = 2
# Shrink by an integer reduce() down to this multiple of the output size before resampling:
# much faster on large downscales, and Pillow documents the result as indistinguishable.
_REDUCING_GAP = 3.0
# After the 2x JPEG draft, bilinear (antialiased when downscaling in Pillow) was both faster
# and closer to a full-resolution LANCZOS reference than LANCZOS itself: 9.4 against 15.7 ms per
# image and 43.5 against 42.2 dB PSNR over 150 bench-ingest images.
_FILTER = Image.Resampling.BILINEAR


class ImageError(Exception):
    """The bytes were rejected; ``reason`` is the counted reject code, ``str()`` the detail."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail

    def __reduce__(self) -> tuple[type[ImageError], tuple[str, str]]:
        # Returned across processes by decode_outcome; default pickling passes one argument.
        return type(self), (self.reason, self.detail)


@dataclass(frozen=True)
class ImageOptions:
    """How to judge and re-encode images: output ``size`` in pixels, see ``ResizeMode``."""

    size: int
    resize_mode: ResizeMode
    quality: int
    min_size: int
    max_aspect_ratio: float
    max_pixels: int

    @classmethod
    def from_config(cls, cfg: IngestConfig) -> ImageOptions:
        return cls(
            size=cfg.image_size,
            resize_mode=cfg.resize_mode,
            quality=cfg.jpeg_quality,
            min_size=cfg.min_image_size,
            max_aspect_ratio=cfg.max_aspect_ratio,
            max_pixels=cfg.max_pixels,
        )


@dataclass(frozen=True)
class Encoded:
    """The re-encoded JPEG, its size, the oriented original's size and the original's sha256."""

    jpeg: bytes
    width: int
    height: int
    original_width: int
    original_height: int
    sha256: str


def decode_outcome(data: bytes, options: ImageOptions) -> Encoded | ImageError:
    """``reencode`` for a process pool: a rejected image is returned, not raised. It lives here
    so that worker processes import only this module (not the stage, which pulls in torch)."""
    try:
        return reencode(data, options)
    except ImageError as exc:
        return exc


def sniff(data: bytes) -> str | None:
    """The image format named by ``data``'s magic number, or None; trusts no Content-Type."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return next((name for magic, name in _SIGNATURES if data.startswith(magic)), None)


def reencode(data: bytes, options: ImageOptions) -> Encoded:
    """Reject hostile bytes, else EXIF-orient, flatten to RGB, resize and encode as JPEG.

    Raises ImageError with one of the module's reason codes.
    """
    image_format = sniff(data)
    if image_format is None:
        raise ImageError("not_an_image", f"{len(data)} bytes; no image signature matched")
    try:
        rgb, original_width, original_height = _decode(data, image_format, options)
    except ImageError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageError("decompression_bomb", str(exc)) from None
    except UnidentifiedImageError:
        # Its message names the BytesIO's address, which would make reruns differ.
        raise ImageError("decode_error", f"{image_format}: unreadable header") from None
    except Exception as exc:
        # Pillow's plugins raise a wide, undocumented set of errors on hostile input (OSError,
        # SyntaxError, ValueError, struct.error, IndexError, ...); any of them means "undecodable".
        raise ImageError("decode_error", f"{image_format}: {type(exc).__name__}: {exc}") from None
    resized = _resize(rgb, original_width, original_height, options)
    out = io.BytesIO()
    resized.save(out, format="JPEG", quality=options.quality)
    return Encoded(
        jpeg=out.getvalue(),
        width=resized.width,
        height=resized.height,
        original_width=original_width,
        original_height=original_height,
        sha256=hashlib.sha256(data).hexdigest(),
    )


def _decode(data: bytes, image_format: str, options: ImageOptions) -> tuple[Image.Image, int, int]:
    """The first frame, oriented and in RGB, with the oriented original's width and height.

    Size limits are checked on the header before any pixel is decoded. Pillow's own bomb check
    in Image.open depends on the global Image.MAX_IMAGE_PIXELS, which other code may change
    (Ultralytics sets it to None), so it is only a second line of defence.
    """
    with Image.open(io.BytesIO(data), formats=[image_format]) as img:
        width, height = img.size
        if width * height > options.max_pixels:
            raise ImageError(
                "decompression_bomb",
                f"{width}x{height} is over the limit of {options.max_pixels} pixels",
            )
        if min(width, height) < options.min_size:
            raise ImageError(
                "image_too_small", f"{width}x{height} has a side below {options.min_size} pixels"
            )
        if max(width, height) > options.max_aspect_ratio * min(width, height):
            raise ImageError(
                "aspect_ratio_too_large",
                f"{width}x{height} is over {options.max_aspect_ratio:g}:1",
            )
        img.seek(0)  # an animation's first frame; the other frames are never read
        scale = _scale(width, height, options)
        if image_format == "JPEG" and scale < 1:
            # Isotropic, so the raw (unoriented) size scales the same way as the oriented one.
            wanted = (math.ceil(width * scale * _DRAFT_GAP), math.ceil(height * scale * _DRAFT_GAP))
            img.draft("RGB", wanted)
        img.load()
        orientation = img.getexif().get(ExifTags.Base.Orientation, 1)
        # exif_transpose copies even when there is nothing to turn; the RGB conversion below
        # already makes the one copy that must outlive the file.
        rgb = _to_rgb(ImageOps.exif_transpose(img) if orientation != 1 else img)
    if orientation in _SWAPS_SIDES:
        width, height = height, width
    return rgb, width, height


def _scale(width: int, height: int, options: ImageOptions) -> float:
    """The factor from the original to the output resolution, before any crop."""
    if options.resize_mode == "longest":
        return min(1.0, options.size / max(width, height))
    if options.resize_mode == "center_crop":
        return options.size / min(width, height)
    return 1.0


def _to_rgb(img: Image.Image) -> Image.Image:
    """RGB pixels; transparency is flattened onto white, the usual page background, rather than
    the black that convert() leaves behind."""
    if img.mode.startswith("I") or img.mode == "F":
        img = _to_8bit(img)
    if not img.has_transparency_data:
        return img.convert("RGB")
    rgba = img.convert("RGBA")
    flat = Image.new("RGB", rgba.size, "white")
    flat.paste(rgba, mask=rgba.getchannel("A"))
    return flat


def _to_8bit(img: Image.Image) -> Image.Image:
    """Grey levels of a 16-bit, 32-bit integer or float image mapped into 0..255.

    Pillow's convert() clips these to 255, turning most 16-bit photos white. 16-bit data is
    full range by definition, so 0..65535 maps to 0..255; 32-bit integer and float data has no
    fixed white point, so its own minimum and maximum are stretched to black and white.
    """
    pixels = np.asarray(img, dtype=np.float32)
    if img.mode.startswith("I;16"):
        low, high = 0.0, 65535.0
    else:
        pixels = np.nan_to_num(pixels, nan=0.0, posinf=0.0, neginf=0.0)
        low, high = float(pixels.min()), float(pixels.max())
    gain = 255 / (high - low) if high > low else 0.0
    return Image.fromarray(np.rint((pixels - low) * gain).astype(np.uint8))


def _resize(
    img: Image.Image, original_width: int, original_height: int, options: ImageOptions
) -> Image.Image:
    """Apply ``options.resize_mode``; ``img`` may be a JPEG draft smaller than the original."""
    if options.resize_mode == "none":
        return img
    if options.resize_mode == "center_crop":
        side = min(img.size)
        left, top = (img.width - side) / 2, (img.height - side) / 2
        box = (left, top, left + side, top + side)
        size = (options.size, options.size)
        return img.resize(size, _FILTER, box, _REDUCING_GAP)
    scale = _scale(original_width, original_height, options)
    size = (max(1, round(original_width * scale)), max(1, round(original_height * scale)))
    if size == img.size:
        return img
    return img.resize(size, _FILTER, reducing_gap=_REDUCING_GAP)
