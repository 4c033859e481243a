"""The export of a format that takes no part in ``events.exchange.contract.Exports``: the shared
rows only. It satisfies ``ExportModule``, so a new format gets working CSV/XLSX downloads, a
results sheet and whole-event documents before it writes its own ``export.py``.

What it knows is what every format may use: entries, and the seats of the competition's games
(``Session`` > ``Round`` > ``Game`` > ``Seat``) with their ``score`` and ``points``. The
standings sum them per entry and rank by points, then score; a format whose results live in
tables of its own gives its own export instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _, gettext_lazy

from events.exchange.sheets import Column, Sheet, sheet_of
from events.models import Competition, Entry, Seat

# The format's own tables: none, the shared ones travel in every document anyway.
TABLES: tuple[Any, ...] = ()


def correction_payload(payload: dict[str, Any], remap: Callable[..., Any]) -> dict[str, Any]:
    """A correction's undo data as it is: only the format knows which of its values are ids."""
    return payload


@dataclass(frozen=True)
class Standing:
    place: int | None  # None until the entry has played (a result on one of its seats)
    shared: bool
    name: str
    public_name: str
    club: str
    points: Decimal
    score: int
    games: int
    withdrawn: bool


def standing_rows(competition: Competition) -> list[Standing]:
    """Every entry with its seats' points and score summed, best first (one query). Entries
    tied on both share the place; entries without a result are listed last, unplaced."""
    played = Q(seats__points__isnull=False) | Q(seats__score__isnull=False)
    entries = (
        Entry.objects.filter(competition=competition)
        .select_related("player")
        .annotate(
            total_points=Sum("seats__points"),
            total_score=Sum("seats__score"),
            games=Count("seats", filter=played),
        )
    )
    ranked = sorted(
        entries,
        key=lambda e: (
            not e.games,
            -(e.total_points or 0),
            -(e.total_score or 0),
            e.player.name,
            e.pk,
        ),
    )
    keys = [(e.total_points or 0, e.total_score or 0) for e in ranked if e.games]
    rows = []
    for entry in ranked:
        key = (entry.total_points or 0, entry.total_score or 0)
        rows.append(
            Standing(
                place=keys.index(key) + 1 if entry.games else None,
                shared=bool(entry.games) and keys.count(key) > 1,
                name=entry.player.name,
                public_name=entry.player.public_name,
                club=entry.player.club,
                points=entry.total_points or Decimal(0),
                score=entry.total_score or 0,
                games=entry.games,
                withdrawn=entry.withdrawn_at is not None,
            )
        )
    return rows


def _standing_columns(name: Callable[[Standing], str]) -> list[Column[Standing]]:
    return [
        Column(gettext_lazy("Place"), lambda row: row.place),
        Column(gettext_lazy("Shared"), lambda row: row.shared),
        Column(gettext_lazy("Player"), name),
        Column(gettext_lazy("Club"), lambda row: row.club),
        Column(gettext_lazy("Points"), lambda row: row.points),
        Column(gettext_lazy("Score"), lambda row: row.score),
        Column(gettext_lazy("Games"), lambda row: row.games),
        Column(gettext_lazy("Withdrawn"), lambda row: row.withdrawn),
    ]


STANDING_COLUMNS = _standing_columns(lambda row: row.name)
# The same, each player named as they chose to be shown in public (Player.public_name).
PUBLIC_STANDING_COLUMNS = _standing_columns(lambda row: row.public_name)


def standings(competition: Competition, *, public: bool = False) -> Sheet:
    """The shared standings: full names for the organisers' downloads, ``public`` the names
    players chose to be shown (the results sheet)."""
    columns = PUBLIC_STANDING_COLUMNS if public else STANDING_COLUMNS
    return sheet_of(_("Standings"), columns, standing_rows(competition))


def _result_columns(name: Callable[[Seat], str]) -> list[Column[Seat]]:
    return [
        Column(gettext_lazy("Session"), lambda seat: seat.game.round.session.number),
        Column(gettext_lazy("Round"), lambda seat: seat.game.round.number),
        Column(gettext_lazy("Table"), lambda seat: seat.game.number),
        Column(gettext_lazy("Seat"), lambda seat: seat.position),
        Column(gettext_lazy("Player"), name),
        Column(gettext_lazy("Club"), lambda seat: seat.entry.player.club),
        Column(gettext_lazy("Colour"), lambda seat: seat.colour),
        Column(gettext_lazy("Score"), lambda seat: seat.score),
        Column(gettext_lazy("Points"), lambda seat: seat.points),
    ]


RESULT_COLUMNS = _result_columns(lambda seat: seat.entry.player.name)
PUBLIC_RESULT_COLUMNS = _result_columns(lambda seat: seat.entry.player.public_name)


def results(competition: Competition, *, public: bool = False) -> Sheet:
    """Every seat of every game, in playing order (one query)."""
    seats = (
        Seat.objects.filter(game__round__session__competition=competition)
        .select_related("game__round__session", "entry__player")
        .order_by("game__round__session__number", "game__round__number", "game__number", "position")
    )
    return sheet_of(_("Results"), PUBLIC_RESULT_COLUMNS if public else RESULT_COLUMNS, seats)
