"""Small access and safety items: the QR code is named for screen readers, and no
template carries a style element the Content-Security-Policy would block (style-src 'self')."""

from __future__ import annotations

from pathlib import Path

from django.utils import translation

from events.common.qr import qr_svg

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def test_the_qr_code_is_an_image_named_by_its_address():
    with translation.override("en"):
        svg = str(qr_svg("https://example.org/e/x/?a=1&b=<2>"))
    assert svg.startswith('<svg role="img" aria-label="QR code: https://example.org/e/x/?a=1')
    assert "&amp;b=&lt;2&gt;" in svg and "<2>" not in svg


def test_no_template_has_a_style_element():
    offenders = [
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if "<style" in path.read_text()
    ]
    assert offenders == []
