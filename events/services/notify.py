"""Notifications (issue 31): who hears what, and queueing it on the outbox in their language.

- A player chooses per event (``preference_set``): e-mail, browser push, quiet hours. No row:
  only what a format always e-mailed (``email_default``, the round robin's reminders).
- ``push_subscribe`` keeps a browser's Push API subscription (one row per endpoint; the last
  player to subscribe a browser has it).
- ``send_notices`` queues each notice once per channel on the outbox (``events.services.
  outbox``): the notice's ``key`` makes it at most once per (person, subject, state), its
  ``subject_key`` lets ``outbox.subject_ended`` cancel it once it is no longer true. A notice
  due inside the person's quiet hours waits until they end.
- ``stop``: the one-tap stop of every message (``events.services.stop_links``).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_lazy

from events.common.network import is_loopback_host
from events.errors import ServiceError
from events.models import Event, NotificationPreference, Player, PushSubscription
from events.services import outbox
from events.services.stop_links import stop_url

BAD_ENDPOINT = gettext_lazy("This browser's push address is not one this site can use.")
BAD_KEYS = gettext_lazy("This browser's push keys are not valid.")
NO_PUSH = gettext_lazy("Browser notifications are not set up on this site.")
BAD_QUIET = gettext_lazy("Give both ends of the quiet hours, and not the same.")
MAX_ENDPOINT = 1000


def push_available() -> bool:
    """Push is offered only with both VAPID keys (``manage.py vapid_keys``)."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


# --- choices ------------------------------------------------------------------------------------


@transaction.atomic
def preference_set(
    *,
    player: Player,
    event: Event,
    email: bool,
    push: bool,
    quiet_from: time | None = None,
    quiet_to: time | None = None,
    now: datetime | None = None,
) -> NotificationPreference:
    """Save one player's choice for one event (the database refuses half quiet hours)."""
    now = now or timezone.now()
    if (quiet_from is None) != (quiet_to is None) or (quiet_from and quiet_from == quiet_to):
        raise ServiceError(BAD_QUIET, code="quiet")
    if push and not push_available():
        raise ServiceError(NO_PUSH, code="no_push")
    preference, _created = NotificationPreference.objects.update_or_create(
        player=player,
        event=event,
        defaults={
            "email": email,
            "push": push,
            "quiet_from": quiet_from,
            "quiet_to": quiet_to,
            "changed_at": now,
        },
        create_defaults={
            "email": email,
            "push": push,
            "quiet_from": quiet_from,
            "quiet_to": quiet_to,
            "created_at": now,
            "changed_at": now,
        },
    )
    return preference


@transaction.atomic
def push_turn(*, player: Player, event: Event, on: bool, now: datetime | None = None) -> None:
    """Push on or off for one event, from a format's own page; e-mail stays as it was (no
    choice yet: on, as the format always e-mailed)."""
    now = now or timezone.now()
    if on and not push_available():
        raise ServiceError(NO_PUSH, code="no_push")
    NotificationPreference.objects.update_or_create(
        player=player,
        event=event,
        defaults={"push": on, "changed_at": now},
        create_defaults={"email": True, "push": on, "created_at": now, "changed_at": now},
    )


def push_chosen(player_id: int, event_id: int) -> bool:
    return NotificationPreference.objects.filter(
        player_id=player_id, event_id=event_id, push=True
    ).exists()


@transaction.atomic
def stop(*, player_id: int, event_id: int, now: datetime | None = None) -> bool:
    """The stop link: no more e-mail or push about the event for the player (their unsent
    messages of it are cancelled too). False when the player or event no longer exists."""
    now = now or timezone.now()
    if not (
        Player.objects.filter(pk=player_id).exists() and Event.objects.filter(pk=event_id).exists()
    ):
        return False
    NotificationPreference.objects.update_or_create(
        player_id=player_id,
        event_id=event_id,
        defaults={"email": False, "push": False, "changed_at": now},
        create_defaults={"email": False, "push": False, "created_at": now, "changed_at": now},
    )
    outbox.cancel_unsent(player_id=player_id, event_id=event_id, why="stopped by the player")
    return True


def _b64(value: str, length: int) -> bool:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == length and (length != 65 or raw[0] == 4)


def endpoint_usable(endpoint: str) -> bool:
    """An https address (a push service), or http on this machine (tests, development)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        return False
    parts = urlsplit(endpoint)
    if parts.scheme == "https" and parts.hostname:
        return True
    return parts.scheme == "http" and is_loopback_host(parts.hostname or "")


@transaction.atomic
def push_subscribe(
    *, player: Player, endpoint: str, p256dh: str, auth: str, now: datetime | None = None
) -> PushSubscription:
    """Keep a browser's subscription for ``player`` (the same browser again: updated)."""
    now = now or timezone.now()
    if not push_available():
        raise ServiceError(NO_PUSH, code="no_push")
    if not endpoint_usable(endpoint):
        raise ServiceError(BAD_ENDPOINT, code="endpoint")
    if not (isinstance(p256dh, str) and isinstance(auth, str) and _b64(p256dh, 65)):
        raise ServiceError(BAD_KEYS, code="keys")
    if not _b64(auth, 16):
        raise ServiceError(BAD_KEYS, code="keys")
    try:
        with transaction.atomic():
            subscription, _created = PushSubscription.objects.update_or_create(
                endpoint=endpoint,
                defaults={"player": player, "p256dh": p256dh, "auth": auth},
                create_defaults={
                    "player": player,
                    "p256dh": p256dh,
                    "auth": auth,
                    "created_at": now,
                },
            )
    except IntegrityError as exc:  # two posts of one browser at once: the other one won
        raise ServiceError(BAD_ENDPOINT, code="endpoint") from exc
    return subscription


def push_unsubscribe(*, player: Player, endpoint: str) -> int:
    """The browser's "stop" (the player's own subscription only)."""
    deleted, _rows = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return deleted


# --- sending ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """One thing to tell one player: ``key`` names (person, subject, state) and is queued at
    most once per channel; ``subject_key`` names what must still be true when it goes out."""

    player: Player
    key: str
    title: str
    body: str
    url: str
    language: str
    subject_key: str = ""
    short: str = ""  # the push's text, when the e-mail's is long


def quiet_until(
    preference: NotificationPreference | None, zone: str, when: datetime
) -> datetime | None:
    """The end of the quiet hours ``when`` falls in (in the event's time zone), or None."""
    if preference is None or preference.quiet_from is None or preference.quiet_to is None:
        return None
    tz = ZoneInfo(zone)
    local = when.astimezone(tz)
    start, end = preference.quiet_from, preference.quiet_to
    now_time = local.time().replace(tzinfo=None)
    inside = start <= now_time < end if start < end else (now_time >= start or now_time < end)
    if not inside:
        return None
    until = datetime.combine(local.date(), end, tzinfo=tz)
    if until <= local:
        until = datetime.combine(local.date() + timedelta(days=1), end, tzinfo=tz)
    return until


def _email_text(notice: Notice, event: Event) -> str:
    with translation.override(notice.language or None):
        stop = _("No more messages about %(event)s: %(url)s") % {
            "event": event.name,
            "url": stop_url(notice.player.pk, event.pk),
        }
    link = f"\n\n{notice.url}" if notice.url and notice.url not in notice.body else ""
    return f"{notice.body.rstrip()}{link}\n\n-- \n{stop}\n"


def send_notices(
    event: Event,
    notices: Sequence[Notice],
    *,
    email_default: bool = False,
    now: datetime | None = None,
) -> int:
    """Queue every notice on the channels its player chose for ``event``, in the caller's
    transaction (two queries, then one insert per message). Returns how many were queued."""
    now = now or timezone.now()
    if not notices:
        return 0
    player_ids = {n.player.pk for n in notices}
    preferences = {
        p.player_id: p
        for p in NotificationPreference.objects.filter(event=event, player_id__in=player_ids)
    }
    subscriptions: dict[int, list[PushSubscription]] = {}
    if push_available() and any(p.push for p in preferences.values()):
        for subscription in PushSubscription.objects.filter(player_id__in=player_ids).order_by(
            "pk"
        ):
            subscriptions.setdefault(subscription.player_id, []).append(subscription)
    queued = 0
    for notice in notices:
        preference = preferences.get(notice.player.pk)
        due = quiet_until(preference, event.time_zone, now) or now
        wants_email = preference.email if preference is not None else email_default
        if wants_email and notice.player.email:
            queued += _put(notice, event, now, due, notice.player.email, None)
        if preference is not None and preference.push:
            for subscription in subscriptions.get(notice.player.pk, []):
                queued += _put(notice, event, now, due, "", subscription)
    return queued


def _put(
    notice: Notice,
    event: Event,
    now: datetime,
    due: datetime,
    email: str,
    subscription: PushSubscription | None,
) -> bool:
    """One message of ``notice``: the e-mail (``email``) or a push to ``subscription``."""
    push = subscription is not None
    return outbox.enqueue(
        key=f"{notice.key}:push:{subscription.pk}" if subscription is not None else notice.key,
        to=f"push {subscription.pk}" if subscription is not None else email,
        subject=notice.title,
        body=(notice.short or notice.body) if push else _email_text(notice, event),
        language=notice.language,
        event=event,
        now=now,
        available_at=due,
        channel=outbox.PUSH if push else outbox.EMAIL,
        subject_key=notice.subject_key,
        player=notice.player,
        subscription=subscription,
        url=notice.url,
    )


def players_listening(event: Event, player_ids: Iterable[int]) -> set[int]:
    """Who of ``player_ids`` chose any channel for ``event`` (one query)."""
    return set(
        NotificationPreference.objects.filter(event=event, player_id__in=list(player_ids))
        .exclude(email=False, push=False)
        .values_list("player_id", flat=True)
    )
