"""The desk's choice over a format's pages: its kind, else the standings, else all of them."""

from __future__ import annotations

from dataclasses import dataclass

from events.screens.models import Shows
from events.screens.shown import Shown, pages_for, template_for


@dataclass(frozen=True)
class P:
    kind: str


PAGES = [P("standings"), P("standings"), P("rota")]


def test_a_kind_keeps_its_pages_only():
    assert pages_for(Shows.ROTA, PAGES) == [P("rota")]
    assert pages_for(Shows.STANDINGS, PAGES) == PAGES[:2]


def test_a_kind_the_format_lacks_falls_back_to_standings_then_to_the_cycle():
    assert pages_for(Shows.SEATING, PAGES) == PAGES[:2]
    assert pages_for(Shows.STANDINGS, [P("table"), P("table")]) == [P("table"), P("table")]
    assert pages_for(Shows.CYCLE, PAGES) == PAGES


def test_the_room_draws_its_own_choices_in_place_of_the_pages():
    for own in (Shows.CLOCK, Shows.ANNOUNCEMENT, Shows.SIGN_UP):
        assert pages_for(own, PAGES) == []
        assert template_for(own) == f"events/screens/_{own}.html"
    assert template_for(Shows.CYCLE) == ""
    assert template_for(Shows.SEATING) == ""


def test_a_seating_whose_round_is_over_shows_the_standings():
    assert Shown(Shows.SEATING, round_over=lambda: True).now() == Shows.STANDINGS
    assert Shown(Shows.SEATING, round_over=lambda: False).now() == Shows.SEATING
    assert Shown(Shows.ROTA, round_over=lambda: True).now() == Shows.ROTA
