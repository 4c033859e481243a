"""Every read of the widget, the overlays and their desk page, each in a constant number of
queries: the sites allowed to frame the widget, the standings lines, the tables of the lower
third, the ticker. A format's own answers come through the registry (``events.embed.contract``);
these are the shared ones."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.utils.translation import gettext as _

from events.common.localising import number
from events.embed.contract import (
    StreamClock,
    StreamTable,
    StreamTables,
    StreamTicker,
    TickerLine,
)
from events.embed.models import ClubEmbed, EventEmbed
from events.exchange.document import format_module
from events.formats.registry import part
from events.models import Competition, Event, Game, HostClub, Round, Seat, Session

TICKER_LINES = 40  # a ticker longer than this scrolls for minutes: the top of the field


def lines_of(sites: str | None) -> list[str]:
    return [line for line in (sites or "").splitlines() if line]


def sites_of_competition(pk: int) -> list[str]:
    """The sites allowed to frame the widgets of this competition's event: the event's own,
    and the hosting club's unless the event turned them off (one query)."""
    row = (
        Competition.objects.filter(pk=pk)
        .values_list(
            "event__embed__sites", "event__embed__with_club_sites", "event__host__embed__sites"
        )
        .first()
    )
    if row is None:
        return []
    own, with_club, club = row
    sites = lines_of(own)
    if with_club is not False:  # no row of its own: the default, the club's sites too
        sites += [site for site in lines_of(club) if site not in sites]
    return sites


def event_embed(event: Event) -> EventEmbed:
    """The event's row, or an unsaved one with the defaults (one query)."""
    return EventEmbed.objects.filter(event=event).first() or EventEmbed(event=event)


def club_embed(club: HostClub) -> ClubEmbed:
    return ClubEmbed.objects.filter(club=club).first() or ClubEmbed(club=club)


# --- standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    group: str  # "Table 2" where the format ranks per table, else ""
    place: str
    name: str
    club: str
    value: str  # points, total or score: the first the standings have


def shown(value: Any) -> str:
    """A standings value as people read it: halves as ½, the language's decimal separator."""
    if value is None or value == "" or isinstance(value, bool):
        return ""
    if isinstance(value, Fraction) and value.denominator == 2:
        whole = abs(value.numerator) // 2
        sign = "-" if value < 0 else ""
        return f"{sign}{whole}½" if whole else f"{sign}½"
    if isinstance(value, Fraction | Decimal | float):
        return number(value)
    return str(value)


@dataclass(frozen=True)
class Standings:
    value_label: str  # the heading of StandingLine.value: "Points", "Total" or "Score"
    lines: list[StandingLine]


def standings(competition: Competition) -> Standings:
    """The public standings (as the results sheet reads them, names as players chose), best
    first, withdrawn players left out; what the standings cost (constant queries)."""
    sheet = format_module(competition.format).standings(competition, public=True)
    header = list(sheet.header)

    def at(label: str) -> int | None:
        return header.index(label) if label in header else None

    name_at = at(_("Player"))
    if name_at is None:
        return Standings("", [])
    place_at = at(_("Place"))
    final_at = at(_("Final place"))
    if final_at is not None and any(row[final_at] for row in sheet.rows):
        place_at = final_at
    value_at = next(
        (i for i in (at(_("Points")), at(_("Total")), at(_("Score"))) if i is not None), None
    )
    value_label = header[value_at] if value_at is not None else ""
    group_at, club_at, gone_at = at(_("Table")), at(_("Club")), at(_("Withdrawn"))
    lines = []
    for row in sheet.rows:
        if gone_at is not None and row[gone_at]:
            continue
        lines.append(
            StandingLine(
                group=_("Table %(number)s") % {"number": row[group_at]}
                if group_at is not None
                else "",
                place=shown(row[place_at]) if place_at is not None else "",
                name=str(row[name_at]),
                club=str(row[club_at] or "") if club_at is not None else "",
                value=shown(row[value_at]) if value_at is not None else "",
            )
        )
    return Standings(value_label, lines)


# --- the overlays --------------------------------------------------------------------------------


def shared_tables(competition: Competition) -> list[StreamTable]:
    """The tables of the latest round with games (three queries), labelled by its session
    ("Final, table 1"; "Qualifying 1, round 2, table 3" where the session has rounds)."""
    rounds_in_session = (
        Round.objects.filter(session=OuterRef("session"))
        .values("session")
        .annotate(count=Count("pk"))
        .values("count")
    )
    sessions_of_kind = (
        Session.objects.filter(
            competition=OuterRef("session__competition"), kind=OuterRef("session__kind")
        )
        .values("competition")
        .annotate(count=Count("pk"))
        .values("count")
    )
    latest = (
        Round.objects.filter(session__competition=competition, games__isnull=False)
        .select_related("session")
        .annotate(rounds=Subquery(rounds_in_session), kin=Subquery(sessions_of_kind))
        .order_by("-session__number", "-number")
        .first()
    )
    if latest is None:
        return []
    seats = Seat.objects.select_related("entry__player").order_by("position")
    games = (
        Game.objects.filter(round=latest)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats))
    )
    session = latest.session
    # The only session of its kind (a final) is named by the kind alone: "Final, table 1".
    where = str(session) if (latest.kin or 1) > 1 else session.name or session.get_kind_display()
    several = (latest.rounds or 1) > 1
    tables = []
    for game in games:
        if several:
            label = _("%(session)s, round %(round)s, table %(table)s") % {
                "session": where,
                "round": latest.number,
                "table": game.number,
            }
        else:
            label = _("%(session)s, table %(table)s") % {"session": where, "table": game.number}
        players = tuple(seat.entry.player.public_name for seat in game.seats.all())
        # By its number, not its row: an OBS source set to table 2 stays on table 2 next round.
        tables.append(StreamTable(key=str(game.number), label=label, players=players))
    return tables


def stream_tables(competition: Competition) -> list[StreamTable]:
    own = part(competition.format, StreamTables)
    return own.stream_tables(competition) if own else shared_tables(competition)


def chosen_table(tables: list[StreamTable], key: str) -> StreamTable | None:
    """The table the address names (``?table=2``), else table 1: the one a camera usually
    films; None with no tables."""
    for table in tables:
        if table.key == key:
            return table
    return tables[0] if tables else None


def shared_ticker(competition: Competition) -> list[TickerLine]:
    return [
        TickerLine(place=line.place, name=line.name, value=line.value)
        for line in standings(competition).lines[:TICKER_LINES]
    ]


def ticker_lines(competition: Competition) -> list[TickerLine]:
    own = part(competition.format, StreamTicker)
    return own.stream_ticker(competition) if own else shared_ticker(competition)


def clock_template(competition: Competition) -> str:
    """The format's clock for the clock overlay, or "" (no clock: the overlay stays empty)."""
    own = part(competition.format, StreamClock)
    return own.stream_clock(competition) if own else ""
