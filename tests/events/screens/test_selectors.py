"""The desk's list with last contacts, the screen by its address, and a round played out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from events.models import Game
from events.screens import contact, selectors, services
from tests.support import blokus
from tests.support.paired_screens import paired_screen

pytestmark = pytest.mark.django_db


def test_the_list_costs_one_query_however_many_screens(
    event, competition, django_assert_max_num_queries
):
    for name in ("A", "B", "C", "D"):
        paired_screen(event, name)
    with django_assert_max_num_queries(1):
        rows = selectors.screens_of(event)
    assert [row.screen.name for row in rows] == ["A", "B", "C", "D"]
    assert all(row.out_of_touch and row.last_contact is None for row in rows)


def test_a_recent_contact_is_in_touch(event, competition):
    screen = paired_screen(event)
    contact.seen(screen.pk)
    (row,) = selectors.screens_of(event)
    assert row.last_contact is not None and not row.out_of_touch
    contact.seen(screen.pk, timezone.now() - dt.timedelta(minutes=5))
    (row,) = selectors.screens_of(event)
    assert row.out_of_touch


def test_a_screen_is_found_by_its_token_only(event, competition, django_assert_max_num_queries):
    screen = paired_screen(event)
    with django_assert_max_num_queries(1):
        found = selectors.screen_by_token(screen.token)
        assert found is not None and found.event.slug == event.slug
    assert selectors.screen_by_token("") is None
    assert selectors.screen_by_token("x" * 500) is None
    assert selectors.screen_by_token(screen.token[:-1]) is None


def test_a_pairing_is_live_until_used(event, competition):
    pairing = services.pairing_start()
    assert selectors.pairing_live(pairing)
    services.screen_pair(event=event, code=pairing.code, name="Hall")
    found = selectors.pairing_by_claim(pairing.claim)
    assert found is not None and not selectors.pairing_live(found)
    assert selectors.pairing_by_claim("x" * 500) is None


def test_a_round_is_over_once_its_games_are_played_or_it_is_gone(event):
    competition = blokus.small(event)
    round_ = blokus.seated_round(competition, competition.sessions.first(), 8)
    assert not selectors.round_over(round_.pk)
    Game.objects.filter(round=round_).update(status=Game.Status.FINISHED)
    assert selectors.round_over(round_.pk)
    assert selectors.round_over(None)
    assert selectors.round_over(10**9)
