"""The player register: one row per person of a hosting club, shared by its events."""

from __future__ import annotations

from django.core.exceptions import ValidationError  # noqa: F401 (callers catch services.ValidationError)
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy

from events.errors import Conflict, refuse
from events.models import (
    Player,
    person_key as _person_key,
)

PLAYER_EXISTS = gettext_lazy(
    "%(player)s is already in the player register: find them with the search above."
)


def clean_text(text: str) -> str:
    """Whitespace folded and invisible characters (zero-width spaces, controls) removed."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def player_build(
    *,
    host_id: int,
    name: str,
    club: str = "",
    email: str = "",
    rating: int | None = None,
    language: str = "",
) -> Player:
    """A new person of the register of hosting club ``host_id``, checked, not saved."""
    player = Player(
        host_id=host_id,
        name=clean_text(name),
        club=clean_text(club),
        email=email.strip(),
        language=language,
    )
    if rating is not None:
        player.rating = rating
    player.full_clean(exclude=["search_text", "person_key"])
    return player


def person_key(name: str, club: str) -> str:
    """Who a register row is: name and club, each without case or accents (``Player.person_key``,
    unique with ``homonym``)."""
    return _person_key(name, club)


def _person_of(host_id: int, key: str) -> Player | None:
    return Player.objects.filter(host_id=host_id, person_key=key).order_by("homonym").first()


@transaction.atomic
def player_create(
    *,
    host_id: int,
    name: str,
    club: str = "",
    email: str = "",
    rating: int | None = None,
    language: str = "",
) -> Player:
    """Add a person to hosting club ``host_id``'s register, refusing a second record of the same
    name and club there.

    The unique key (``host``, ``person_key``, ``homonym``) decides: when two desks add the same
    person at once, the database lets one insert through and the other gets ``player_exists``.
    """
    player = player_build(
        host_id=host_id, name=name, club=club, email=email, rating=rating, language=language
    )
    key = person_key(player.name, player.club)
    existing = _person_of(host_id, key)
    if existing is None:
        try:
            with transaction.atomic():
                player.save()
                return player
        except IntegrityError:  # another desk added this person a moment ago
            existing = _person_of(host_id, key)
            if existing is None:
                raise
    raise refuse(PLAYER_EXISTS, error_class=Conflict, code="player_exists", player=existing)
