"""Sign-up's jobs at an instant: a seat's hold and an offer each end when they run out, not
when a sweep next comes by. The job re-checks the window under its lock (``catch_up``), so a
hold confirmed or an offer taken in the meantime is left alone, and a seat freed by an ended
offer goes to the next on the waitlist at once."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django_tasks import task

from events.signups.models import SignUpWindow
from events.signups.services.lifecycle import catch_up, locked_window


@task()
def window_due(window_id: int) -> str:
    if not SignUpWindow.objects.filter(pk=window_id).exists():
        return "the window is gone"
    with transaction.atomic():
        ended, freed, offered = catch_up(locked_window(window_id), timezone.now())
    return f"{ended} offers ended, {freed} holds ended, {offered} seats offered"
