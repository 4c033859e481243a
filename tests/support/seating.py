"""Blokus competitions whose draws keep clubs and groups apart: families marked at the desk,
clubs on the players, seated through the services."""

from __future__ import annotations

from itertools import combinations

from blokus import services
from events.models import Competition, Entry, Player, Round, Seat, Session
from tests.support.blokus import register, small

# Twelve players: three families of three and three on their own.
FAMILIES = ["Berg"] * 3 + ["Lind"] * 3 + ["Ek"] * 3 + [""] * 3


def apart(
    event,
    *,
    mode: str = "every_round",
    rounds: int = 3,
    slug: str = "side",
    groups: list[str] = FAMILIES,
    clubs: list[str] | None = None,
    **settings,
) -> tuple[Competition, Session]:
    """A one-session Blokus competition with ``seating_apart=mode``: one player per item of
    ``groups`` (their family; "" none) and of ``clubs`` (their club), checked in and seated."""
    competition = small(event, rounds=rounds, slug=slug, seating_apart=mode, **settings)
    session = competition.sessions.get()
    # Names by competition: a person (name and club) is one row of the register.
    players = register(competition, session, len(groups), prefix=f"{slug}-")
    for sp, group, club in zip(players, groups, clubs or [""] * len(groups), strict=True):
        Entry.objects.filter(pk=sp.entry_id).update(group=group)
        # The factory's players share one club: here only the clubs given count.
        player = Player.objects.get(pk=sp.entry.player_id)
        player.club = club
        player.save()
    services.session_seat(session=session)
    return competition, session


def tables_of(round_: Round) -> list[list[int]]:
    """Entry ids per table, table 1 first."""
    tables: dict[int, list[int]] = {}
    for number, entry_id in (
        Seat.objects.filter(game__round=round_)
        .order_by("game__number", "position")
        .values_list("game__number", "entry_id")
    ):
        tables.setdefault(number, []).append(entry_id)
    return list(tables.values())


def seats_of(round_: Round) -> dict[int, tuple[int, str]]:
    """Entry id -> (table, colour)."""
    return {
        entry_id: (number, colour)
        for entry_id, number, colour in Seat.objects.filter(game__round=round_).values_list(
            "entry_id", "game__number", "colour"
        )
    }


def shared(tables: list[list[int]], key: dict[int, str]) -> int:
    """Pairs at one table with the same non-empty ``key`` (family or club)."""
    return sum(
        1
        for table in tables
        for a, b in combinations(table, 2)
        if key.get(a) and key.get(a) == key.get(b)
    )


def family_of(competition: Competition) -> dict[int, str]:
    return dict(Entry.objects.filter(competition=competition).values_list("pk", "group"))
