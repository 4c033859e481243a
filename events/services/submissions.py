"""A form's one-time submission key: a second post of the same form creates nothing."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError  # noqa: F401 (callers catch services.ValidationError)
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.errors import Conflict
from events.models import (
    SubmissionToken,
)

ALREADY_SUBMITTED = gettext_lazy(
    "This form had already been sent; it was acted on once, and nothing was done twice."
)


SUBMISSION_TOKEN_DAYS = 1


class AlreadySubmitted(Conflict):
    """A form posted a second time (a double click, a resent page): nothing was done again.
    ``url`` is where the first post led, when known."""

    default_code = "already_submitted"

    def __init__(self, url: str = "") -> None:
        super().__init__(ALREADY_SUBMITTED, code=self.default_code)
        self.url = url


def submission_use(token: str) -> SubmissionToken | None:
    """Record a form's one-time token inside the caller's transaction, or refuse a second use.

    A second post of the same token waits (PostgreSQL) for the first one's transaction, then
    finds the token and raises ``AlreadySubmitted``; if the first one failed, its token was
    rolled back with it and the second one acts. An empty token (a client without the hidden
    field) records nothing. Tokens older than a day are removed on the way.
    """
    if not token:
        return None
    cutoff = timezone.now() - dt.timedelta(days=SUBMISSION_TOKEN_DAYS)
    SubmissionToken.objects.filter(created_at__lt=cutoff).delete()
    try:
        with transaction.atomic():
            return SubmissionToken.objects.create(token=token[:64])
    except IntegrityError:
        used = SubmissionToken.objects.filter(token=token[:64]).first()
        raise AlreadySubmitted(used.url if used else "") from None


def submission_seen(token: str) -> bool:
    """Whether a client's submission key (the desk's offline queue, static/js/offline.js) was
    acted on already: a cheap look before a view does any work for a replay. The service still
    records the key with ``submission_use`` in its own transaction, which is what settles it."""
    return bool(token) and SubmissionToken.objects.filter(token=token[:64]).exists()


def submission_done(record: SubmissionToken | None, url: str) -> None:
    if record is not None:
        SubmissionToken.objects.filter(pk=record.pk).update(url=url[:300])
