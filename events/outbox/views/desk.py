"""The outbox's desk pages (``events/outbox/views/desk.py``): the event desk's outbox buttons
(a test e-mail to oneself, sending the failed ones again) and the webhook page (an event's
webhooks: add, switch on or off, delete, send a test; the latest deliveries: resend).
Organisers and owners only; thin: parse, call one service of ``events.outbox``, render."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from events import selectors
from events.common.http import AuthenticatedHttpRequest, int_or_404
from events.desk.http import go
from events.errors import ServiceError
from events.models import Event
from events.outbox import queue, webhooks
from events.outbox.models import (
    MAX_WEBHOOK_URL,
    TOPIC_FIELDS,
    OutboxMessage,
    Webhook,
    WebhookTopic,
)
from events.outbox.selectors import deliveries_of, webhooks_of
from events.permissions import MANAGE, ensure_access

ACTIONS = ("on", "off", "delete", "test")


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=gettext_lazy("Address (https://…)"),
        max_length=MAX_WEBHOOK_URL,
        widget=forms.URLInput(attrs={"autocomplete": "off", "inputmode": "url"}),
    )
    topics = forms.MultipleChoiceField(
        label=gettext_lazy("Tell it when"),
        choices=WebhookTopic.choices,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": gettext_lazy("Choose at least one thing to be told of."),
            "invalid_choice": gettext_lazy("Choose from the listed things to be told of."),
        },
    )


def _event_for(request: AuthenticatedHttpRequest, event_slug: str) -> Event:
    event = selectors.event_by_slug(event_slug)
    ensure_access(event, request.user, MANAGE)
    return event


def _page_url(event: Event) -> str:
    return reverse("events:webhooks", args=[event.slug])


def _page(
    request: AuthenticatedHttpRequest, event: Event, form: WebhookForm, status: int = 200
) -> HttpResponse:
    context: dict[str, Any] = {
        "event": event,
        "form": form,
        "webhooks": webhooks_of(event),
        "deliveries": deliveries_of(event),
        "max_webhooks": webhooks.MAX_PER_EVENT,
    }
    response = render(request, "events/outbox/webhooks.html", context, status=status)
    patch_cache_control(response, no_store=True, private=True)  # the secrets are on it
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def webhook_list(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    event = _event_for(request, event_slug)
    if request.method != "POST":
        return _page(request, event, WebhookForm(initial={"topics": list(TOPIC_FIELDS)}))
    form = WebhookForm(request.POST)
    if form.is_valid():
        try:
            webhooks.webhook_create(
                event=event,
                url=form.cleaned_data["url"],
                topics=form.cleaned_data["topics"],
                by=request.user,
            )
        except ServiceError as exc:
            form.add_error("topics" if exc.code in ("no_topic", "bad_topic") else "url", exc.text)
        else:
            messages.success(request, _("The webhook is registered. Its signing secret is below."))
            return redirect(_page_url(event))
    return _page(request, event, form, status=400)


def _webhook_of(event: Event, webhook_id: int) -> Webhook:
    webhook = Webhook.objects.filter(event=event, pk=int_or_404(webhook_id)).first()
    if webhook is None:
        raise Http404
    return webhook


@require_POST
@login_required
def webhook_action(
    request: AuthenticatedHttpRequest, event_slug: str, webhook_id: int, action: str
) -> HttpResponse:
    event = _event_for(request, event_slug)
    if action not in ACTIONS:
        raise Http404
    webhook = _webhook_of(event, webhook_id)
    try:
        if action == "test":
            webhooks.webhook_test(webhook=webhook)
            messages.success(request, _("A test message is on its way: see the deliveries below."))
        elif action == "delete":
            webhooks.webhook_delete(webhook=webhook)
            messages.success(request, _("The webhook is deleted."))
        else:
            webhooks.webhook_set_active(webhook=webhook, active=action == "on")
            messages.success(
                request,
                _("The webhook is on.") if action == "on" else _("The webhook is off."),
            )
    except ServiceError as exc:
        messages.error(request, exc.text)
    return go(request, _page_url(event))


@require_POST
@login_required
def webhook_resend(
    request: AuthenticatedHttpRequest, event_slug: str, delivery_id: int
) -> HttpResponse:
    event = _event_for(request, event_slug)
    message = OutboxMessage.objects.filter(
        event=event, pk=int_or_404(delivery_id), channel=OutboxMessage.Channel.WEBHOOK
    ).first()
    if message is None:
        raise Http404
    try:
        webhooks.delivery_resend(message=message)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("The delivery goes out again."))
    return redirect(_page_url(event) + "#deliveries")


# --- the event desk's outbox buttons ----------------------------------------------------------


@require_POST
@login_required
def outbox_test(request: AuthenticatedHttpRequest, event_slug: str) -> HttpResponse:
    """A test e-mail to the organiser's own address, through the outbox (is the mail set up?)."""
    event = selectors.event_with_competitions(event_slug)
    ensure_access(event, request.user, MANAGE)
    if not request.user.email:
        messages.error(request, _("Your account has no e-mail address."))
    else:
        queue.test_message(to=request.user.email, event=event)
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
    count = queue.retry(messages=OutboxMessage.objects.filter(event=event))
    messages.success(
        request,
        ngettext("%(count)s e-mail goes out again.", "%(count)s e-mails go out again.", count)
        % {"count": count},
    )
    return redirect(reverse("events:event_desk", args=[event.slug]) + "?all#outbox")
