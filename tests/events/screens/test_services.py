"""Pairing by a one-time code, the desk's choices, and the version each choice bumps."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from events.errors import Invalid, NotFound
from events.models import Competition
from events.screens import services
from events.screens.models import MAX_ANNOUNCEMENT, Screen, Shows
from tests.support import blokus
from tests.support.factories import CompetitionFactory, EventFactory
from tests.support.paired_screens import paired_screen

pytestmark = pytest.mark.django_db


def test_a_code_pairs_one_screen_once(event, competition):
    pairing = services.pairing_start()
    assert len(pairing.code) == 6 and set(pairing.code) <= set(services.CODE_ALPHABET)
    screen = services.screen_pair(event=event, code=pairing.code.lower(), name="  Hall   left ")
    assert screen.name == "Hall left" and screen.competition == competition
    assert len(screen.token) >= 40
    with pytest.raises(NotFound):
        services.screen_pair(event=event, code=pairing.code, name="Again")


def test_an_expired_or_unknown_code_pairs_nothing(event, competition):
    pairing = services.pairing_start()
    later = timezone.now() + dt.timedelta(seconds=services.PAIRING_SECONDS + 1)
    with time_machine.travel(later), pytest.raises(NotFound):
        services.screen_pair(event=event, code=pairing.code, name="Late")
    for typed in ("", "ZZZZZZ", "<script>", "x" * 500, "' OR 1=1 --"):
        with pytest.raises(NotFound):
            services.screen_pair(event=event, code=typed, name="Hall")
    assert not Screen.objects.exists()


def test_a_name_must_be_given_and_unique_in_the_event(event, competition):
    paired_screen(event, "Hall left")
    with pytest.raises(Invalid):
        services.screen_pair(event=event, code=services.pairing_start().code, name="   ")
    with pytest.raises(Invalid) as refused:
        services.screen_pair(event=event, code=services.pairing_start().code, name="hall LEFT")
    assert refused.value.code == "name_taken"


def test_a_choice_bumps_the_competition_shown(event, competition):
    screen = paired_screen(event)
    before = Competition.objects.get(pk=competition.pk).version
    services.screen_show(screen=screen, shows=Shows.ANNOUNCEMENT, announcement="Lunch at 12")
    assert Competition.objects.get(pk=competition.pk).version > before
    screen.refresh_from_db()
    assert (screen.shows, screen.announcement) == (Shows.ANNOUNCEMENT, "Lunch at 12")


def test_moving_to_another_competition_bumps_both(event, competition):
    other = CompetitionFactory(event=event, slug="side")
    screen = paired_screen(event)
    versions = dict(Competition.objects.values_list("pk", "version"))
    services.screen_show(screen=screen, shows=Shows.STANDINGS, competition=other)
    after = dict(Competition.objects.values_list("pk", "version"))
    assert after[competition.pk] > versions[competition.pk]
    assert after[other.pk] > versions[other.pk]


def test_hostile_choices_are_refused(event, competition):
    screen = paired_screen(event)
    elsewhere = CompetitionFactory(event=EventFactory(slug="elsewhere"))
    with pytest.raises(Invalid):
        services.screen_show(screen=screen, shows="delete-everything")
    with pytest.raises(Invalid):
        services.screen_show(screen=screen, shows=Shows.ANNOUNCEMENT, announcement="  ")
    with pytest.raises(Invalid):
        services.screen_show(
            screen=screen, shows=Shows.ANNOUNCEMENT, announcement="x" * (MAX_ANNOUNCEMENT + 1)
        )
    with pytest.raises(Invalid):
        services.screen_show(screen=screen, shows=Shows.STANDINGS, competition=elsewhere)
    screen.refresh_from_db()
    assert screen.shows == Shows.CYCLE


def test_a_seating_follows_the_round_open_now(event):
    competition = blokus.small(event)
    round_ = blokus.seated_round(competition, competition.sessions.first(), 8)
    screen = paired_screen(event)
    services.screen_show(screen=screen, shows=Shows.SEATING, competition=competition)
    screen.refresh_from_db()
    assert screen.round == round_ and screen.follows_round
    services.screen_show(screen=screen, shows=Shows.STANDINGS)
    screen.refresh_from_db()
    assert screen.round is None and not screen.follows_round


def test_pause_resume_and_remove(event, competition):
    screen = paired_screen(event)
    assert services.screen_pause(screen=screen, paused=True).paused
    assert not services.screen_pause(screen=screen, paused=False).paused
    before = Competition.objects.get(pk=competition.pk).version
    services.screen_remove(screen=screen)
    assert not Screen.objects.exists()
    assert Competition.objects.get(pk=competition.pk).version > before


def test_codes_that_expired_a_day_ago_are_purged():
    old = services.pairing_start()
    with time_machine.travel(timezone.now() + dt.timedelta(days=2)):
        services.pairing_start()
    assert not type(old).objects.filter(pk=old.pk).exists()


def test_the_code_as_typed():
    assert services.normalised_code(" ab-c d2 ") == "ABCD2"
