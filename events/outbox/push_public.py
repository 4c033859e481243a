"""The "this is me" of a public player page: push to this browser for that
player in that event, without an account and without proof of who is pressing.

Anyone can claim to be anyone there, so such a subscription (``PushSubscription.public``):
- receives only notices marked ``public`` (``notify.Notice.public``): what the public pages
  show anyway, with a public link (Blokus seats, a reserve called in, the final's seating,
  sjoelen's next board), never a private link, a confirmation link or a reminder;
- proves itself first: a welcome push ("notifications on for …") goes to it at once, and only
  once a push service has taken a push for it (``last_success_at``) does it hold one of the
  ``PUBLIC_PER_PLAYER`` places of a player and event. A made-up push address never proves
  itself, so a stranger cannot fill the player's places with them and lock the player's own
  phone out: unproved claims are at most ``UNPROVED_PER_PLAYER`` (the oldest gives way to a
  new one) and are dropped after ``PROOF_WINDOW``. Beyond the proved places one more is refused
  (not the oldest replaced: a stranger's claims must not silently push out the player's phone);
  filling them takes three real browsers subscribed with this site's key;
- never takes the place of the person's own browsers (``notify.MAX_BROWSERS``, chosen behind
  the sign-up link), which are counted apart;
- stops from the push itself (a signed link over the subscription, ``stop_links``), from the
  same page ("stop on this phone", which must name the browser's own push address), and with
  every other notification of the player for the event (``notify.stop``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_lazy

from events.common.siteurl import absolute_url
from events.errors import ServiceError
from events.models import Entry, Player
from events.outbox import notify, queue
from events.outbox.models import PushSubscription
from events.outbox.stop_links import endpoint_mark

PUBLIC_PER_PLAYER = 3  # proved "this is me" browsers kept per player and event
UNPROVED_PER_PLAYER = 3  # claims waiting for their welcome push to be taken
PROOF_WINDOW = timedelta(minutes=15)  # an unproved claim is dropped after this
FULL = gettext_lazy(
    "Three phones are notified for this player already. Stop one of them (each notification "
    "has its own “Stop”) to add this one."
)


@transaction.atomic
def subscribe(
    *, entry: Entry, endpoint: str, p256dh: str, auth: str, now: datetime | None = None
) -> PushSubscription:
    """Keep this browser for ``entry``'s player in ``entry``'s event (the same browser again:
    updated) and send it its welcome push; refused beyond ``PUBLIC_PER_PLAYER`` proved ones."""
    now = now or timezone.now()
    notify.subscription_checked(endpoint, p256dh, auth)
    event_id = entry.competition.event_id
    Player.objects.select_for_update().filter(pk=entry.player_id).first()  # one claim at a time
    kept = PushSubscription.objects.filter(
        player_id=entry.player_id, event_id=event_id, public=True
    )
    unproved = kept.filter(last_success_at__isnull=True)
    unproved.filter(created_at__lt=now - PROOF_WINDOW).delete()
    if not kept.filter(endpoint=endpoint).exists():
        if kept.filter(last_success_at__isnull=False).count() >= PUBLIC_PER_PLAYER:
            raise ServiceError(FULL, code="full")
        waiting = list(unproved.order_by("created_at", "pk").values_list("pk", flat=True))
        if len(waiting) >= UNPROVED_PER_PLAYER:
            PushSubscription.objects.filter(
                pk__in=waiting[: len(waiting) - UNPROVED_PER_PLAYER + 1]
            ).delete()
    try:
        with transaction.atomic():
            subscription, _created = PushSubscription.objects.update_or_create(
                player_id=entry.player_id,
                endpoint=endpoint,
                event_id=event_id,
                public=True,
                defaults={"p256dh": p256dh, "auth": auth, "created_at": now},
            )
    except IntegrityError as exc:  # two posts of one browser at once: the other one won
        raise ServiceError(notify.BAD_ENDPOINT, code="endpoint") from exc
    if subscription.last_success_at is None:
        _welcome(entry, subscription, now)
    return subscription


def _welcome(entry: Entry, subscription: PushSubscription, now: datetime) -> None:
    """The push that proves a claim (and tells the phone it works), sent right after commit."""
    event = entry.competition.event
    language = translation.get_language() or event.language or "en"
    with translation.override(language):
        title = _("Notifications on")
        body = _("This phone will be told about %(player)s at %(event)s.") % {
            "player": entry.player.name,
            "event": event.name,
        }
    key = f"push-welcome:{subscription.pk}:{subscription.created_at.timestamp():.0f}"
    queue.enqueue(
        key=key,
        to=f"push {subscription.pk}",
        subject=title,
        body=body,
        language=language,
        event=event,
        now=now,
        channel=queue.PUSH,
        player=entry.player,
        subscription=subscription,
        url=absolute_url(entry.competition.get_absolute_url()),
    )
    queue.drain_after_commit([key])


def unsubscribe(*, entry: Entry, endpoint: str) -> int:
    """The page's "stop on this phone": the browser names its own push address (its secret),
    and only its "this is me" subscription for ``entry``'s player and event goes; what was
    still to be sent to it is cancelled by the outbox (its subscription is gone)."""
    if not isinstance(endpoint, str) or not endpoint:
        return 0
    deleted, _rows = PushSubscription.objects.filter(
        player_id=entry.player_id,
        event_id=entry.competition.event_id,
        endpoint=endpoint,
        public=True,
    ).delete()
    return deleted


def of_stop_link(*, subscription_id: int, mark: str) -> PushSubscription | None:
    """The subscription a stop link names, while it is there (and the row number still
    belongs to the browser it was made for)."""
    subscription = (
        PushSubscription.objects.filter(pk=subscription_id, public=True)
        .select_related("event")
        .first()
    )
    if subscription is None or endpoint_mark(subscription.endpoint) != mark:
        return None
    return subscription


@transaction.atomic
def stop(*, subscription_id: int, mark: str) -> PushSubscription | None:
    """The push's own stop link: that one subscription goes; None when it is gone already."""
    subscription = of_stop_link(subscription_id=subscription_id, mark=mark)
    if subscription is not None:
        PushSubscription.objects.filter(pk=subscription.pk).delete()
    return subscription
