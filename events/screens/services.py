"""Every write of the screens room, one function per desk or screen action, in a transaction.

A choice for a screen bumps the version of the competition the screen shows (and of the one
it showed before), through ``events.versions`` like every write: the screen's page carries that
version in its ETag, so the screen follows at its next poll and a screen still on the old page
is never answered 304. Phones on the same competition fetch their page once more; a switch is
rare beside results.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from events.errors import Invalid, NotFound, Refused
from events.models import Competition, Event, Game, Round
from events.screens.models import (
    CODE_LENGTH,
    MAX_ANNOUNCEMENT,
    MAX_NAME,
    Screen,
    ScreenPairing,
    Shows,
)
from events.versions import versions_bump

PAIRING_SECONDS = 600  # a code lives ten minutes: long enough to walk to the desk
# No 0/O, 1/I/L: read off a wall across a hall and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
MAX_SCREENS = 30  # per event: more than any hall has projectors


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalised_code(typed: str) -> str:
    """What the organiser typed, as stored: capitals, no spaces or dashes."""
    return "".join(typed.split()).replace("-", "").upper()[: CODE_LENGTH * 2]


def pairing_start() -> ScreenPairing:
    """A new code for a browser at the pairing address (codes that expired are purged)."""
    now = timezone.now()
    ScreenPairing.objects.filter(expires_at__lte=now - dt.timedelta(days=1)).delete()
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return ScreenPairing.objects.create(
                    code=new_code(),
                    claim=secrets.token_urlsafe(32),
                    expires_at=now + dt.timedelta(seconds=PAIRING_SECONDS),
                )
        except IntegrityError:  # the code is taken (by a live or a recent pairing): draw again
            continue
    raise Refused(_("No pairing code is free right now. Try again in a minute."))


def _bump(*competition_ids: int | None) -> None:
    ids = [pk for pk in competition_ids if pk is not None]
    if ids:
        versions_bump(competitions=Q(pk__in=ids))


@transaction.atomic
def screen_pair(*, event: Event, code: str, name: str) -> Screen:
    """The screen showing ``code`` becomes ``name`` of ``event``; the code is used up."""
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        raise Invalid(_("Give the screen a name of 1 to %(most)s characters.") % {"most": MAX_NAME})
    pairing = (
        ScreenPairing.objects.select_for_update()
        .filter(code=normalised_code(code), screen__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if pairing is None:
        raise NotFound(
            _("No screen shows this code. Codes work once and for ten minutes: look again."),
            code="unknown_code",
        )
    if Screen.objects.filter(event=event, name__iexact=name).exists():
        raise Invalid(_("Another screen of this event has that name."), code="name_taken")
    if Screen.objects.filter(event=event).count() >= MAX_SCREENS:
        raise Refused(_("An event has at most %(most)s screens.") % {"most": MAX_SCREENS})
    competition = Competition.objects.filter(event=event).order_by("pk").first()
    screen = Screen.objects.create(
        event=event, name=name, token=secrets.token_urlsafe(32), competition=competition
    )
    pairing.screen = screen
    pairing.save(update_fields=["screen"])
    return screen


def open_round(competition: Competition) -> Round | None:
    """The round players sit at now: the latest with a game still to play (one query)."""
    return (
        Round.objects.filter(
            session__competition=competition,
            games__status__in=[Game.Status.PENDING, Game.Status.PLAYING],
        )
        .order_by("-session__number", "-number")
        .first()
    )


@transaction.atomic
def screen_show(
    *, screen: Screen, shows: str, announcement: str = "", competition: Competition | None = None
) -> Screen:
    """The desk's choice for ``screen``: what it shows, of which competition of its event."""
    if shows not in Shows.values:
        raise Invalid(_("Choose one of the listed things to show."), code="bad_choice")
    announcement = announcement.strip()
    if shows == Shows.ANNOUNCEMENT and not announcement:
        raise Invalid(_("Type the announcement to show."), code="no_announcement")
    if len(announcement) > MAX_ANNOUNCEMENT:
        raise Invalid(
            _("An announcement has at most %(most)s characters.") % {"most": MAX_ANNOUNCEMENT},
            code="too_long",
        )
    screen = Screen.objects.select_for_update().get(pk=screen.pk)
    before = screen.competition_id
    if competition is not None:
        if competition.event_id != screen.event_id:
            raise Invalid(_("Choose a competition of this event."), code="bad_competition")
        screen.competition = competition
    screen.shows = shows
    if announcement or shows == Shows.ANNOUNCEMENT:
        screen.announcement = announcement
    seating = shows == Shows.SEATING and screen.competition is not None
    screen.round = open_round(screen.competition) if seating and screen.competition else None
    screen.follows_round = screen.round is not None
    screen.save()
    _bump(before, screen.competition_id)
    return screen


@transaction.atomic
def screen_pause(*, screen: Screen, paused: bool) -> Screen:
    """Hold the cycle on the page it shows, or let it go on."""
    screen = Screen.objects.select_for_update().get(pk=screen.pk)
    screen.paused = paused
    screen.save(update_fields=["paused", "changed_at"])
    _bump(screen.competition_id)
    return screen


@transaction.atomic
def screen_remove(*, screen: Screen) -> None:
    """Forget the screen: its address answers 404, the browser keeps its last page."""
    competition_id = screen.competition_id
    Screen.objects.filter(pk=screen.pk).delete()
    _bump(competition_id)
