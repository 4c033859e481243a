"""Numbers, dates and plurals the local way: decimal commas in
Swedish, month names through the event's time zone with the zone named, English plurals
that agree with their count, number inputs that keep a dot, and the JavaScript catalogue."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from events.common.localising import event_datetime, number
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, SeatFactory

SWEDISH = {"HTTP_ACCEPT_LANGUAGE": "sv"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A request in Swedish leaves Swedish active in this thread; the next test must not."""
    yield
    translation.deactivate()


def render(source: str, **context) -> str:
    return Template("{% load event_time %}" + source).render(Context(context))


@pytest.mark.django_db
def test_the_event_page_says_1_player_and_2_players(client):
    event = EventFactory(slug="plurals")
    solo = CompetitionFactory(event=event, name="Solo")
    duo = CompetitionFactory(event=event, name="Duo")
    EntryFactory(competition=solo)
    EntryFactory.create_batch(2, competition=duo)
    html = client.get(event.get_absolute_url(), **ENGLISH).content.decode()
    cards = {
        name: re.sub(r"\s+", " ", card)
        for name, card in re.findall(r"<strong>(Solo|Duo)</strong></a>(.*?)</li>", html, re.S)
    }
    assert "· 1 player ·" in cards["Solo"]
    assert "· 2 players ·" in cards["Duo"]
    assert "1 players" not in html


@pytest.mark.django_db
def test_the_competition_page_counts_registered_and_checked_in_per_number(client):
    competition = CompetitionFactory(event=EventFactory(slug="counts"))
    EntryFactory(competition=competition)
    html = client.get(competition.get_absolute_url(), **ENGLISH).content.decode()
    assert "1 registered, 0 checked in" in html


@pytest.mark.django_db
def test_event_dates_read_with_swedish_month_names(client):
    event = EventFactory(slug="maj", starts_on=dt.date(2026, 5, 5), ends_on=dt.date(2026, 5, 8))
    swedish = client.get(event.get_absolute_url(), **SWEDISH)
    assert swedish["Content-Language"] == "sv"
    html = swedish.content.decode()
    assert "5 maj 2026 – 8 maj 2026" in html
    assert "May" not in html
    assert "5 May 2026" in client.get(event.get_absolute_url(), **ENGLISH).content.decode()


@pytest.mark.django_db
def test_a_moment_is_shown_in_the_events_zone_with_a_swedish_month_and_the_zone_named():
    event = EventFactory(time_zone="Europe/Tallinn")
    moment = dt.datetime(2026, 5, 31, 21, 30, tzinfo=dt.UTC)  # 00:30 on 1 June in Tallinn
    with translation.override("sv"):
        assert render("{{ m|event_time:event }}", m=moment, event=event) == (
            "1 juni 2026 00:30 (Europe/Tallinn)"
        )
        assert render(
            '{% event_time m event "TIME_FORMAT" zone_name=False %}', m=moment, event=event
        ) == ("00:30")
        assert render("{{ event|zone_label }}", event=event) == "Europe/Tallinn"
    with translation.override("et"):
        # Django ships no Estonian DATETIME_FORMAT; config/formats/et/ gives one.
        assert event_datetime(moment, event) == "1. juuni 2026 0:30 (Europe/Tallinn)"
    with translation.override("en"):
        assert event_datetime(moment, "Europe/Stockholm", "SHORT_DATETIME_FORMAT") == (
            "31/05/2026 11:30 p.m. (Europe/Stockholm)"
        )


@pytest.mark.django_db
def test_the_correction_trail_shows_times_in_the_events_zone(client):
    from events.models import Correction

    event = EventFactory(slug="trail", time_zone="America/New_York")
    seat = SeatFactory(game__round__session__competition__event=event, score=-5)
    competition = seat.game.round.session.competition
    correction = Correction.objects.create(
        competition=competition,
        entry=seat.entry,
        item="Score",
        before="-5",
        after="-4",
        source=Correction.Source.DESK,
    )
    Correction.objects.filter(pk=correction.pk).update(
        created_at=dt.datetime(2026, 5, 6, 2, 15, tzinfo=dt.UTC)
    )
    html = client.get(competition.get_absolute_url(), **SWEDISH).content.decode()
    assert "(America/New_York)" in html
    assert "2026-05-05 22:15" in html  # the evening before, in New York; Swedish short format


def test_fractions_and_averages_take_a_decimal_comma_in_swedish():
    with translation.override("sv"):
        assert render("{{ avg|floatformat:1 }}", avg=121.85) == "121,9"
        assert render("{{ pts|floatformat:'-1' }}", pts=Decimal("2.5")) == "2,5"
        assert number(Fraction(243, 2), 1) == "121,5"
        assert number(121.85, 1) == "121,9"
        assert number(1500) == "1500"  # no thousands separator (settings)
    with translation.override("en"):
        assert number(121.85, 1) == "121.9"
    with translation.override("nl"):
        assert number(Decimal("0.25"), 1) == "0,3"


@pytest.mark.django_db
def test_number_inputs_keep_a_dot_in_swedish(admin_client):
    # A draw in the round robin: half a point, edited in the game's admin page.
    seat = SeatFactory(
        game__round__session__competition__format="roundrobin", points=Decimal("0.5")
    )
    html = admin_client.get(
        reverse("admin:events_game_change", args=[seat.game_id]), **SWEDISH
    ).content.decode()
    assert 'lang="sv"' in html
    field = re.search(r'<input type="number" name="[^"]*points"[^>]*>', html)
    assert field is not None, html
    assert 'value="0.50"' in field.group(0)
