"""What every format's demo shares: an event with players registered and checked in.

Each format's ``demo`` module (named in its ``GameFormat``) has ``create(organiser)``, which
calls these and then plays part of the competition through the format's services.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from events import services
from events.models import Competition


def competition_with_players(
    *,
    organiser: Any,
    event: dict[str, Any],
    days: int,
    name: str,
    format_key: str,
    people: Sequence[tuple[str, str, int | None]],
    checked_in: int,
) -> Competition:
    """A new event starting today (lasting ``days``), one competition, ``people`` registered
    and the first ``checked_in`` of them checked in."""
    today = dt.date.today()
    created = services.event_create(
        **event, starts_on=today, ends_on=today + dt.timedelta(days=days), organiser=organiser
    )
    competition = services.competition_create(event=created, name=name, format=format_key)
    for index, (person, club, rating) in enumerate(people):
        entry = services.player_register_new(
            competition=competition, name=person, club=club, rating=rating
        )
        if index < checked_in:
            services.entry_check_in(entry=entry)
    return competition
