"""Every read of the screens room, each in a constant number of queries."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from events.models import Competition, Event, Game
from events.screens import contact
from events.screens.models import TOKEN_LENGTH, Screen, ScreenPairing

# A screen polls every 10 s: past this it is called out of touch at the desk.
QUIET_SECONDS = 40


@dataclass(frozen=True)
class ScreenRow:
    screen: Screen
    last_contact: dt.datetime | None

    @property
    def out_of_touch(self) -> bool:
        if self.last_contact is None:
            return True
        return (timezone.now() - self.last_contact).total_seconds() > QUIET_SECONDS


def screens_of(event: Event) -> list[ScreenRow]:
    """The event's screens with their last contact (one query and one cache round trip)."""
    screens = list(Screen.objects.filter(event=event).select_related("competition"))
    contacts = contact.last_contacts(s.pk for s in screens)
    return [ScreenRow(s, contacts.get(s.pk)) for s in screens]


def competitions_of(event: Event) -> list[Competition]:
    return list(Competition.objects.filter(event=event).order_by("pk"))


def screen_by_token(token: str) -> Screen | None:
    """The screen at this address, with its event and competition (one query)."""
    if not token or len(token) > TOKEN_LENGTH:
        return None
    return Screen.objects.select_related("event", "competition").filter(token=token).first()


def pairing_by_claim(claim: str) -> ScreenPairing | None:
    if not claim or len(claim) > TOKEN_LENGTH:
        return None
    return ScreenPairing.objects.select_related("screen").filter(claim=claim).first()


def pairing_live(pairing: ScreenPairing) -> bool:
    return pairing.screen_id is None and pairing.expires_at > timezone.now()


def round_over(round_id: int | None) -> bool:
    """Whether a chosen round has no game left to play, or is gone (one query)."""
    if round_id is None:
        return True
    return not Game.objects.filter(
        round_id=round_id, status__in=[Game.Status.PENDING, Game.Status.PLAYING]
    ).exists()
