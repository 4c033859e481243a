"""A club's logo made safe to store and serve: the uploaded bytes checked (an image of an accepted
kind and a sensible size, told from its bytes, never from its name), turned upright, shrunk to
fit ``LOGO_SIDE`` and written again as a PNG that carries nothing but its pixels.

Pure image handling (Pillow, no Django): ``events.clubs.logo_services`` stores the result and
turns a :class:`LogoError` into a message the owner reads.
"""

from __future__ import annotations

import hashlib
import io
import struct

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

# The stored logo fits a square of this side: the band shows it 32 pixels high, a projector
# screen a few times that.
LOGO_SIDE = 256
# What an owner may send: a logo saved from a phone or a drawing program is far smaller.
MAX_UPLOAD = 2 * 1024 * 1024
MIN_SIDE = 32
MAX_SIDE = 6000
# Pillow's plugins that may read an upload (each one more parser facing strangers' bytes).
# A phone's JPEG with several pictures in it is read by the JPEG plugin as an "MPO".
PLUGINS = ("PNG", "JPEG", "WEBP", "GIF")
FORMATS = frozenset({*PLUGINS, "MPO"})
# Far under Pillow's own bomb limit (about 89 million pixels), which only warns below twice that.
MAX_PIXELS = MAX_SIDE * MAX_SIDE
# The first bytes of images of other kinds, so that their owner hears "not this kind" rather
# than "not an image".
OTHER_IMAGES = (
    b"BM",  # BMP
    b"II*\x00",  # TIFF
    b"MM\x00*",  # TIFF
    b"\x00\x00\x01\x00",  # ICO
    b"%PDF",
    b"8BPS",  # Photoshop
)
# ISO media boxes (HEIC from iPhones, AVIF): "ftyp" at offset 4.
OTHER_BRANDS = (b"heic", b"heix", b"mif1", b"msf1", b"avif", b"avis")
# Pillow raises these on bytes that start like an image and go wrong later.
READ_ERRORS = (OSError, SyntaxError, ValueError, EOFError, struct.error, IndexError)

SRGB = ImageCms.createProfile("sRGB")


class LogoError(ValueError):
    """An upload refused; ``code`` says why: too_large, not_image, wrong_type, too_small,
    too_big or broken."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def logo_version(png: bytes) -> str:
    """The short hash in the logo's address: a new logo, a new address."""
    return hashlib.sha256(png).hexdigest()[:12]


def _other_image(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<?xml", b"<svg", b"<!doctype svg")) and b"<svg" in data[:4096].lower():
        return True
    if data[4:8] == b"ftyp" and data[8:12] in OTHER_BRANDS:
        return True
    return data.startswith(OTHER_IMAGES)


def _opened(data: bytes) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(data), formats=PLUGINS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        # The warning arrives as an exception where warnings are errors (the tests); elsewhere
        # it is only printed and the size check below refuses the image.
        raise LogoError("too_big") from None
    except UnidentifiedImageError:
        raise LogoError("wrong_type" if _other_image(data) else "not_image") from None
    except READ_ERRORS:
        raise LogoError("broken") from None
    if image.format not in FORMATS:
        raise LogoError("wrong_type")
    width, height = image.size
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        raise LogoError("too_big")
    if width < MIN_SIDE or height < MIN_SIDE:
        raise LogoError("too_small")
    return image


def _upright(image: Image.Image) -> Image.Image:
    try:
        return ImageOps.exif_transpose(image)
    except READ_ERRORS:
        # Unreadable metadata does not make the picture wrong: it is dropped anyway.
        return image


def _in_srgb(image: Image.Image) -> Image.Image:
    """The colours as the owner saw them: the picture's own colour profile is applied here,
    since the stored PNG carries none (a browser takes it for sRGB)."""
    icc = image.info.get("icc_profile")
    if not icc or image.mode not in ("RGB", "RGBA", "CMYK"):
        return image
    try:
        converted = ImageCms.profileToProfile(
            image,
            io.BytesIO(icc),
            SRGB,
            outputMode="RGBA" if image.mode == "RGBA" else "RGB",
        )
    except (ImageCms.PyCMSError, *READ_ERRORS):
        return image
    return converted if converted is not None else image


def logo_png(data: bytes) -> bytes:
    """The logo to store: a PNG (RGBA) at most ``LOGO_SIDE`` pixels a side, in the upload's
    aspect ratio, never enlarged, with no metadata (no EXIF, so no place a phone wrote where the
    picture was taken; no text chunks; no colour profile). Raises :class:`LogoError`."""
    if len(data) > MAX_UPLOAD:
        raise LogoError("too_large")
    image = _opened(data)
    try:
        image.load()  # the first frame only: an animation's others are never decoded
        picture = _in_srgb(_upright(image)).convert("RGBA")
        picture.thumbnail((LOGO_SIDE, LOGO_SIDE), Image.Resampling.LANCZOS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise LogoError("too_big") from None
    except READ_ERRORS:
        raise LogoError("broken") from None
    # A new image from the pixels alone: Pillow's PNG writer copies a colour profile and other
    # entries of ``info`` from the image it is given.
    clean = Image.frombytes("RGBA", picture.size, picture.tobytes())
    out = io.BytesIO()
    clean.save(out, format="PNG", optimize=True)
    return out.getvalue()
