"""The "also notify me on this phone" of a public player page: the
control on the cached page (no CSRF token), the JSON routes, the rate limit per address, the
push's own stop link and the manifest's start page."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from events.models import Entry
from events.outbox.models import PushSubscription
from events.outbox.stop_links import MAX_AGE, public_stop_token
from events.outbox.views.public import SUBSCRIBES_PER_ADDRESS
from events.signups.services import mail as signup_mail
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory
from tests.support.notify import PRIVATE, PUBLIC, Browser, b64
from tests.support.signups import seated

pytestmark = pytest.mark.django_db
VAPID = override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)


@pytest.fixture
def entry():
    competition = CompetitionFactory(event=EventFactory(slug="lincon"), slug="blokus")
    return EntryFactory(competition=competition, player=PlayerFactory(name="Sara Svensson"))


def player_page(entry) -> str:
    return reverse("blokus:player", args=["lincon", "blokus", entry.pk])


def subscription(endpoint="http://127.0.0.1:9/push/phone") -> str:
    browser = Browser()
    return json.dumps(
        {"endpoint": endpoint, "keys": {"p256dh": browser.p256dh, "auth": b64(browser.auth)}}
    )


def push_url(entry, name="public_push", entry_id=None) -> str:
    """The route as the page names it: with its event (``?event=<slug>``)."""
    event = entry.competition.event.slug
    return reverse(f"events:{name}", args=[entry_id or entry.pk]) + f"?event={event}"


def post_json(client, url, body, **kw):
    return client.post(url, body, content_type="application/json", **kw)


@VAPID
def test_the_public_page_shows_the_control_the_same_for_everyone(entry, client):
    page = client.get(player_page(entry))
    body = page.content.decode()
    assert "data-push-me" in body and "Also notify me on this phone" in body
    assert push_url(entry) in body
    assert "csrfmiddlewaretoken" not in body and "csrftoken" not in page.cookies
    assert f"manifest.webmanifest?start={player_page(entry)}" in body
    assert Client().get(player_page(entry)).content.decode() == body  # one body for all


def test_without_vapid_keys_there_is_no_control(entry, client):
    body = client.get(player_page(entry)).content.decode()
    assert "data-push-me" not in body and "manifest.webmanifest" not in body
    url = push_url(entry)
    assert post_json(client, url, subscription()).status_code == 400
    assert not PushSubscription.objects.exists()


@VAPID
def test_subscribe_and_stop_on_this_phone_without_a_token(entry):
    client = Client(enforce_csrf_checks=True)
    url = push_url(entry)
    answer = post_json(client, url, subscription())
    assert answer.status_code == 201, answer.content
    assert answer["Cache-Control"] == "no-store, private"
    row = PushSubscription.objects.get()
    assert (row.public, row.event_id, row.player_id) == (
        True,
        entry.competition.event_id,
        entry.player_id,
    )
    stop = push_url(entry, "public_push_stop")
    assert post_json(client, stop, json.dumps({"endpoint": "http://x/"})).json() == {"stopped": 0}
    answer = post_json(client, stop, json.dumps({"endpoint": row.endpoint}))
    assert answer.json() == {"stopped": 1}
    assert not PushSubscription.objects.exists()


@VAPID
@pytest.mark.parametrize(
    ("body", "content_type", "status", "stop_status"),
    [
        ("endpoint=x", "application/x-www-form-urlencoded", 415, 415),
        ("{", "application/json", 400, 400),
        ("[[[[[[[[]]]]]]]]", "application/json", 400, 400),
        ('{"endpoint": 5, "keys": {}}', "application/json", 400, 400),
        ('{"endpoint": "http://10.0.0.1/x", "keys": {"p256dh": "a", "auth": "b"}}', None, 400, 200),
        ("x" * 5000, "application/json", 400, 400),
    ],
)
def test_hostile_posts_are_clear_4xx_and_write_nothing(
    entry, client, body, content_type, status, stop_status
):
    for name, expected in (("public_push", status), ("public_push_stop", stop_status)):
        url = push_url(entry, name)
        answer = client.post(url, body, content_type=content_type or "application/json")
        assert answer.status_code == expected, (name, answer.content)
    unknown = push_url(entry, entry_id=999999)
    assert post_json(client, unknown, subscription()).status_code == 404
    # An entry id without its event's address, or with another's: nothing to find.
    for query in ("", "?event=elsewhere"):
        url = reverse("events:public_push", args=[entry.pk]) + query
        assert post_json(client, url, subscription()).status_code == 404, query
    # A withdrawn player takes no new phone (a stop still works).
    Entry.objects.filter(pk=entry.pk).update(withdrawn_at=timezone.now())
    assert post_json(client, push_url(entry), subscription()).status_code == 404
    stop = push_url(entry, "public_push_stop")
    assert post_json(client, stop, json.dumps({"endpoint": "http://x/"})).status_code == 200
    Entry.objects.filter(pk=entry.pk).update(withdrawn_at=None)
    assert client.get(push_url(entry)).status_code == 405
    assert not PushSubscription.objects.exists()


@VAPID
def test_subscribing_is_rate_limited_per_address_on_both_routes(entry):
    client = Client(REMOTE_ADDR="203.0.113.9")
    url = push_url(entry)
    for _ in range(SUBSCRIBES_PER_ADDRESS):
        assert post_json(client, url, "{}").status_code == 400
    answer = post_json(client, url, subscription())
    assert answer.status_code == 429 and "Too many" in answer.json()["error"]
    # The person's own push route counts against the same address.
    seated(entry.competition)
    token = signup_mail.person_token("p0@example.org")
    person = reverse("events:signup_push", args=[token, entry.competition.event_id])
    assert post_json(client, person, subscription()).status_code == 429
    # Another address is not held up.
    other = Client(REMOTE_ADDR="203.0.113.10")
    assert post_json(other, url, subscription()).status_code == 201
    assert PushSubscription.objects.count() == 1


@VAPID
def test_the_pushs_own_stop_link_asks_then_stops_and_bad_links_are_clear(entry, client):
    post_json(client, push_url(entry), subscription())
    row = PushSubscription.objects.get()
    url = reverse("events:public_push_off", args=[public_stop_token(row.pk, row.endpoint)])
    asked = client.get(url)
    assert asked.status_code == 200 and b"on this phone" in asked.content
    assert PushSubscription.objects.exists()
    done = client.post(url, "List-Unsubscribe=One-Click", content_type="x")
    assert done.status_code == 200 and not PushSubscription.objects.exists()
    assert client.post(url).status_code == 200  # once more: nothing left, no error
    assert client.get(url[:-3] + "x/").status_code == 404
    assert client.get(reverse("events:public_push_off", args=["x" * 300])).status_code == 404
    with time_machine.travel(timezone.now() - MAX_AGE - dt.timedelta(days=1)):
        old = public_stop_token(row.pk, row.endpoint)
    answer = client.get(reverse("events:public_push_off", args=[old]))
    assert answer.status_code == 410


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("/e/lincon/blokus/blokus/player/1/", "/e/lincon/blokus/blokus/player/1/"),
        ("//evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil.example/", "/"),
        ("/nowhere/at/all/", "/"),
        ("/e/lincon/?next=x", "/"),
        ("/" + "a" * 400, "/"),
        ("/e/lin con/", "/"),
    ],
)
def test_the_manifest_starts_at_the_page_it_came_from_if_it_is_ours(client, start, expected):
    answer = client.get(reverse("events:manifest"), {"start": start})
    assert answer.status_code == 200
    assert answer.json()["start_url"] == expected
