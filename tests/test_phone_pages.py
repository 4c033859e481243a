"""Phones, server side: the pages carry what static/js/me.js needs
(data-player on standings, crosstable and seat rows; "This is me" / "Not me" on player pages),
the script is loaded after the JavaScript catalogue, and crosstables sit in their scroll box."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from blokus import demo as blokus_demo
from events.models import Entry, Game
from roundrobin import demo as roundrobin_demo
from shuffleboard import demo as shuffleboard_demo
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_base_loads_me_js_deferred_after_the_catalogue(client):
    competition = shuffleboard_demo.create(UserFactory(username="organiser"))
    html = page(
        client, reverse("shuffleboard:standings", args=[competition.event.slug, competition.slug])
    )
    assert html.index("jsi18n") < html.index("js/me.js")
    assert 'js/me.js" defer' in html


def test_sjoelen_standings_rows_and_player_buttons(client):
    competition = shuffleboard_demo.create(UserFactory(username="organiser"))
    args = [competition.event.slug, competition.slug]
    entries = Entry.objects.filter(competition=competition, checked_in_at__isnull=False)
    html = page(client, reverse("shuffleboard:standings", args=args))
    for entry in entries:
        assert f'data-player="{entry.pk}"' in html
    entry = entries.first()
    html = page(client, reverse("shuffleboard:player", args=[*args, entry.pk]))
    assert f'data-me-set="{entry.pk}"' in html
    assert f'data-me-clear="{entry.pk}"' in html


def test_round_robin_crosstable_rows_in_a_scroll_box_and_player_buttons(client):
    competition = roundrobin_demo.create(UserFactory(username="organiser"))
    args = [competition.event.slug, competition.slug]
    html = page(client, reverse("roundrobin:tables", args=args))
    assert '<div class="cross-wrap"><table class="cross"' in html
    entry = Entry.objects.filter(competition=competition).order_by("pk").first()
    assert f'data-player="{entry.pk}"' in html
    html = page(client, reverse("roundrobin:player", args=[*args, entry.pk]))
    assert f'data-me-set="{entry.pk}"' in html


def test_blokus_seats_and_standings_rows_and_player_newest_round_first(client):
    competition = blokus_demo.create(UserFactory(username="organiser"))
    args = [competition.event.slug, competition.slug]
    game = Game.objects.filter(round__session__competition=competition).order_by("pk").first()
    html = page(client, reverse("blokus:session", args=[*args, game.round.session.number]))
    seated = list(game.seats.values_list("entry_id", flat=True))
    assert seated
    for entry_id in seated:
        assert f'data-player="{entry_id}"' in html
    entry_id = seated[0]
    html = page(client, reverse("blokus:player", args=[*args, entry_id]))
    assert f'data-me-set="{entry_id}"' in html
    rounds = [int(n) for n in re.findall(r"Round (\d+)</h2>", html)]
    assert rounds == sorted(rounds, reverse=True)
