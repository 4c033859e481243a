"""What Blokus adds to an event export (``events.exchange.document``), and its standings and results
as sheets for the CSV and XLSX downloads."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from blokus.models import Hand, QualificationLot, SessionNotHeld, SessionPlayer
from blokus.selectors.qualification import final_view, qualification_rows
from blokus.selectors.tables import seats_query
from events.exchange.document import Remap, Table, id_list
from events.exchange.sheets import Sheet
from events.models import Competition

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


def standings(competition: Competition) -> Sheet:
    """The qualification, best first, with the final's places once it is played (5 queries)."""
    rows = qualification_rows(competition)
    final = final_view(competition, rows)
    final_places = {seat.entry.pk: place for place, seat in final.placed} if final else {}
    sheet = Sheet(
        title=_("Standings"),
        header=[
            _("Place"),
            _("Player"),
            _("Club"),
            _("Session"),
            _("Qualifying points"),
            _("Total score"),
            _("Games"),
            _("Finalist"),
            _("Final place"),
        ],
    )
    for row in rows:
        sheet.rows.append(
            [
                row.place,
                row.entry.player.name,
                row.entry.player.club,
                row.session_number,
                row.points,
                row.total,
                row.games,
                row.finalist,
                final_places.get(row.entry.pk),
            ]
        )
    return sheet


def results(competition: Competition) -> Sheet:
    """Every seat of every game: where, who, the hand and what it scored (one query)."""
    seats = seats_query().filter(game__round__session__competition=competition)
    seats = seats.select_related("game__round__session").order_by(
        "game__round__session__number", "game__round__number", "game__number", "position"
    )
    sheet = Sheet(
        title=_("Results"),
        header=[
            _("Session"),
            _("Round"),
            _("Table"),
            _("Seat"),
            _("Player"),
            _("Club"),
            _("Colour"),
            _("Squares left"),
            _("Monomino last"),
            _("Score"),
            _("Points"),
            _("Status"),
        ],
    )
    for seat in seats:
        hand = getattr(seat, "blokus_hand", None)
        game = seat.game
        sheet.rows.append(
            [
                str(game.round.session),
                game.round.number,
                game.number,
                seat.position,
                seat.entry.player.name,
                seat.entry.player.club,
                seat.colour,
                hand.squares_left if hand else None,
                hand.monomino_last if hand else None,
                seat.score,
                seat.points,
                str(game.get_status_display()),
            ]
        )
    return sheet
