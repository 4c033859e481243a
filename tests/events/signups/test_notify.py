"""Notifications on the person's page and the round robin's private page: the
choice per event, a browser's subscription (JSON, CSRF), the service worker and manifest."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from events.outbox.models import NotificationPreference, PushSubscription
from events.signups.services import mail as signup_mail
from tests.support.factories import CompetitionFactory
from tests.support.notify import PRIVATE, PUBLIC, Browser, b64
from tests.support.signups import seated

VAPID = override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)


def page_of(email):
    return reverse("events:signup_person", args=[signup_mail.person_token(email)])


@pytest.mark.django_db
def test_without_vapid_keys_the_page_offers_email_only(client, competition):
    (entry,) = seated(competition)
    page = client.get(page_of("p0@example.org"))
    assert b"Browser notifications are not set up on this site" in page.content
    assert b"data-push-url" not in page.content
    token = signup_mail.person_token("p0@example.org")
    url = reverse("events:signup_notify", args=[token, competition.event_id])
    answer = client.post(url, {"email": "on", "quiet_from": "22:00", "quiet_to": "07:00"})
    assert answer.status_code == 302
    choice = NotificationPreference.objects.get()
    assert (choice.email, choice.push, choice.quiet_from) == (True, False, dt.time(22))
    assert choice.player_id == entry.player_id
    # Push without keys, half quiet hours: refused, the choice unchanged.
    client.post(url, {"push": "on"})
    client.post(url, {"email": "on", "quiet_from": "22:00"})
    assert NotificationPreference.objects.get().quiet_from == dt.time(22)


@pytest.mark.django_db
@VAPID
def test_opting_in_to_push_with_a_subscription(competition, django_assert_max_num_queries):
    seated(competition, 3)
    client = Client(enforce_csrf_checks=True)
    token = signup_mail.person_token("p0@example.org")
    with django_assert_max_num_queries(7):
        page = client.get(page_of("p0@example.org"))
    assert page.status_code == 200
    assert PUBLIC.encode() in page.content and b'rel="manifest"' in page.content
    assert b"Add to Home Screen" in page.content
    csrf = page.cookies["csrftoken"].value
    url = reverse("events:signup_push", args=[token, competition.event_id])
    browser = Browser()
    body = json.dumps(
        {
            "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
            "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)},
        }
    )
    # Without the CSRF token: refused.
    assert client.post(url, body, content_type="application/json").status_code == 403
    answer = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert answer.status_code == 201
    assert PushSubscription.objects.get().endpoint == "https://fcm.googleapis.com/fcm/send/abc"


@pytest.mark.django_db
@VAPID
def test_hostile_subscription_posts_are_clear_4xx_and_write_nothing(client, competition, event):
    seated(competition)
    token = signup_mail.person_token("p0@example.org")
    url = reverse("events:signup_push", args=[token, competition.event_id])
    for body in (
        "",
        "not json",
        "[]",
        '{"endpoint": 1, "keys": {}}',
        '{"endpoint": "https://x.org/a", "keys": {"p256dh": "<script>", "auth": "x"}}',
        json.dumps({"endpoint": "https://x.org/" + "a" * 5000, "keys": {}}),
    ):
        assert client.post(url, body, content_type="application/json").status_code == 400
    other = CompetitionFactory(event__slug="elsewhere")
    for bad in (
        reverse("events:signup_push", args=[token, other.event_id]),  # not the person's event
        reverse("events:signup_push", args=[token[:-3] + "abc", competition.event_id]),
        reverse("events:signup_notify", args=[token, 999999]),
    ):
        assert client.post(bad, "{}", content_type="application/json").status_code == 404
    assert not PushSubscription.objects.exists()
    assert not NotificationPreference.objects.exists()


@pytest.mark.django_db
def test_the_service_worker_and_the_manifest(client):
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert b'addEventListener("push"' in worker.content
    assert b"notificationclick" in worker.content
    assert client.get("/desk/sw.js").status_code == 200  # the desk's own stays
    manifest = client.get("/manifest.webmanifest")
    assert json.loads(manifest.content)["display"] == "standalone"


@pytest.mark.django_db
@VAPID
def test_the_private_page_turns_push_on_and_off(client, event, django_assert_max_num_queries):
    from tests.support.roundrobin import started_duel

    started_duel(event)
    from roundrobin.models import PlayerToken

    token = PlayerToken.objects.order_by("pk").first()
    opened = client.get(reverse("roundrobin:private", args=[token.token]))
    page_url = opened["Location"]
    with django_assert_max_num_queries(30):
        page = client.get(page_url)
    assert b"data-push-url" in page.content
    url = reverse("roundrobin:private_notify", args=[token.entry_id])
    browser = Browser()
    body = json.dumps(
        {
            "endpoint": "https://fcm.googleapis.com/fcm/send/rr",
            "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)},
        }
    )
    assert client.post(url, body, content_type="application/json").status_code == 201
    assert client.post(url, {"push": "on"}).status_code == 303
    choice = NotificationPreference.objects.get()
    assert choice.push and not choice.email  # e-mail is a box of its own, not ticked here
    client.post(url, {})
    assert not NotificationPreference.objects.get().push
    # Another browser (no cookie): 403, nothing written.
    assert Client().post(url, {"push": "on"}).status_code == 403
    assert not NotificationPreference.objects.get().push


@pytest.mark.django_db
def test_sign_up_and_stop_tokens_never_reach_a_log_line(client, caplog):
    with caplog.at_level("WARNING", logger="django.request"):
        assert client.get("/sign-up/SECRETPERSONTOKEN/nowhere/").status_code == 404
        assert client.get("/notifications/stop/SECRETSTOPTOKEN/x/").status_code == 404
    assert caplog.records
    assert "SECRET" not in caplog.text
    assert "/sign-up/[private]/" in caplog.text and "/notifications/stop/[private]/" in caplog.text
