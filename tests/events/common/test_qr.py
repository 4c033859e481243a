"""QR codes (events/common/qr.py): an image named for screen readers by its address."""

from __future__ import annotations

from django.utils import translation

from events.common.qr import qr_svg


def test_the_qr_code_is_an_image_named_by_its_address():
    with translation.override("en"):
        svg = str(qr_svg("https://example.org/e/x/?a=1&b=<2>"))
    assert svg.startswith('<svg role="img" aria-label="QR code: https://example.org/e/x/?a=1')
    assert "&amp;b=&lt;2&gt;" in svg and "<2>" not in svg
