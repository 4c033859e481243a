"""The print kit in tests: a PDF opened with pypdf, its pages' sizes and its text."""

from __future__ import annotations

import io

from pypdf import PdfReader

MM = 72 / 25.4


def opened(content: bytes) -> PdfReader:
    assert content.startswith(b"%PDF-"), content[:20]
    return PdfReader(io.BytesIO(content))


def page_sizes_mm(reader: PdfReader) -> list[tuple[int, int]]:
    """Each page's (width, height) in whole millimetres."""
    return [
        (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM))
        for page in reader.pages
    ]


def text_of(reader: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


def embedded_fonts(reader: PdfReader) -> set[str]:
    """The base names of the fonts the pages use, without the subset prefix (``ABCDEF+``)."""
    names = set()
    for page in reader.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for font in fonts.values():
            name = str(font.get_object()["/BaseFont"]).lstrip("/")
            names.add(name.split("+", 1)[-1])
    return names


def png_signature() -> bytes:
    """A small PNG (a stroke on white), as an organiser would upload their signature."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (120, 40), "white")
    ImageDraw.Draw(image).line((5, 30, 115, 10), fill="black", width=3)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
