"""The event desk's outbox buttons: a test e-mail to oneself, and sending the failed ones again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from events import selectors
from events.common.http import AuthenticatedHttpRequest
from events.models import OutboxMessage
from events.permissions import MANAGE, ensure_access
from events.services import outbox


@require_POST
@login_required
def outbox_test(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """A test e-mail to the organiser's own address, through the outbox (is the mail set up?)."""
    event = selectors.event_with_competitions(event_slug)
    ensure_access(event, request.user, MANAGE)
    if not request.user.email:
        messages.error(request, _("Your account has no e-mail address."))
    else:
        outbox.test_message(to=request.user.email, event=event)
        messages.success(
            request, _("A test e-mail to %(to)s is on its way.") % {"to": request.user.email}
        )
    return redirect(reverse("events:event_desk", args=[event.slug]) + "?all#outbox")


@require_POST
@login_required
def outbox_retry(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """The desk's "try again" for the event's e-mails that could not be sent."""
    event = selectors.event_with_competitions(event_slug)
    ensure_access(event, request.user, MANAGE)
    count = outbox.retry(messages=OutboxMessage.objects.filter(event=event))
    messages.success(
        request,
        ngettext("%(count)s e-mail goes out again.", "%(count)s e-mails go out again.", count)
        % {"count": count},
    )
    return redirect(reverse("events:event_desk", args=[event.slug]) + "?all#outbox")
