"""The standings widget on a club's page and the overlays for OBS, in Chromium.

A club's page is served by a tiny web server of its own (another origin): the
browser shows the widget there when the event lists that site, and refuses it when it does
not, by the widget's ``frame-ancestors``. The widget at 360 px in light and dark, axe-clean;
the overlays at 1920 × 1080 with a transparent page; the desk's page that gives the snippet.
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.urls import reverse
from PIL import Image
from playwright.sync_api import expect

from events.embed import services
from events.models import EventRole
from tests.support import blokus as b
from tests.support.browser import POLL_WAIT, screenshot, too_wide, violations
from tests.support.factories import EventFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
OBS = {"width": 1920, "height": 1080}


@pytest.fixture
def side_event():
    """A Blokus side event in Swedish with a round of eight seated (two tables)."""
    organiser = UserFactory(username="org", two_factor=True)
    event = EventFactory(name="Klubbkväll", slug="klubbkvall", language="sv")
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.OWNER)
    competition = b.small(event, slug="sidoturnering", rounds=2)
    round_ = b.seated_round(competition, competition.sessions.get(number=1), 8, prefix="Spelare ")
    b.services.round_start_clock(round=round_)
    return organiser, competition


def club_page(widget: str) -> str:
    return (
        '<!doctype html><html lang="sv"><head><title>Klubbens sida</title></head><body>'
        f'<h1>Ställning</h1><iframe src="{widget}" title="Ställning" width="400" '
        'height="480"></iframe></body></html>'
    )


@contextmanager
def club_site(widget: str) -> Iterator[str]:
    """A club's own web server (another origin than the live server's), whose page frames the
    widget; yields its origin."""
    body = club_page(widget).encode()

    class ClubPage(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), ClubPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def widget_frame(page):
    page.wait_for_load_state("load")
    frames = [frame for frame in page.frames if frame is not page.main_frame]
    assert len(frames) == 1
    return frames[0]


def test_a_listed_site_frames_the_widget_and_another_does_not(browser, live_server, side_event):
    organiser, competition = side_event
    widget = live_server.url + reverse(
        "events:widget", args=[competition.event.slug, competition.slug]
    )
    context = browser.new_context(viewport={"width": 800, "height": 700}, locale="sv-SE")
    context.set_default_timeout(20_000)
    refused: list[str] = []
    with club_site(widget) as club, club_site(widget) as stranger:
        services.event_sites_save(competition.event, sites=club, with_club_sites=True, by=organiser)
        page = context.new_page()
        page.goto(f"{club}/standings.html")
        framed = page.frame_locator("iframe")
        expect(framed.locator("h1.widget-title")).to_contain_text(competition.name)
        expect(framed.locator("table.widget-table tbody tr")).to_have_count(8)
        assert widget_frame(page).url == widget
        screenshot(page, "embed-widget-on-club-page")

        other = context.new_page()
        other.on("console", lambda message: refused.append(message.text))
        other.goto(f"{stranger}/standings.html")
        blocked = widget_frame(other)
        # Chromium puts its own error page in a frame whose ancestors may not hold it.
        expect(other.frame_locator("iframe").locator("h1.widget-title")).to_have_count(0)
        assert blocked.url != widget
        assert any("frame-ancestors" in line for line in refused), refused
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_widget_fits_360_and_is_accessible(browser, live_server, side_event, scheme):
    _organiser, competition = side_event
    context = browser.new_context(viewport=SMALL_PHONE, locale="sv-SE", color_scheme=scheme)
    context.set_default_timeout(20_000)
    context.add_init_script(path=AXE_FILE_PATH)
    page = context.new_page()
    url = reverse("events:widget", args=[competition.event.slug, competition.slug])
    page.goto(live_server.url + url)
    expect(page.locator("table.widget-table tbody tr")).to_have_count(8)
    assert not too_wide(page, url, scheme)
    assert not violations(page, url)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(250, 250, 247)") == (scheme == "light"), background
    screenshot(page, f"embed-widget-360-{scheme}")
    context.close()


def alpha_at(png: bytes, x: int, y: int) -> int:
    return Image.open(io.BytesIO(png)).convert("RGBA").getpixel((x, y))[3]


@pytest.mark.parametrize("name", ["overlay_lower_third", "overlay_ticker", "overlay_clock"])
def test_the_overlays_are_transparent_at_1920(browser, live_server, side_event, name):
    _organiser, competition = side_event
    context = browser.new_context(viewport=OBS, locale="sv-SE")
    context.set_default_timeout(20_000)
    context.add_init_script(path=AXE_FILE_PATH)
    page = context.new_page()
    url = reverse(f"events:{name}", args=[competition.event.slug, competition.slug])
    page.goto(live_server.url + url)
    part = {
        "overlay_lower_third": ".lower-third",
        "overlay_ticker": ".ticker",
        "overlay_clock": ".clock-box",
    }[name]
    expect(page.locator(part)).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollHeight") <= OBS["height"]
    assert not violations(page, url)
    png = page.screenshot(omit_background=True)
    assert Image.open(io.BytesIO(png)).size == (1920, 1080)
    assert alpha_at(png, 8, 8) == 0  # the camera shows through
    box = page.locator(part).bounding_box()
    assert box is not None
    assert alpha_at(png, int(box["x"] + box["width"] / 2), int(box["y"] + 8)) > 0
    with open(screenshot_path(f"embed-{name}"), "wb") as shot:
        shot.write(png)
    context.close()


def screenshot_path(name: str):
    from tests.support.browser import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def test_the_lower_third_follows_a_new_round(browser, live_server, side_event):
    """A live page: the overlay follows the version (a round drawn) without a reload."""
    _organiser, competition = side_event
    context = browser.new_context(viewport=OBS, locale="sv-SE")
    context.set_default_timeout(20_000)
    page = context.new_page()
    url = reverse("events:overlay_lower_third", args=[competition.event.slug, competition.slug])
    page.goto(live_server.url + url)
    expect(page.locator(".lt-label")).to_contain_text("1")
    session = competition.sessions.get(number=1)
    round_ = session.rounds.get(number=1)
    import random

    b.play_round(round_, random.Random(3))
    b.services.round_draw(session=session, seed=4)
    expect(page.locator(".lt-label")).to_contain_text("2", timeout=POLL_WAIT)
    context.close()


def test_the_desk_gives_the_snippet_and_saves_the_sites(desk_page, live_server, side_event):
    organiser, competition = side_event
    page = desk_page("org", size="desk")
    page.context.add_init_script(path=AXE_FILE_PATH)
    url = reverse("events:embed_desk", args=[competition.event.slug, competition.slug])
    page.goto(live_server.url + url)
    snippet = page.locator("#embed-snippet")
    expect(snippet).to_have_value(
        re.compile(r'^<iframe src="http[^"]+/e/klubbkvall/sidoturnering/widget/"')
    )
    page.fill("#id_sites", "https://klubben.se/sidan")
    page.locator("form button.primary").click()
    expect(page.locator(".field.has-error [role=alert]")).to_contain_text(
        "https://klubben.se/sidan"
    )
    page.fill("#id_sites", "https://klubben.se\nhttps://*.klubben.se")
    page.locator("form button.primary").click()
    expect(page.locator(".messages")).to_be_visible()
    expect(page.locator("#id_sites")).to_have_value("https://klubben.se\nhttps://*.klubben.se")
    # The preview frames the widget (this site may, always).
    expect(page.frame_locator("iframe.embed-frame").locator("h1.widget-title")).to_be_visible()
    assert not violations(page, url)
    screenshot(page, "embed-desk")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_desk_page_fits_360(desk_page, live_server, side_event, scheme):
    _organiser, competition = side_event
    page = desk_page("org", viewport=SMALL_PHONE, color_scheme=scheme)
    page.context.add_init_script(path=AXE_FILE_PATH)
    url = reverse("events:embed_desk", args=[competition.event.slug, competition.slug])
    page.goto(live_server.url + url)
    expect(page.frame_locator("iframe.embed-frame").locator("h1.widget-title")).to_be_visible()
    assert not too_wide(page, url, scheme)
    assert not violations(page, url)
    screenshot(page, f"embed-desk-360-{scheme}")
