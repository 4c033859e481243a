"""The print kit in the browser: an organiser opens a demo competition's kit from its desk,
in Estonian and in Swedish, and every button answers a PDF in that language; the page at
360 px in light and dark mode, and at desk width."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from events.formats import all_formats
from events.printing.documents import format_items, shared_items
from tests.support.browser import screenshot, too_wide
from tests.support.factories import UserFactory
from tests.support.printing import png_signature

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NARROW = {"width": 360, "height": 800}


def answered_pdf(page, base_url: str, href: str, language: str) -> PdfReader:
    response = page.request.get(base_url + href)
    assert response.status == 200, href
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"].startswith("inline; filename=")
    assert response.headers["content-disposition"].endswith(f'-{language}.pdf"')
    reader = PdfReader(io.BytesIO(response.body()))
    assert reader.trailer["/Root"]["/Lang"] == language
    assert len(reader.pages) >= 1
    return reader


def test_an_organiser_prints_every_item_of_each_demo_in_estonian_and_swedish(
    desk_page, live_server
):
    organiser = UserFactory(username="organiser", password="pw-for-tests-only")
    competitions = [f.hooks.demo(organiser) for f in all_formats()]
    competitions = [c for c in competitions if c is not None]
    assert competitions
    page = desk_page("organiser", "desk")
    for competition in competitions:
        page.goto(live_server.url + competition.get_desk_url())
        page.get_by_role("link", name="Print kit").click()
        expect(page.get_by_role("heading", name="Print kit", level=1)).to_be_visible()
        for language, name in (("et", "eesti"), ("sv", "svenska")):
            page.locator(".kit-languages").get_by_role("link", name=re.compile(name, re.I)).click()
            chosen = page.locator(".kit-languages a[aria-current]")
            expect(chosen).to_have_attribute("lang", language)
            buttons = page.locator("a[data-print-key]")
            items = [*format_items(competition), *shared_items()]
            expect(buttons).to_have_count(len(items))
            for index in range(buttons.count()):
                href = buttons.nth(index).get_attribute("href")
                assert f"lang={language}" in href
                answered_pdf(page, live_server.url, href, language)
        # One player's certificate (a GET form) and the podium's with a signature (a POST).
        with page.expect_response(re.compile(r"/print/certificates\.pdf")) as answer:
            page.get_by_role("button", name="Certificate (PDF)").click()
        assert answer.value.headers["content-type"] == "application/pdf"
        page.goto(live_server.url + competition.get_desk_url() + "print/?lang=sv")
        page.set_input_files(
            "#kit-signature",
            files=[{"name": "signature.png", "mimeType": "image/png", "buffer": png_signature()}],
        )
        with page.expect_response(re.compile(r"/print/certificates\.pdf")) as answer:
            page.get_by_role("button", name="Certificates with signature (PDF)").click()
        assert answer.value.status == 200
        assert answer.value.headers["content-type"] == "application/pdf"
        assert answer.value.headers["content-disposition"].endswith('-sv.pdf"')


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_kit_page_fits_360_px_and_the_desk(desk_page, live_server, scheme):
    organiser = UserFactory(username="organiser", password="pw-for-tests-only")
    competition = all_formats()[0].hooks.demo(organiser)
    url = competition.get_desk_url() + "print/"
    for name, viewport in (("360", NARROW), ("desk", {"width": 1280, "height": 900})):
        page = desk_page("organiser", viewport=viewport, color_scheme=scheme)
        page.goto(live_server.url + url)
        expect(page.locator("a[data-print-key]").first).to_be_visible()
        if name == "360":
            assert too_wide(page, url, scheme) == []
        screenshot(page, f"print-kit-{name}-{scheme}")
