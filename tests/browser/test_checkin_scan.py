"""Check-in by the desk's camera: "Scan" opens the camera, the QR code of a
player's own page is read, the player is checked in and the check-in box has focus again.

Chromium's fake camera plays a Y4M file made here from the player's QR code (segno, no image
library: a Y4M file is a text header and raw YUV 4:2:0 frames). Headless Chromium on Linux has
no ``BarcodeDetector``, so what this test exercises there is the vendored jsQR path.
"""

from __future__ import annotations

import pytest
import segno
from django.urls import reverse
from playwright.sync_api import expect

from events.common.siteurl import absolute_url
from tests.support.browser import CHROMIUM
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTH, HEIGHT = 640, 480


def y4m_of_qr(text: str, path, frames: int = 3) -> None:
    """A few frames of ``text`` as a large black-on-white QR code, centred."""
    rows = [list(row) for row in segno.make(text, error="m").matrix_iter(border=4)]
    module = min(WIDTH, HEIGHT) // len(rows)
    size = module * len(rows)
    left, top = (WIDTH - size) // 2, (HEIGHT - size) // 2
    luma = bytearray(b"\xff" * (WIDTH * HEIGHT))
    for y in range(size):
        row = rows[y // module]
        start = (top + y) * WIDTH + left
        luma[start : start + size] = bytes(0 if row[x // module] else 255 for x in range(size))
    chroma = b"\x80" * ((WIDTH // 2) * (HEIGHT // 2))
    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            out.write(b"FRAME\n" + bytes(luma) + chroma + chroma)


@pytest.fixture
def camera_browser(playwright):
    """A Chromium of its own: the camera's file is a launch argument (the shared browser is
    launched once per session without one); from the session's one Playwright."""

    def launch(video):
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--use-fake-ui-for-media-stream",
                "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={video}",
            ],
        )
        launched.append(browser)
        return browser

    launched: list = []
    yield launch
    for browser in launched:
        browser.close()


def test_a_player_is_checked_in_by_scanning_the_qr_code_of_their_page(
    camera_browser, live_server, desk_page, tmp_path
):
    organiser = UserFactory(username="desk")
    event = EventFactory(name="Tallinn Games", slug="tallinn", organisers=[organiser])
    competition = CompetitionFactory(
        event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard", settings={}
    )
    EntryFactory(competition=competition, player=PlayerFactory(name="Jüri Tamm"))
    entry = EntryFactory(competition=competition, player=PlayerFactory(name="Õie Sööt"))
    own_page = absolute_url(
        reverse("shuffleboard:player", args=[event.slug, competition.slug, entry.pk])
    )
    video = tmp_path / "qr.y4m"
    y4m_of_qr(own_page, video)

    page = desk_page("desk", "desk", in_browser=camera_browser(video))
    page.goto(live_server.url + competition.get_desk_url())

    scan = page.locator("[data-scan]")
    expect(scan).to_be_visible()  # a camera is there: the button shows
    scan.click()  # the one action per check-in: no key at all

    row = page.locator(f"#entries tr[data-number='{entry.number}']")
    expect(row).to_have_class("here")
    expect(page.locator("#entries [role=status].success")).to_contain_text("Õie Sööt")
    expect(page.locator("#checkin-filter")).to_be_focused()
    expect(page.locator("[data-scan-view]")).to_be_hidden()  # the camera is closed again
    expect(page.locator(f"#entries tr[data-number='{entry.number - 1}']")).not_to_have_class("here")
