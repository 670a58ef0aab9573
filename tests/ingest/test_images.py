"""Hostile and exotic images through reencode: real files made with Pillow and numpy, no mocks."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import struct
import zlib
from typing import Any

import numpy as np
import pytest
from PIL import Image

from negdata.config import IngestConfig
from negdata.ingest.images import Encoded, ImageError, ImageOptions, reencode, sniff
from negdata.sample import package_file

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)


def _options(**changes: Any) -> ImageOptions:
    """The defaults, less the size and shape limits: most images here are small test patterns."""
    base = ImageOptions.from_config(IngestConfig(min_image_size=1, max_aspect_ratio=1000))
    return dataclasses.replace(base, **changes)


def _defaults() -> ImageOptions:
    return ImageOptions.from_config(IngestConfig())


def _save(img: Image.Image, image_format: str, **params: Any) -> bytes:
    out = io.BytesIO()
    img.save(out, image_format, **params)
    return out.getvalue()


def _pixels(encoded: Encoded) -> np.ndarray[Any, np.dtype[np.int16]]:
    with Image.open(io.BytesIO(encoded.jpeg)) as img:
        assert img.format == "JPEG" and img.mode == "RGB"
        assert img.size == (encoded.width, encoded.height)
        return np.asarray(img, dtype=np.int16)


def _near(pixels: np.ndarray[Any, np.dtype[np.int16]], color: tuple[int, int, int]) -> bool:
    """Every pixel within JPEG noise of ``color``."""
    return bool(np.abs(pixels - np.array(color)).max() <= 12)


def _reason(data: bytes, options: ImageOptions | None = None) -> str:
    with pytest.raises(ImageError) as caught:
        reencode(data, options or _options())
    return caught.value.reason


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _bilevel_png(width: int, height: int) -> bytes:
    """A valid, all-black 1-bit PNG; a huge one compresses to a few kilobytes."""
    row = bytes(1 + (width + 7) // 8)  # filter byte, then packed pixels
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", idat)
        + _png_chunk(b"IEND", b"")
    )


def _bus() -> bytes:
    return package_file("ultralytics", "assets/bus.jpg").read_bytes()


@pytest.mark.parametrize("image_format", ["JPEG", "PNG", "GIF", "WEBP", "BMP", "TIFF"])
def test_sniff_recognises_each_format(image_format: str) -> None:
    assert sniff(_save(Image.new("RGB", (8, 8), "red"), image_format)) == image_format


@pytest.mark.parametrize("data", [b"", b"<!doctype html><html><body>Not Found</body></html>"])
def test_sniff_returns_none_for_non_images(data: bytes) -> None:
    assert sniff(data) is None


def test_zero_bytes_are_not_an_image() -> None:
    assert _reason(b"") == "not_an_image"


def test_html_served_as_an_image_is_not_an_image() -> None:
    assert _reason(b"<!DOCTYPE html>\n<html><head><title>403</title></head></html>") == (
        "not_an_image"
    )


def test_not_an_image_detail_gives_the_length_and_none_of_the_bytes() -> None:
    secret = b"SHELL=/bin/bash\x00API_TOKEN=hunter2\x00"
    with pytest.raises(ImageError) as caught:
        reencode(secret, _options())
    assert caught.value.detail == f"{len(secret)} bytes; no image signature matched"


def test_truncated_jpeg_is_a_decode_error() -> None:
    bus = _bus()
    assert _reason(bus[: len(bus) // 2]) == "decode_error"


def test_png_signature_with_garbage_chunks_is_a_decode_error() -> None:
    assert _reason(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8) == "decode_error"


def test_png_with_corrupt_pixel_data_is_a_decode_error() -> None:
    png = _bilevel_png(64, 64)
    start = png.index(b"IDAT") + 4
    corrupt = png[:start] + b"\xff" * 16 + png[start + 16 :]
    assert _reason(corrupt) == "decode_error"


def test_huge_dimensions_in_a_tiny_file_are_a_decompression_bomb() -> None:
    bomb = _bilevel_png(20_000, 20_000)
    assert len(bomb) < 100_000
    assert _reason(bomb) == "decompression_bomb"


def test_pixel_limit_is_judged_from_the_header_before_decoding() -> None:
    # The pixel data is cut off: decoding would fail, so the reason shows nothing was decoded.
    bus = _bus()
    half = bus[: len(bus) // 2]
    assert _reason(half, _options(max_pixels=810 * 1080 - 1)) == "decompression_bomb"
    assert IngestConfig().max_pixels == Image.MAX_IMAGE_PIXELS  # the global is left alone


def test_animated_images_yield_their_first_frame() -> None:
    frames = [Image.new("RGB", (32, 32), color) for color in (RED, BLUE, GREEN)]
    for image_format in ("GIF", "WEBP", "PNG"):
        data = _save(frames[0], image_format, save_all=True, append_images=frames[1:])
        with Image.open(io.BytesIO(data)) as img:
            assert getattr(img, "n_frames", 1) == 3
        assert _near(_pixels(reencode(data, _options())), RED), image_format


def test_cmyk_jpeg_keeps_its_colour() -> None:
    data = _save(Image.new("CMYK", (32, 32), (255, 0, 0, 0)), "JPEG")
    with Image.open(io.BytesIO(data)) as img:
        assert img.mode == "CMYK"
    assert _near(_pixels(reencode(data, _options())), (0, 255, 255))


@pytest.mark.parametrize(
    ("image_format", "dtype", "mode"),
    [
        ("PNG", np.dtype("<u2"), "I;16"),
        ("TIFF", np.dtype(">u2"), "I;16B"),
        ("TIFF", np.dtype("<i4"), "I"),
        ("TIFF", np.dtype("<f4"), "F"),
    ],
)
def test_high_bit_depth_gradient_is_scaled_not_clipped(
    image_format: str, dtype: np.dtype[Any], mode: str
) -> None:
    ramp = np.linspace(0, 65535, 256).astype(dtype)
    data = _save(Image.fromarray(np.tile(ramp, (16, 1))), image_format)
    with Image.open(io.BytesIO(data)) as img:
        assert img.mode == mode
    row = _pixels(reencode(data, _options(resize_mode="none")))[8, :, 0]
    assert row[0] <= 8 and row[-1] >= 247
    assert np.all(np.diff(row[::16]) > 0)


def test_transparent_palette_index_becomes_white() -> None:
    indices = np.zeros((32, 32), dtype=np.uint8)
    indices[:, 16:] = 1
    img = Image.fromarray(indices, mode="P")
    img.putpalette([0, 0, 0, *RED])
    data = _save(img, "PNG", transparency=0)
    pixels = _pixels(reencode(data, _options()))
    assert _near(pixels[:, :12], WHITE) and _near(pixels[:, 20:], RED)


@pytest.mark.parametrize(("mode", "color"), [("RGBA", (0, 0, 0, 0)), ("LA", (0, 0))])
def test_fully_transparent_pixels_become_white(mode: str, color: tuple[int, ...]) -> None:
    data = _save(Image.new(mode, (32, 32), color), "PNG")
    assert _near(_pixels(reencode(data, _options())), WHITE)


def test_one_bit_image_becomes_black_and_white_rgb() -> None:
    data = _save(Image.new("1", (32, 32), 1), "BMP")
    assert _near(_pixels(reencode(data, _options())), WHITE)


def test_one_pixel_image_is_too_small_by_default() -> None:
    data = _save(Image.new("RGB", (1, 1), "red"), "PNG")
    assert _reason(data, _defaults()) == "image_too_small"
    encoded = reencode(data, _options(min_size=1))
    assert (encoded.width, encoded.height) == (1, 1)


def test_default_minimum_is_128_pixels_on_the_short_side() -> None:
    assert _reason(_save(Image.new("RGB", (400, 127), "red"), "PNG"), _defaults()) == (
        "image_too_small"
    )
    encoded = reencode(_save(Image.new("RGB", (384, 128), "red"), "PNG"), _defaults())
    assert (encoded.original_width, encoded.original_height) == (384, 128)  # 3:1, the limit


@pytest.mark.parametrize("size", [(2000, 100), (200, 1000), (60_000, 1)])
def test_long_thin_images_are_rejected_by_aspect_ratio(size: tuple[int, int]) -> None:
    assert _reason(_bilevel_png(*size), _options(max_aspect_ratio=3.0)) == "aspect_ratio_too_large"


def test_size_and_shape_are_judged_from_the_header_before_decoding() -> None:
    # The pixel data is corrupt: decoding would fail, so the reason shows nothing was decoded.
    for size, reason in [((2000, 200), "aspect_ratio_too_large"), ((100, 100), "image_too_small")]:
        png = _bilevel_png(*size)
        start = png.index(b"IDAT") + 4
        corrupt = png[:start] + b"\xff" * 16 + png[start + 16 :]
        assert _reason(corrupt, _options(size=64, resize_mode="none")) == "decode_error"
        assert _reason(corrupt, _defaults()) == reason


@pytest.mark.parametrize(("mode", "size"), [("none", (1000, 2000)), ("longest", (32, 64))])
def test_exif_orientation_6_rotates_the_image(mode: str, size: tuple[int, int]) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6
    data = _save(Image.new("RGB", (2000, 1000), "red"), "JPEG", exif=exif.tobytes())
    encoded = reencode(data, _options(size=64, resize_mode=mode))
    assert (encoded.original_width, encoded.original_height) == (1000, 2000)
    assert (encoded.width, encoded.height) == size


@pytest.mark.parametrize(
    ("mode", "size"), [("longest", (384, 192)), ("center_crop", (384, 384)), ("none", (1000, 500))]
)
def test_resize_modes(mode: str, size: tuple[int, int]) -> None:
    data = _save(Image.new("RGB", (1000, 500), "green"), "JPEG")
    encoded = reencode(data, _options(size=384, resize_mode=mode))
    assert (encoded.width, encoded.height) == size
    assert (encoded.original_width, encoded.original_height) == (1000, 500)


def test_center_crop_keeps_the_centre() -> None:
    stripes = np.zeros((500, 1000, 3), dtype=np.uint8)
    stripes[:, :250] = RED
    stripes[:, 250:750] = GREEN
    stripes[:, 750:] = BLUE
    data = _save(Image.fromarray(stripes), "PNG")
    pixels = _pixels(reencode(data, _options(size=64, resize_mode="center_crop")))
    assert _near(pixels[:, 2:-2], GREEN)


def test_large_jpeg_downscale_has_the_exact_size() -> None:
    encoded = reencode(_bus(), _options(size=64))
    assert (encoded.width, encoded.height) == (48, 64)
    assert (encoded.original_width, encoded.original_height) == (810, 1080)


def test_longest_mode_never_upscales() -> None:
    encoded = reencode(_save(Image.new("RGB", (30, 20), "red"), "JPEG"), _options(size=384))
    assert (encoded.width, encoded.height) == (30, 20)


def test_sha256_is_of_the_original_bytes() -> None:
    data = package_file("skimage", "data/chelsea.png").read_bytes()
    encoded = reencode(data, _options(size=128))
    assert encoded.sha256 == hashlib.sha256(data).hexdigest()
    assert (encoded.width, encoded.height) == (128, 85)
