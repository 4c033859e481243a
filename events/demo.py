"""What every format's demo shares: an event with players registered and checked in.

Each format's ``demo`` module (named in its ``GameFormat``) has ``create(organiser)``, which
calls these and then plays part of the competition through the format's services.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
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


# The sign-up demo: names and the seat each ends with (issue 29).
SIGN_UP_PEOPLE = (
    ("Karin Lind", "Göteborgs Spelklubb", "confirmed"),
    ("Mart Tamm", "Tartu Lauamängud", "confirmed"),
    ("Sanne de Vries", "Utrecht Speelt", "confirmed"),
    ("Olle Berg", "", "confirmed"),
    ("Liis Kask", "Tallinna Lauamänguklubi", "confirmed"),
    ("Pieter Bakker", "", "confirmed"),
    ("Emma Nilsson", "Göteborgs Spelklubb", "waitlisted"),
    ("Joonas Mets", "", "waitlisted"),
    ("Femke Jansen", "Utrecht Speelt", "pending"),
)


def sign_up_event(*, organiser: Any, format_key: str) -> Competition:
    """An event three weeks ahead taking sign-ups online: six seats taken, two on the waitlist,
    one not confirmed yet."""
    from events.signups.services import desk as signup_desk, lifecycle as signups

    today = dt.date.today()
    created = services.event_create(
        name="Autumn Cup",
        starts_on=today + dt.timedelta(days=21),
        ends_on=today + dt.timedelta(days=21),
        time_zone="Europe/Tallinn",
        venue="Kultuurikatel",
        info="Sign up online: six seats, then the waitlist. Entry fee 10 EUR.",
        organiser=organiser,
    )
    competition = services.competition_create(event=created, name="Cup", format=format_key)
    now = dt.datetime.now(dt.UTC)
    window = signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=20),
        cap=6,
        waitlist_limit=10,
        fee=Decimal("10"),
        currency="EUR",
        payee_name="Tallinna Lauamänguklubi",
        payee_iban="EE382200221020145685",
    )
    for index, (name, club, status) in enumerate(SIGN_UP_PEOPLE):
        email = f"{name.split()[0].lower()}@example.org"
        sign_up = signups.signup_submit(
            window=window, name=name, email=email, club=club, now=now + dt.timedelta(seconds=index)
        )
        if status != "pending":
            signups.signup_confirm(sign_up=sign_up, now=now + dt.timedelta(seconds=index))
        if index < 3:
            signup_desk.payment_set(sign_up=sign_up, payment="paid" if index < 2 else "waived")
    return competition
