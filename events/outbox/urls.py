"""The outbox's addresses by audience: the public ones (the stop link of every notification,
"this is me" on a public player page and its stop, the public service worker and manifest a
push needs) and the desk's (the event's outbox buttons, its webhooks and their deliveries)."""

from django.urls import path

from events.outbox.views import desk, public

public_routes = [
    path("notifications/stop/<str:token>/", public.notify_stop, name="notify_stop"),
    # "this is me" on a public player page: push only, public notices only
    path("notifications/me/<int:entry_id>/", public.public_push, name="public_push"),
    path(
        "notifications/me/<int:entry_id>/stop/",
        public.public_push_stop,
        name="public_push_stop",
    ),
    path(
        "notifications/phone/<str:token>/stop/",
        public.public_push_off,
        name="public_push_off",
    ),
    # the public service worker (push) and the web-app manifest iPhones need for it
    path("sw.js", public.service_worker, name="service_worker"),
    path("manifest.webmanifest", public.manifest, name="manifest"),
]
# Before the event desk's competition pages: "webhooks" is a word a competition's slug could be.
desk_routes = [
    path("desk/<slug:event_slug>/outbox/retry/", desk.outbox_retry, name="outbox_retry"),
    path("desk/<slug:event_slug>/outbox/test/", desk.outbox_test, name="outbox_test"),
    # webhooks: the event's addresses and their deliveries
    path("desk/<slug:event_slug>/webhooks/", desk.webhook_list, name="webhooks"),
    path(
        "desk/<slug:event_slug>/webhooks/<int:webhook_id>/<slug:action>/",
        desk.webhook_action,
        name="webhook_action",
    ),
    path(
        "desk/<slug:event_slug>/webhooks/deliveries/<int:delivery_id>/resend/",
        desk.webhook_resend,
        name="webhook_resend",
    ),
]
