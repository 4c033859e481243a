"""``{% page_qr %}`` (``events.templatetags.page_qr``): the QR code of the page being shown, at the
site's one base address, not the address the page was opened with."""

from __future__ import annotations

from django.template import Context, Template
from django.test import RequestFactory, override_settings

from events.common.qr import qr_svg


@override_settings(SITE_URL="http://192.168.1.23:8000")
def test_the_code_is_of_this_page_at_the_sites_base():
    request = RequestFactory().get("/e/night/?lang=et", HTTP_HOST="127.0.0.1")
    html = Template("{% load page_qr %}{% page_qr %}").render(Context({"request": request}))
    assert "<svg" in html
    assert html == str(qr_svg("http://192.168.1.23:8000/e/night/"))
    assert html != str(qr_svg("http://127.0.0.1/e/night/"))
