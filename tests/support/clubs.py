"""Images as a browser would send them for a club's logo, and the check of what a stored logo may
carry."""

from __future__ import annotations

import io
import struct

from PIL import ExifTags, Image, ImageCms

from events.clubs.logo import LOGO_SIDE


def encoded(image: Image.Image, fmt: str, **params) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **params)
    return out.getvalue()


def halves(size: tuple[int, int] = (120, 60)) -> Image.Image:
    """Red on the left, blue on the right: which way up it is shows."""
    image = Image.new("RGB", size, (255, 0, 0))
    image.paste((0, 0, 255), (size[0] // 2, 0, size[0], size[1]))
    return image


def phone_jpeg() -> bytes:
    """A photo as a phone writes it: sideways pixels, an orientation to turn them by, where it
    was taken (GPS), the phone's make, a colour profile."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6  # turn 90° clockwise to show
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "Secret Model"
    exif[ExifTags.IFD.GPSInfo] = {
        ExifTags.GPS.GPSLatitudeRef: "N",
        ExifTags.GPS.GPSLatitude: (59.0, 51.0, 30.0),
        ExifTags.GPS.GPSLongitudeRef: "E",
        ExifTags.GPS.GPSLongitude: (17.0, 38.0, 10.0),
    }
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return encoded(halves(), "JPEG", exif=exif, icc_profile=icc, quality=95)


def chunk_types(png: bytes) -> list[bytes]:
    kinds, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kinds.append(png[at + 4 : at + 8])
        at += 12 + length
    return kinds


def opened(png: bytes) -> Image.Image:
    """The stored logo, checked for what it must never carry."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert set(chunk_types(png)) <= {b"IHDR", b"IDAT", b"IEND"}, chunk_types(png)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.mode == "RGBA"
    assert "exif" not in image.info and "icc_profile" not in image.info
    assert not image.getexif()
    assert not image.text  # type: ignore[attr-defined]
    assert max(image.size) <= LOGO_SIDE
    return image


SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>'
