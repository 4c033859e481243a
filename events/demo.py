"""What every format's demo shares: an event with players registered and checked in, at one
of three hosting clubs.

Each format's ``demo`` module (named in its ``GameFormat``) has ``create(organiser)``, which
calls these and then plays part of the competition through the format's services. The format
knows nothing of clubs: its event goes to the demo club in its time zone (``DEMO_CLUBS``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from events import services
from events.models import ClubRole, Competition, HostClub

# The demo's logins, with passwords anyone can read here: load_demo refuses to run without
# DEBUG, and the front page and `make run` show them only where the demo is loaded.
ORGANISER = ("organiser", "desk-demo-2026")
ADMIN = ("admin", "admin-demo-2026")
# An organiser of the Swedish club only, and one of the Tallinn club only.
CLUB_ORGANISERS = (("lincon", "desk-demo-2026"), ("tallinn", "desk-demo-2026"))


def is_loaded() -> bool:
    """Whether this database holds the demo (its organiser login exists); only a DEBUG site can."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    return settings.DEBUG and get_user_model().objects.filter(username=ORGANISER[0]).exists()


# The demo's hosting clubs: a Blokus convention in Sweden, a sjoelen club in Tallinn, a Dutch
# correspondence club. Each format's demo event goes to the one in its time zone.
DEMO_CLUBS: tuple[dict[str, Any], ...] = (
    {
        "name": "LinCon Spelkonvent",
        "short_name": "LinCon",
        "slug": "lincon",
        "country": "SE",
        "language": "sv",
        "time_zone": "Europe/Stockholm",
        "contact_email": "info@lincon.example.org",
        "band_colour": "#1f4e8c",
        "stripe_colour": "#b07d00",
    },
    {
        "name": "Kalamaja Mänguklubi",
        "short_name": "KMK",
        "slug": "kalamaja",
        "country": "EE",
        "language": "et",
        "time_zone": "Europe/Tallinn",
        "contact_email": "klubi@kalamaja.example.org",
        "band_colour": "#0072ce",
        "stripe_colour": "#5b7f95",
    },
    {
        "name": "Correspondentieclub Nederland",
        "short_name": "CCN",
        "slug": "correspondentieclub",
        "country": "NL",
        "language": "nl",
        "time_zone": "Europe/Amsterdam",
        "contact_email": "bestuur@ccn.example.org",
        "band_colour": "#ae1c28",
        "stripe_colour": "#c8501e",
    },
)


def demo_clubs(owner: Any) -> list[HostClub]:
    """The demo's clubs, ``owner`` owning each (made once)."""
    clubs = []
    for values in DEMO_CLUBS:
        club = HostClub.objects.filter(slug=values["slug"]).first()
        if club is None:
            club = HostClub(**values)
            club.full_clean()
            club.save()
        ClubRole.objects.get_or_create(club=club, user=owner, defaults={"role": "owner"})
        clubs.append(club)
    return clubs


def _club_for(organiser: Any, time_zone: str) -> HostClub | None:
    return HostClub.objects.filter(
        roles__user=organiser, roles__role=ClubRole.Role.OWNER, time_zone=time_zone
    ).first()


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
        **event,
        starts_on=today,
        ends_on=today + dt.timedelta(days=days),
        organiser=organiser,
        host=_club_for(organiser, event["time_zone"]),
    )
    competition = services.competition_create(event=created, name=name, format=format_key)
    for index, (person, club, rating) in enumerate(people):
        entry = services.player_register_new(
            competition=competition, name=person, club=club, rating=rating
        )
        if index < checked_in:
            services.entry_check_in(entry=entry)
    return competition


# The sign-up demo: names and the seat each ends with.
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
        host=_club_for(organiser, "Europe/Tallinn"),
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
