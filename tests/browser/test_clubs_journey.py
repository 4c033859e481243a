"""Two clubs on one install, as new users would try it (the clubs issue's "done when"): each
organiser makes a club with colours of their own, runs a night at it, sees their club's band
on the projector and their season; neither reaches the other's desk; a phone at 360 px reads
the club's public page in light and dark."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.models import Competition, HostClub
from tests.support.browser import screenshot
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}


def make_club(page, base: str, name: str, country: str, zone: str, band: str | None) -> str:
    page.goto(f"{base}/desk/clubs/new/")
    page.fill("#id_name", name)
    page.select_option("#id_country", country)
    page.select_option("#id_time_zone", zone)
    if band:
        page.uncheck("#id_no_colours")
        page.fill("#id_band_colour", band)
        page.fill("#id_stripe_colour", "#b07d00")
    page.click("main form button.primary")
    expect(page.locator("h1")).to_have_text(name)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def run_a_night(page, base: str, club_slug: str, night: str, player: str) -> Competition:
    page.goto(f"{base}/desk/clubs/{club_slug}/")
    page.get_by_role("link", name="New event").click()
    expect(page.locator("#id_host")).to_have_value(club_slug)
    today = dt.date.today().isoformat()
    page.fill("#id_name", night)
    page.fill("#id_starts_on", today)
    page.fill("#id_ends_on", today)
    page.fill("#id_competition_name", "Sjoelen")
    page.select_option("#id_competition_format", "shuffleboard")
    page.click("main form button.primary")
    expect(page.locator("#new-player-form")).to_be_visible()
    page.fill("#id_name", player)
    page.click("#new-player-form button[type=submit]")
    expect(page.locator("#entries")).to_contain_text(player)
    page.locator("#entries tr", has_text=player).get_by_role("button", name="Check in").click()
    expect(page.locator("#entries tr", has_text=player)).to_contain_text("checked in")
    return Competition.objects.get(event__name=night)


def test_two_clubs_each_run_a_night_with_their_own_colours_and_season(
    desk_page, browser, live_server
):
    UserFactory(username="ann")
    UserFactory(username="bo")
    base = live_server.url

    ann = desk_page("ann", size="desk")
    ann_club = make_club(ann, base, "Göteborgs Sjoelclub", "SE", "Europe/Stockholm", "#1f4e8c")
    night = run_a_night(ann, base, ann_club, "Thursday night", "Karin Lind")

    bo = desk_page("bo", size="desk")
    bo_club = make_club(bo, base, "Tartu Lauamängud", "EE", "Europe/Tallinn", None)
    run_a_night(bo, base, bo_club, "Tartu night", "Mart Tamm")

    # The projector shows Ann's club in its band colour.
    screen = reverse(night.game_format.screen, args=[night.event.slug, night.slug])
    ann.goto(f"{base}{screen}")
    band = ann.locator(".screen-club span")
    expect(band).to_have_text("Göteborgs Sjoelclub")
    expect(band).to_have_css("background-color", "rgb(31, 78, 140)")
    expect(band).to_have_css("color", "rgb(255, 255, 255)")

    # Each club's season holds its own night and person only.
    ann.goto(f"{base}/desk/clubs/{ann_club}/season/")
    expect(ann.locator("main")).to_contain_text("Karin Lind")
    expect(ann.locator("main")).not_to_contain_text("Mart Tamm")
    bo.goto(f"{base}/desk/clubs/{bo_club}/season/")
    expect(bo.locator("main")).to_contain_text("Mart Tamm")
    expect(bo.locator("main")).not_to_contain_text("Karin Lind")

    # Neither reaches the other's desk; their desks list their own nights only.
    for path in (
        f"/desk/clubs/{ann_club}/",
        f"/desk/{night.event.slug}/",
        f"{night.get_desk_url()}",
    ):
        assert bo.goto(f"{base}{path}").status == 403, path
    bo.goto(f"{base}/desk/")
    expect(bo.locator("main")).to_contain_text("Tartu night")
    expect(bo.locator("main")).not_to_contain_text("Thursday night")

    # The public page on a small phone, light and dark: the club's band, its night, no overflow.
    assert HostClub.objects.get(slug=ann_club).band_colour == "#1f4e8c"
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=SMALL_PHONE, locale="en-GB", color_scheme=scheme)
        context.set_default_timeout(20_000)
        phone = context.new_page()
        phone.goto(f"{base}/c/{ann_club}/")
        expect(phone.locator(".club-band")).to_have_css("background-color", "rgb(31, 78, 140)")
        expect(phone.locator("main")).to_contain_text("Thursday night")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        screenshot(phone, f"club-public-{scheme}")
        phone.goto(f"{base}{night.event.get_absolute_url()}")
        expect(phone.locator(".club-band")).to_contain_text("Göteborgs Sjoelclub")
        screenshot(phone, f"club-event-{scheme}")
        context.close()
