"""The Blokus projector screen: the round clock, large, and "where do I sit" for the round."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from blokus import selectors
from blokus.format import BLOKUS
from blokus.views.screen_bump import bump_pages
from events.common.http import HtmxHttpRequest
from events.live.pages import Context, competition_page
from events.live.screen import PAGE_VH, numbered, pages_of, rows_fitting, screen_context
from events.models import Competition, Game, Round, fold

CLOCK_VH = 32  # the clock's band (.screen-clock in screen.css): over a quarter of the height
SEAT_COLUMNS = 2


@dataclass(frozen=True)
class SeatLine:
    name: str
    table: int
    colour: str


def current_round(competition: Competition) -> Round | None:
    """The round players sit down for: the latest with a game still to play, else the latest
    drawn (one query)."""
    open_games = Game.objects.filter(
        round=OuterRef("pk"), status__in=[Game.Status.PENDING, Game.Status.PLAYING]
    )
    return (
        Round.objects.filter(session__competition=competition, games__isnull=False)
        .annotate(open=Exists(open_games))
        .select_related("session")
        .order_by("-open", "-session__number", "-number")
        .first()
    )


def seat_lines(round_: Round | None) -> list[SeatLine]:
    """Every player of the round with their table and colour, by full name, each shown by their
    public name (``Player.public_name``: the screen is public) (one query)."""
    if round_ is None:
        return []
    seats = selectors.seats_query().filter(game__round=round_)
    by_name = sorted(
        seats, key=lambda s: (fold(s.entry.player.name), s.entry.player.name, s.game.number)
    )
    return [SeatLine(s.entry.player.public_name, s.game.number, s.colour) for s in by_name]


@competition_page("blokus/screen.html", game_format=BLOKUS)
def screen(request: HtmxHttpRequest, competition: Competition) -> Context:
    round_ = current_round(competition)
    rows = rows_fitting(PAGE_VH - CLOCK_VH)
    pages = numbered(
        pages_of(
            seat_lines(round_),
            rows=rows,
            columns=SEAT_COLUMNS,
            title=_("Where do I sit?"),
            kind="seating",
        ),
        bump_pages(round_),
    )
    return {
        **screen_context(request, competition, pages),
        "round": round_,
        "clock": selectors.running_clock(competition),
        "public": True,
    }
