"""Tests of roundrobin/hooks.py: what events asks of the round robin (the periodic sweep, the
private links, the check of a late entry, the capabilities' modules), through the format's
declared hooks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from events.errors import ServiceError
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.pdf import KitPdf
from roundrobin import export, read_api
from roundrobin.format import ROUNDROBIN
from roundrobin.hooks import RoundRobinHooks
from roundrobin.models import PlayerToken, Turn
from tests.support.printing import opened
from tests.support.roundrobin import START, enter_players, make_competition, started_duel

H = dt.timedelta(hours=1)


@pytest.fixture
def hooks():
    return ROUNDROBIN.hooks


def test_the_declaration_names_these_hooks(hooks):
    assert isinstance(hooks, RoundRobinHooks)
    assert hooks.export is export and hooks.read_api is read_api
    assert hooks.running_withdraw_url == "roundrobin:withdraw"


def test_the_periodic_sweep_closes_expired_turns_and_says_what_it_did(hooks, event):
    competition, game, white, black = started_duel(event)
    (work,) = hooks.periodic()
    assert (work.name, work.every) == ("roundrobin:deadlines", dt.timedelta(minutes=1))
    assert "closed 0 turns" in work.run(START + H)
    line = work.run(START + 25 * H)
    assert line.startswith("round robin: closed 1 turns, finished 0 games in 1 competitions")
    assert Turn.objects.filter(game=game, closed_at__isnull=True).get().number == 2
    assert "closed 0 turns" in work.run(START + 25 * H)  # a second run finds nothing to do


def test_the_private_links_are_the_players_own_addresses(hooks, event):
    competition, game, white, black = started_duel(event)
    links = hooks.private_links([white, black])
    for entry in (white, black):
        token = PlayerToken.objects.get(entry=entry).token
        assert links[entry.pk] == reverse("roundrobin:private", args=[token])
    assert hooks.private_links([]) == {}


def test_an_entry_is_refused_once_the_competition_has_started(hooks, event):
    waiting = make_competition(event, slug="waiting")
    enter_players(waiting, 2)
    hooks.entry_check(waiting)  # still open: nothing to say
    competition, game, white, black = started_duel(event)
    with pytest.raises(ServiceError):
        hooks.entry_check(competition)


def test_a_players_open_turn_is_in_the_calendar(hooks, event):
    competition, game, white, black = started_duel(event)
    items = hooks.calendar_items([competition], [white])
    (item,) = items
    assert item.start == START + 24 * H  # the turn's deadline
    assert hooks.calendar_items([competition], [black])[0].key != item.key


@pytest.mark.django_db
def test_the_hooks_draw_every_item_they_list_and_refuse_another(event):
    duel = started_duel(event)
    hooks = RoundRobinHooks()
    items = hooks.print_items(duel.competition)
    assert [item.key for item in items] == ["crosstables", "links"]
    for item in items:
        pdf = KitPdf(title="League", paper=item.paper, orientation=item.orientation)
        hooks.draw_print_item(pdf, duel.competition, item)
        assert len(opened(pdf.to_bytes()).pages) == 1
    with pytest.raises(NoSuchItem):
        hooks.draw_print_item(KitPdf(title="League"), duel.competition, PrintItem("links", "", "x"))
    assert hooks.certificate_details(duel.competition) == {}  # no game over yet
