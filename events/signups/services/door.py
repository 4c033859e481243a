"""Self check-in at the door: the door screen shows a short code that changes every minute; a
confirmed player types it on their own page while the organiser's self check-in is open, and is
checked in as at the desk (which sees it at once and can undo it). A shared photo of the screen
is stale within two minutes: a code is taken during its own minute and the next one (a player
typing as it changes), never later.

The code is an HMAC of the competition and the minute under the site's secret, so every server
computes the same one without storing it. Wrong codes are counted per sign-up in the database
(``events.services.attempts``): five in ten minutes lock that sign-up's self check-in until
the ten minutes end, which leaves a guesser one chance in 10,000 per lock.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.errors import Forbidden, Refused, refuse
from events.models import Competition, Entry
from events.services import attempts
from events.services.entries import entry_check_in
from events.signups.models import SignUp, SignUpStatus

DIGITS = 5
PERIOD = timedelta(minutes=1)
WRONG_CODES_ALLOWED = 5
LOCK_SECONDS = 10 * 60

WRONG_CODE = gettext_lazy("That is not the code on the door screen. Type the one shown now.")
LOCKED = gettext_lazy("Too many wrong codes. Ask at the desk, or try again in ten minutes.")
NOT_OPEN = gettext_lazy("Self check-in for %(competition)s is not open now.")
NOT_SEATED = gettext_lazy("Only a confirmed seat can be checked in.")


def _minute(at: datetime) -> int:
    return int(at.timestamp() // PERIOD.total_seconds())


def door_code(competition: Competition | int, at: datetime | None = None) -> str:
    """The code the door screen shows at ``at`` (now): ``DIGITS`` digits."""
    pk = competition if isinstance(competition, int) else competition.pk
    minute = _minute(at or timezone.now())
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"door:{pk}:{minute}".encode(), hashlib.sha256
    ).digest()
    return str(int.from_bytes(digest[:8], "big") % 10**DIGITS).zfill(DIGITS)


def seconds_left(at: datetime | None = None) -> int:
    """Seconds until the code changes."""
    at = at or timezone.now()
    period = int(PERIOD.total_seconds())
    return period - int(at.timestamp()) % period


def _code_taken(competition_id: int, code: str, now: datetime) -> bool:
    typed = "".join(ch for ch in str(code) if ch.isdigit())[: DIGITS + 1].encode()
    return any(
        hmac.compare_digest(typed, door_code(competition_id, at).encode())
        for at in (now, now - PERIOD)
    )


def door_check_in(*, sign_up: SignUp, code: str, now: datetime | None = None) -> Entry:
    """Check in the player of a confirmed sign-up who typed the door's code. Counted before the
    transaction (a refusal must not undo the count), handed back on success."""
    now = now or timezone.now()
    key = f"door:{sign_up.pk}"
    if not attempts.take(key, limit=WRONG_CODES_ALLOWED, seconds=LOCK_SECONDS):
        raise refuse(LOCKED, error_class=Forbidden, code="door_locked")
    window = sign_up.window
    if sign_up.status != SignUpStatus.CONFIRMED or sign_up.entry_id is None:
        attempts.give_back(key)
        raise refuse(NOT_SEATED, error_class=Refused, code="not_seated")
    if not window.self_check_in_open(now):
        attempts.give_back(key)
        raise refuse(
            NOT_OPEN, error_class=Refused, code="door_closed", competition=window.competition.name
        )
    if not _code_taken(window.competition_id, code, now):
        raise refuse(WRONG_CODE, error_class=Forbidden, code="wrong_door_code")
    attempts.give_back(key)
    with transaction.atomic():
        entry = Entry.objects.select_related("competition", "player").get(pk=sign_up.entry_id)
        return entry_check_in(entry=entry)
