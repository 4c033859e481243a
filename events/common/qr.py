import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

QR_LABEL = _("QR code: %(url)s")


def qr_svg(url: str) -> SafeString:
    """An inline SVG QR code of ``url`` that scales with its container, named for screen
    readers by the address it holds (``role="img"`` and ``aria-label``)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, dark="#111", light="#fff")
    label = escape(str(QR_LABEL % {"url": url}))
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    return mark_safe(svg)  # segno builds the markup itself; the label is escaped above
