"""What Blokus adds to an event export (``events.exchange.document``), its standings and results
as sheets for the CSV and XLSX downloads, and the rating list as a public sheet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext as _, gettext_lazy

from blokus.models import Hand, QualificationLot, SessionNotHeld, SessionPlayer
from blokus.selectors.qualification import final_view, qualification_rows
from blokus.selectors.rating import RatingLine
from blokus.selectors.tables import seats_query
from events.exchange.document import Remap, Table, id_list
from events.exchange.sheets import Column, Sheet, sheet_of
from events.models import Competition, Entry

ENTRIES, GAMES, SESSIONS, SEATS = "events.entry", "events.game", "events.session", "events.seat"

TABLES = (
    Table(SessionPlayer, "session__competition__event"),
    Table(Hand, "seat__game__round__session__competition__event"),
    Table(SessionNotHeld, "session__competition__event"),
    Table(QualificationLot, "competition__event", codecs={"order": id_list(ENTRIES)}),
)


def correction_payload(payload: dict[str, Any], remap: Remap) -> dict[str, Any]:
    """The ids in a Blokus correction's undo data: its game, session and the seats' hands."""
    mapped = dict(payload)
    if "game" in mapped:
        mapped["game"] = remap(GAMES, mapped["game"])
    if "session" in mapped:
        mapped["session"] = remap(SESSIONS, mapped["session"])
    hands = mapped.get("hands")
    if isinstance(hands, list):
        mapped["hands"] = [
            [remap(SEATS, hand[0]), *hand[1:]] for hand in hands if isinstance(hand, list) and hand
        ]
    return mapped


def _name(public: bool) -> Callable[[Any], str]:
    """The "Player" column's value: the full name (the organisers' downloads), or on a public
    sheet the name as the person chose to show it (``Player.public_name``)."""
    if public:
        return lambda item: item.entry.player.public_name
    return lambda item: item.entry.player.name


def standings(competition: Competition, *, public: bool = False) -> Sheet:
    """The qualification, best first, with the final's places once it is played, then the
    players not seated yet, without a place (6 queries). ``public``: each player by their public
    name (a sheet anyone may read); else the full name (the organisers' CSV and XLSX)."""
    rows = qualification_rows(competition)
    final = final_view(competition, rows)
    final_places = {seat.entry.pk: place for place, seat in final.placed} if final else {}
    columns: list[Column[Any]] = [
        Column(_("Place"), lambda row: row.place),
        Column(_("Player"), _name(public)),
        Column(_("Club"), lambda row: row.entry.player.club),
        Column(_("Session"), lambda row: row.session_number),
        Column(_("Qualifying points"), lambda row: row.points),
        Column(_("Total score"), lambda row: row.total),
        Column(_("Games"), lambda row: row.games),
        Column(_("Finalist"), lambda row: row.finalist),
        Column(_("Final place"), lambda row: final_places.get(row.entry.pk)),
    ]
    ranked = {row.entry.pk for row in rows}
    # Everyone else the competition's page lists (registered, not yet seated in a qualifying
    # session): after the ranked players, without a place, so the download holds them all.
    waiting = [
        SimpleNamespace(
            place=None,
            entry=entry,
            session_number=None,
            points=None,
            total=None,
            games=0,
            finalist=False,
        )
        for entry in Entry.objects.filter(competition=competition, withdrawn_at=None)
        .exclude(pk__in=ranked)
        .select_related("player")
        .order_by("number", "pk")
    ]
    return sheet_of(_("Standings"), columns, [*rows, *waiting])


def _hand(seat: Any, name: str) -> Any:
    hand = getattr(seat, "blokus_hand", None)
    return getattr(hand, name) if hand else None


def result_columns(*, public: bool = False) -> list[Column[Any]]:
    """The results sheet's columns; ``public``: the "Player" column by public name."""
    return [
        Column(gettext_lazy("Session"), lambda seat: str(seat.game.round.session)),
        Column(gettext_lazy("Round"), lambda seat: seat.game.round.number),
        Column(gettext_lazy("Table"), lambda seat: seat.game.number),
        Column(gettext_lazy("Seat"), lambda seat: seat.position),
        Column(gettext_lazy("Player"), _name(public)),
        Column(gettext_lazy("Club"), lambda seat: seat.entry.player.club),
        Column(gettext_lazy("Colour"), lambda seat: seat.colour),
        Column(gettext_lazy("Squares left"), lambda seat: _hand(seat, "squares_left")),
        Column(gettext_lazy("Monomino last"), lambda seat: _hand(seat, "monomino_last")),
        Column(gettext_lazy("Score"), lambda seat: seat.score),
        Column(gettext_lazy("Points"), lambda seat: seat.points),
        Column(gettext_lazy("Status"), lambda seat: str(seat.game.get_status_display())),
    ]


def results(competition: Competition, *, public: bool = False) -> Sheet:
    """Every seat of every game: where, who, the hand and what it scored (one query).
    ``public``: each player by their public name; else the full name (as ``standings``)."""
    seats = seats_query().filter(game__round__session__competition=competition)
    seats = seats.select_related("game__round__session").order_by(
        "game__round__session__number", "game__round__number", "game__number", "position"
    )
    return sheet_of(_("Results"), result_columns(public=public), seats)


def rating_sheet(lines: Sequence[RatingLine]) -> Sheet:
    """The Blokus rating list (``blokus.selectors.rating.rating_list``) as a public sheet: each
    player by their public name, the values rounded as the page shows them (two decimals)."""
    columns: list[Column[RatingLine]] = [
        Column(_("Place"), lambda line: line.place),
        Column(_("Player"), lambda line: line.player.public_name),
        Column(_("Rating"), lambda line: round(line.value, 2)),
        Column(_("Mu"), lambda line: round(line.mu, 2)),
        Column(_("Sigma"), lambda line: round(line.sigma, 2)),
        Column(_("Games"), lambda line: line.games),
    ]
    return sheet_of(_("Blokus rating"), columns, lines)
