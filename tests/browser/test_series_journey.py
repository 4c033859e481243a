"""Series across events in a real browser at 390 px: from the demo, the organiser
builds a three-night sjoelen season and a two-year Blokus series at the desk; a player's phone
follows the sjoelen series' page while a result is corrected, without a reload."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.management import call_command
from django.test import override_settings
from playwright.sync_api import expect

from events import services
from events.models import ClubRole, Competition, HostClub
from events.series.models import Series
from shuffleboard import services as sjoelen
from shuffleboard.models import Turn
from tests.support.browser import POLL_WAIT, screenshot
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def another_night(demo: Competition, organiser, *, days_earlier: int, seed: int) -> Competition:
    """A sjoelen night of the demo's club before the demo's, with its players, one game each."""
    rng = random.Random(seed)
    day = demo.event.starts_on - dt.timedelta(days=days_earlier)
    event = services.event_create(
        name=f"Club night {day:%d.%m}",
        starts_on=day,
        ends_on=day,
        time_zone="Europe/Tallinn",
        organiser=organiser,
        host=demo.event.host,
    )
    night = services.competition_create(event=event, name="Sjoelen", format="shuffleboard")
    for entry in demo.entries.select_related("player").order_by("pk")[:12]:
        mine = services.player_register(competition=night, player=entry.player, check_in=True)
        counts = [0, 0, 0, 0]
        for gate in rng.choices([0, 1, 2, 3], k=24):
            counts[gate] += 1
        sjoelen.turn_record(entry=mine, number=1, counts=counts, board=1)
    return night


def join(page, competition: Competition) -> None:
    page.select_option("#id_competition", str(competition.pk))
    page.click("form[action$='/join/'] button[type=submit]")
    expect(page.locator(".series-members")).to_contain_text(competition.event.name)


def test_a_sjoelen_season_and_a_blokus_series_built_at_the_desk_follow_a_correction(
    desk_page, phone, live_server
):
    with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    organiser = UserFactory(username="clubdesk")
    for club in HostClub.objects.all():  # an organiser of the demo's three clubs
        ClubRole.objects.create(club=club, user=organiser, role="organiser")
    season = Series.objects.get(format="shuffleboard")
    demo_night = Competition.objects.get(format="shuffleboard")
    nights = [another_night(demo_night, organiser, days_earlier=d, seed=d) for d in (14, 7)]
    # The Blokus series: the demo's LinCon this year and LinCon next year, at the same club.
    lincon = Competition.objects.get(format="blokus", event__slug__startswith="lincon")
    day = lincon.event.starts_on + dt.timedelta(days=365)
    next_year = services.competition_create(
        event=services.event_create(
            name="LinCon next year",
            starts_on=day,
            ends_on=day,
            time_zone="Europe/Stockholm",
            organiser=organiser,
            host=lincon.event.host,
        ),
        name="Blokus tournament",
        format="blokus",
    )
    base = live_server.url

    desk = desk_page("clubdesk")
    desk.goto(f"{base}/desk/series/{season.slug}/")
    for competition in nights:
        join(desk, competition)
    expect(desk.locator(".series-members li")).to_have_count(3)
    screenshot(desk, "series-desk-sjoelen")
    assert desk.evaluate("document.documentElement.scrollWidth") <= 390

    # A two-year Blokus series, made at the desk: LinCon last year and this year.
    desk.goto(f"{base}/desk/series/")
    desk.fill("#id_name", "LinCon Blokus")
    desk.select_option("#id_host", "lincon")
    desk.select_option("#id_format", "blokus")
    desk.select_option("#id_kind", "points")
    desk.click("main form button.primary")
    expect(desk.locator("h1")).to_have_text("LinCon Blokus")
    for competition in (lincon, next_year):
        join(desk, competition)
    blokus_series = Series.objects.get(name="LinCon Blokus")
    desk.goto(f"{base}{blokus_series.get_absolute_url()}")
    expect(desk.locator(".series-standings tbody tr").first).to_be_visible()
    expect(desk.get_by_role("link", name="Rating list")).to_be_visible()

    # The phone follows the sjoelen season; the leader's first night is corrected to 20.
    phone.goto(f"{base}{season.get_absolute_url()}")
    first = phone.locator(".series-standings tbody tr").first
    expect(first).to_be_visible()
    phone.evaluate("window.notReloaded = true")
    leader = int(first.get_attribute("data-player"))
    before = first.locator("td.num strong").inner_text()
    turn = (
        Turn.objects.filter(entry__player_id=leader, entry__competition__in=[n.pk for n in nights])
        .order_by("-score")
        .first()
    )
    sjoelen.turn_correct(
        turn=turn, revision=turn.revision, counts=(1, 1, 1, 1), entered_by=organiser, confirmed=True
    )
    row = phone.locator(f'.series-standings tr[data-player="{leader}"]')
    expect(row.locator("td.num strong")).not_to_have_text(before, timeout=POLL_WAIT)
    expect(phone.locator("#series-live .corrections")).to_be_visible()
    assert phone.evaluate("window.notReloaded") is True
    row.locator("summary").click()
    expect(row.locator(".series-used li")).to_have_count(3)
    screenshot(phone, "series-public-corrected")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
