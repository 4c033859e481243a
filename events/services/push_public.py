"""The "this is me" of a public player page (issue 31, item 1): push to this browser for that
player in that event, without an account and without proof of who is pressing.

Anyone can claim to be anyone there, so such a subscription (``PushSubscription.public``):
- receives only notices marked ``public`` (``notify.Notice.public``): what the public pages
  show anyway, with a public link (Blokus seats, a reserve called in, the final's seating,
  sjoelen's next board), never a private link, a confirmation link or a reminder;
- is for one event, and at most ``PUBLIC_PER_PLAYER`` are kept per player and event; one more
  is refused (not the oldest replaced: a stranger's claims must not silently push out the
  player's phone), and a stranger's claims never take the place of the person's own browsers
  (``notify.MAX_BROWSERS``, chosen behind the sign-up link), which are counted apart;
- stops from the push itself (a signed link over the subscription, ``stop_links``), from the
  same page ("stop on this phone", which must name the browser's own push address), and with
  every other notification of the player for the event (``notify.stop``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.errors import ServiceError
from events.models import Entry, Player, PushSubscription
from events.services import notify
from events.services.stop_links import endpoint_mark

PUBLIC_PER_PLAYER = 3  # "this is me" browsers kept per player and event
FULL = gettext_lazy(
    "Three phones are notified for this player already. Stop one of them (each notification "
    "has its own “Stop”) to add this one."
)


@transaction.atomic
def subscribe(
    *, entry: Entry, endpoint: str, p256dh: str, auth: str, now: datetime | None = None
) -> PushSubscription:
    """Keep this browser for ``entry``'s player in ``entry``'s event (the same browser again:
    updated); refused beyond ``PUBLIC_PER_PLAYER``."""
    now = now or timezone.now()
    notify.subscription_checked(endpoint, p256dh, auth)
    event_id = entry.competition.event_id
    Player.objects.select_for_update().filter(pk=entry.player_id).first()  # one claim at a time
    kept = PushSubscription.objects.filter(
        player_id=entry.player_id, event_id=event_id, public=True
    )
    if kept.count() >= PUBLIC_PER_PLAYER and not kept.filter(endpoint=endpoint).exists():
        raise ServiceError(FULL, code="full")
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
    return subscription


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
