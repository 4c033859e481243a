import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    """An inline SVG QR code of ``url`` that scales with its container."""
    svg = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, dark="#111", light="#fff")
    return mark_safe(svg)  # segno builds the markup itself; the URL is only encoded as modules
