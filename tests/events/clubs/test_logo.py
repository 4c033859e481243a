"""A club's logo: what an upload becomes (events.clubs.logo)."""

from __future__ import annotations

import io
import os
import struct
import time
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import ExifTags, Image, ImageCms, PngImagePlugin

from events.clubs.logo import LOGO_SIDE, MAX_UPLOAD, LogoError, logo_png, logo_version
from events.clubs.logo_services import logo_message
from tests.support.clubs import SVG, encoded, opened, phone_jpeg


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_bomb(width: int = 20_000, height: int = 20_000) -> bytes:
    """A real PNG of 1-bit zeros, some 50 kB, that would be 400 million pixels decoded."""
    compressor = zlib.compressobj(9)
    rows = bytes(1 + (width + 7) // 8) * 500
    idat = b"".join(compressor.compress(rows) for _ in range(height // 500)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", idat)
        + png_chunk(b"IEND", b"")
    )


# --- what an upload becomes --------------------------------------------------------------------


def test_a_phone_photo_is_turned_upright_and_loses_its_metadata():
    jpeg = phone_jpeg()
    before = Image.open(io.BytesIO(jpeg))
    assert before.getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the test's photo has a location
    assert before.info.get("icc_profile")

    logo = opened(logo_png(jpeg))

    assert logo.size == (60, 120)  # 120×60 turned a quarter: never enlarged
    red, blue = logo.getpixel((30, 10)), logo.getpixel((30, 110))
    assert red[0] > 200 and red[2] < 60, red  # the left half now on top
    assert blue[2] > 200 and blue[0] < 60, blue
    assert b"PhoneMaker" not in logo_png(jpeg) and b"GPS" not in logo_png(jpeg)


def test_a_png_keeps_its_transparency_and_loses_its_text_and_profile():
    image = Image.new("RGBA", (600, 300), (0, 128, 0, 255))
    image.paste((0, 0, 0, 0), (0, 0, 300, 300))
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Someone Private")
    info.add_itxt("Comment", "where I live")
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    png = encoded(image, "PNG", pnginfo=info, icc_profile=icc, exif=Image.Exif())

    stored = logo_png(png)
    logo = opened(stored)

    assert logo.size == (256, 128)
    assert logo.getpixel((10, 64))[3] == 0 and logo.getpixel((240, 64)) == (0, 128, 0, 255)
    assert b"Someone Private" not in stored and b"where I live" not in stored


@pytest.mark.parametrize(
    ("fmt", "mode", "size", "expected"),
    [
        ("WEBP", "RGBA", (400, 200), (256, 128)),
        ("GIF", "P", (90, 300), (77, 256)),
        ("PNG", "L", (40, 50), (40, 50)),
        ("JPEG", "CMYK", (512, 512), (256, 256)),
    ],
)
def test_each_accepted_kind_becomes_a_png_that_fits(fmt, mode, size, expected):
    assert opened(logo_png(encoded(Image.new(mode, size), fmt))).size == expected


def test_an_animation_keeps_its_first_frame():
    frames = [Image.new("RGB", (64, 64), colour) for colour in ("red", "blue", "green")]
    gif = encoded(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100)
    assert opened(logo_png(gif)).getpixel((5, 5))[:3] == (255, 0, 0)


TRUNCATED = encoded(Image.effect_noise((200, 200), 64).convert("RGB"), "PNG")[:600]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        pytest.param(encoded(Image.new("RGB", (20, 20)), "PNG"), "too_small", id="20x20"),
        pytest.param(encoded(Image.new("RGB", (300, 31)), "PNG"), "too_small", id="300x31"),
        pytest.param(encoded(Image.new("1", (7000, 10)), "PNG"), "too_big", id="7000x10"),
        pytest.param(png_bomb(7000, 7000), "too_big", id="7000x7000"),
        pytest.param(SVG, "wrong_type", id="svg"),
        pytest.param(
            b"<svg xmlns='http://www.w3.org/2000/svg'></svg>", "wrong_type", id="bare-svg"
        ),
        pytest.param(encoded(Image.new("RGB", (64, 64)), "BMP"), "wrong_type", id="bmp"),
        pytest.param(encoded(Image.new("RGB", (64, 64)), "TIFF"), "wrong_type", id="tiff"),
        pytest.param(os.urandom(4096), "not_image", id="random"),
        pytest.param(b"", "not_image", id="empty"),
        pytest.param(b"hello.png", "not_image", id="text"),
        pytest.param(TRUNCATED, "broken", id="truncated"),
        pytest.param(b"\x89PNG" + bytes(MAX_UPLOAD), "too_large", id="over-2-MB"),
    ],
)
def test_refused_uploads(data, code):
    with pytest.raises(LogoError) as refused:
        logo_png(data)
    assert refused.value.code == code
    assert logo_message(code)  # each has its words


def test_a_decompression_bomb_is_refused_before_it_is_decoded():
    bomb = png_bomb()
    assert len(bomb) < 200_000
    started = time.perf_counter()
    with pytest.raises(LogoError) as refused:
        logo_png(bomb)
    assert refused.value.code == "too_big"
    assert time.perf_counter() - started < 0.5


def test_the_version_is_a_short_hash_of_the_bytes():
    assert logo_version(b"a") == logo_version(b"a") != logo_version(b"b")
    assert len(logo_version(b"a")) == 12 and int(logo_version(b"a"), 16) >= 0


WRITERS = {"PNG": None, "WEBP": None, "GIF": None, "JPEG": ("RGB", "L")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    width=st.integers(32, 400),
    height=st.integers(32, 400),
    mode=st.sampled_from(["RGB", "RGBA", "L", "P"]),
    fmt=st.sampled_from(sorted(WRITERS)),
    colour=st.integers(0, 255),
)
def test_any_small_image_fits_in_aspect(width, height, mode, fmt, colour):
    image = Image.new(mode, (width, height), colour if mode in ("L", "P") else (colour,) * 4)
    if WRITERS[fmt] and mode not in WRITERS[fmt]:
        image = image.convert("RGB")
    logo = opened(logo_png(encoded(image, fmt)))

    scale = min(1.0, LOGO_SIDE / max(width, height))
    assert abs(logo.width - width * scale) <= 1 and abs(logo.height - height * scale) <= 1
    assert max(logo.size) == min(LOGO_SIDE, max(width, height))
