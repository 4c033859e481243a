"""Notifications: who hears what, and queueing it on the outbox in their language.

- A player chooses per event (``preference_set``): e-mail, browser push, quiet hours. No row:
  only what a format always e-mailed (``email_default``, the round robin's reminders).
- ``push_subscribe`` keeps a browser's Push API subscription (one row per player and endpoint).
  "This is me" on a public page keeps its own kind (``events.outbox.push_public``): only
  notices marked ``public`` (nothing but what the public pages show) reach it.
- ``send_notices`` queues each notice once per channel on the outbox (``events.outbox.
  queue``): the notice's ``key`` makes it at most once per (person, subject, state), its
  ``subject_key`` lets ``queue.subject_ended`` cancel it once it is no longer true. A notice
  due inside the person's quiet hours waits until they end.
- ``correction_told``: "a correction changed your result", in any format, from the one path
  every correction takes (``events.services.correction_record``).
- ``stop``: the one-tap stop of every message (``events.outbox.stop_links``).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_lazy

from events.common.siteurl import absolute_url
from events.errors import ServiceError
from events.language import mail_language
from events.models import Correction, Entry, Event, Player
from events.outbox import queue
from events.outbox.channels.push import endpoint_usable
from events.outbox.models import NotificationPreference, OutboxMessage, PushSubscription
from events.outbox.stop_links import stop_url

BAD_ENDPOINT = gettext_lazy("This browser's push address is not one this site can use.")
BAD_KEYS = gettext_lazy("This browser's push keys are not valid.")
NO_PUSH = gettext_lazy("Browser notifications are not set up on this site.")
BAD_QUIET = gettext_lazy("Give both ends of the quiet hours, and not the same.")
MAX_BROWSERS = 5  # push subscriptions kept per player


def push_available() -> bool:
    """Push is offered only with both VAPID keys (``manage.py vapid_keys``)."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def public_key() -> str:
    """The VAPID public key a page hands to ``pushManager.subscribe``."""
    return str(settings.VAPID_PUBLIC_KEY)


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
def channels_set(
    *, player: Player, event: Event, email: bool, push: bool, now: datetime | None = None
) -> NotificationPreference:
    """E-mail and push for one event, each as chosen, from a format's own page (which asks for
    no quiet hours: those stay as they were). One choice never sets the other."""
    now = now or timezone.now()
    if push and not push_available():
        raise ServiceError(NO_PUSH, code="no_push")
    preference, _created = NotificationPreference.objects.update_or_create(
        player=player,
        event=event,
        defaults={"email": email, "push": push, "changed_at": now},
        create_defaults={"email": email, "push": push, "created_at": now, "changed_at": now},
    )
    return preference


def preference_of(player_id: int, event_id: int) -> NotificationPreference | None:
    """The player's choice for the event, or None when they made none (one query)."""
    return NotificationPreference.objects.filter(player_id=player_id, event_id=event_id).first()


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
    queue.cancel_unsent(player_id=player_id, event_id=event_id, why="stopped by the player")
    # What a public page's "this is me" subscribed for the player in the event stops too.
    PushSubscription.objects.filter(player_id=player_id, event_id=event_id, public=True).delete()
    return True


def _b64(value: str, length: int) -> bool:
    """``value`` is exactly ``length`` bytes in base64url (padded or not), nothing around it
    (a lenient decoder would skip other characters, and the column would refuse the rest)."""
    if not value.isascii() or len(value) > 4 * (length + 2) // 3 + 2:
        return False
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        return False
    return len(raw) == length and (length != 65 or raw[0] == 4)


def subscription_checked(endpoint: str, p256dh: str, auth: str) -> None:
    """Refuse (``ServiceError``) push when it is not set up, an address that is not a push
    service's, and keys that are not a P-256 point and a 16-byte secret."""
    if not push_available():
        raise ServiceError(NO_PUSH, code="no_push")
    if not endpoint_usable(endpoint):
        raise ServiceError(BAD_ENDPOINT, code="endpoint")
    if not (isinstance(p256dh, str) and isinstance(auth, str) and _b64(p256dh, 65)):
        raise ServiceError(BAD_KEYS, code="keys")
    if not _b64(auth, 16):
        raise ServiceError(BAD_KEYS, code="keys")


@transaction.atomic
def push_subscribe(
    *, player: Player, endpoint: str, p256dh: str, auth: str, now: datetime | None = None
) -> PushSubscription:
    """Keep a browser's subscription for ``player`` (the same browser again: updated)."""
    now = now or timezone.now()
    subscription_checked(endpoint, p256dh, auth)
    try:
        with transaction.atomic():
            subscription, _created = PushSubscription.objects.update_or_create(
                player=player,
                endpoint=endpoint,
                public=False,
                defaults={"p256dh": p256dh, "auth": auth},
                create_defaults={"p256dh": p256dh, "auth": auth, "created_at": now},
            )
    except IntegrityError as exc:  # two posts of one browser at once: the other one won
        raise ServiceError(BAD_ENDPOINT, code="endpoint") from exc
    # A person has a few browsers, not thousands: the oldest beyond MAX_BROWSERS goes (one
    # notice never becomes thousands of messages).
    kept = PushSubscription.objects.filter(player=player, public=False).order_by(
        "-created_at", "-pk"
    )
    stale = list(kept.values_list("pk", flat=True)[MAX_BROWSERS:])
    if stale:
        PushSubscription.objects.filter(pk__in=stale).delete()
    return subscription


def push_unsubscribe(*, player: Player, endpoint: str) -> int:
    """The browser's "stop" (the player's own subscription only)."""
    deleted, _rows = PushSubscription.objects.filter(
        player=player, endpoint=endpoint, public=False
    ).delete()
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
    # Nothing in it but what the public pages show, and a public link: it also goes to the
    # browsers that said "this is me" on a public page (``events.outbox.push_public``).
    public: bool = False


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
    # Compared as instants, not wall-clock times: in the hour the clocks go back twice, a
    # wall-clock comparison would put the end before ``when``.
    until = datetime.combine(local.date(), end, tzinfo=tz)
    if until.astimezone(UTC) <= when.astimezone(UTC):
        repeated = until.replace(fold=1)  # the end's second occurrence, when the hour repeats
        if repeated.astimezone(UTC) > when.astimezone(UTC):
            return repeated
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
    """Queue every notice on the channels its player chose for ``event``, and a ``public`` one
    also to the browsers that said "this is me" for the player in ``event`` (unless the player's
    own push reaches that browser already), in the caller's transaction (two queries, then one
    insert per message). Returns how many were queued."""
    now = now or timezone.now()
    if not notices:
        return 0
    player_ids = {n.player.pk for n in notices}
    preferences = {
        p.player_id: p
        for p in NotificationPreference.objects.filter(event=event, player_id__in=player_ids)
    }
    subscriptions: dict[int, list[PushSubscription]] = {}
    claimed: dict[int, list[PushSubscription]] = {}  # "this is me" on a public page
    public = any(n.public for n in notices)
    if push_available() and (public or any(p.push for p in preferences.values())):
        kinds = Q(public=False) | Q(public=True, event=event) if public else Q(public=False)
        for subscription in PushSubscription.objects.filter(
            kinds, player_id__in=player_ids
        ).order_by("pk"):
            mine = claimed if subscription.public else subscriptions
            mine.setdefault(subscription.player_id, []).append(subscription)
    told = Told.of(notices)
    queued = 0
    for notice in notices:
        preference = preferences.get(notice.player.pk)
        due = quiet_until(preference, event.time_zone, now) or now
        wants_email = preference.email if preference is not None else email_default
        if wants_email and notice.player.email:
            queued += _put(notice, event, now, due, notice.player.email, None, told)
        own = subscriptions.get(notice.player.pk, []) if preference and preference.push else []
        for subscription in own:
            queued += _put(notice, event, now, due, "", subscription, told)
        if notice.public:
            reached = {s.endpoint for s in own}
            for subscription in claimed.get(notice.player.pk, []):
                if subscription.endpoint not in reached:
                    queued += _put(notice, event, now, due, "", subscription, told)
    return queued


@dataclass
class Told:
    """What was queued before about the notices' subjects (one query): a state told before
    and changed since (a seat moved away and back) is told again; the latest state of a
    subject is never told twice."""

    keys: set[str]
    latest: dict[tuple[str, str], str]  # (subject, recipient) -> the key of its latest message

    @classmethod
    def of(cls, notices: Sequence[Notice]) -> Told:
        subjects = {n.subject_key for n in notices if n.subject_key}
        keys: set[str] = set()
        latest: dict[tuple[str, str], str] = {}
        if subjects:
            rows = OutboxMessage.objects.filter(subject_key__in=subjects).order_by("pk")
            for subject, to, key in rows.values_list("subject_key", "to", "key"):
                keys.add(key)
                latest[(subject, to)] = key
        return cls(keys, latest)

    def key_for(self, base: str, subject: str, to: str) -> str | None:
        """The key to queue ``base`` under, or None when it is what ``to`` last heard."""
        if not subject:
            return base
        last = self.latest.get((subject, to), "")
        if last == base or last.startswith(base + "~"):
            return None
        if base not in self.keys:
            return base
        again = 2
        while f"{base}~{again}" in self.keys:
            again += 1
        return f"{base}~{again}"


def _put(
    notice: Notice,
    event: Event,
    now: datetime,
    due: datetime,
    email: str,
    subscription: PushSubscription | None,
    told: Told,
) -> bool:
    """One message of ``notice``: the e-mail (``email``) or a push to ``subscription``."""
    push = subscription is not None
    to = f"push {subscription.pk}" if subscription is not None else email
    base = f"{notice.key}:push:{subscription.pk}" if subscription is not None else notice.key
    key = told.key_for(base[:190], notice.subject_key[:200], to[:254])
    if key is None:
        return False
    return queue.enqueue(
        key=key,
        to=to,
        subject=notice.title,
        body=(notice.short or notice.body) if push else _email_text(notice, event),
        language=notice.language,
        event=event,
        now=now,
        available_at=due,
        channel=queue.PUSH if push else queue.EMAIL,
        subject_key=notice.subject_key,
        player=notice.player,
        subscription=subscription,
        url=notice.url,
    )


def players_listening(event: Event, player_ids: Iterable[int], *, public: bool = False) -> set[int]:
    """Who of ``player_ids`` chose any channel for ``event`` (one query); ``public``: also who
    has a browser that said "this is me" on a public page (for a ``public`` notice)."""
    ids = list(player_ids)
    chose = (
        NotificationPreference.objects.filter(event=event, player_id__in=ids)
        .exclude(email=False, push=False)
        .values_list("player_id", flat=True)
    )
    if public and push_available():
        claimed = PushSubscription.objects.filter(
            public=True, event=event, player_id__in=ids
        ).values_list("player_id", flat=True)
        return set(chose.union(claimed))
    return set(chose)


def players_pushing(event: Event, player_ids: Iterable[int]) -> set[int]:
    """Who of ``player_ids`` chose push for ``event`` (one query)."""
    return set(
        NotificationPreference.objects.filter(
            event=event, player_id__in=list(player_ids), push=True
        ).values_list("player_id", flat=True)
    )


def correction_subject(correction_id: int) -> str:
    """What "your result was corrected" says is true: the correction stands (an undo ends it)."""
    return f"correction:{correction_id}"


def correction_told(
    correction: Correction, entries: Iterable[Entry], *, now: datetime | None = None
) -> int:
    """Tell the players of ``entries`` who chose notifications for the event that
    ``correction`` changed their result, once per correction, in their language (one query
    when nobody listens). A first result (nothing before) is no correction of theirs; an undo
    cancels what was queued and not yet sent about the correction it undoes."""
    if correction.reverts_id is not None:
        queue.subject_ended(correction_subject(correction.reverts_id))
    if not correction.before:
        return 0
    entries = [e for e in entries if e is not None]
    if not entries:
        return 0
    competition = correction.competition
    event = competition.event
    listening = players_listening(event, [e.player_id for e in entries])
    if not listening:
        return 0
    players = Player.objects.in_bulk(listening)
    url = absolute_url(competition.get_absolute_url())
    notices = []
    for player_id in sorted(listening):
        player = players[player_id]
        language = mail_language(player, event)
        with translation.override(language):
            title = _("%(competition)s: a correction changed your result") % {
                "competition": competition.name
            }
            body = _("%(item)s: %(before)s, now %(after)s.") % {
                "item": correction.item_shown,
                "before": correction.before_shown,
                "after": correction.after_shown or "–",
            }
        notices.append(
            Notice(
                player=player,
                key=f"{correction_subject(correction.pk)}:{player.pk}",
                subject_key=correction_subject(correction.pk),
                title=title,
                body=body,
                url=url,
                language=language,
            )
        )
    return send_notices(event, notices, now=now)
