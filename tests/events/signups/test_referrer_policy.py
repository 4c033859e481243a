"""Addresses that are keys never leave the page in a ``Referer``: every answer under the person's
link (``/sign-up/<token>/…``), a stop link (``/notifications/stop/<token>/``), a push's stop
(``/notifications/phone/<token>/stop/``) and a round robin's private link (``/p/<token>/``)
carries its own Referrer-Policy, whatever the status (200, 302, 303, 403, 404, 405, 410, 400,
JSON), over the site's (SecurityMiddleware only sets one where none is). ``strict-origin``: the
origin at most, never the path; not no-referrer, with which a browser posts the page's forms
with ``Origin: null``, which Django's CSRF check refuses (tests/browser/test_signup_journey.py
shows both in Chromium)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events.outbox.models import PushSubscription
from events.outbox.stop_links import MAX_AGE, public_stop_token, stop_token
from events.signups.services import lifecycle as signups, mail as signup_mail
from roundrobin.models import PlayerToken
from tests.support.roundrobin import make_competition, started_duel
from tests.support.signups import open_window, seated

pytestmark = pytest.mark.django_db

KEY = "strict-origin"


def policy(response) -> str:
    return response.headers.get("Referrer-Policy", "")


@pytest.fixture
def person(competition):
    """A person with a seat (the page's notification panel included) and a pending sign-up."""
    (entry,) = seated(competition)
    other = make_competition(competition.event, slug="second")
    open_window(other, cap=3)
    sign_up = signups.signup_submit(window=other.sign_up_window, name="P 0", email="p0@example.org")
    return entry, sign_up, signup_mail.person_token("p0@example.org")


def test_the_site_keeps_its_own_policy_elsewhere(client, competition, settings):
    assert settings.SECURE_REFERRER_POLICY == "same-origin"
    open_window(competition)
    for address in ("/", reverse("events:signup", args=[competition.event.slug])):
        assert policy(client.get(address)) == "same-origin", address


def test_every_answer_under_the_persons_link(client, competition, person):
    _entry, sign_up, token = person
    event_id = competition.event_id
    answers = {
        "page": client.get(reverse("events:signup_person", args=[token])),
        "data": client.get(reverse("events:signup_data", args=[token])),
        "unknown path": client.get(f"/sign-up/{token}/nowhere/"),
        "GET of a POST": client.get(reverse("events:signup_confirm", args=[token])),
        "confirm": client.post(reverse("events:signup_confirm", args=[token])),
        "cancel": client.post(reverse("events:signup_action", args=[token, sign_up.pk, "cancel"])),
        "name": client.post(reverse("events:signup_name_shown", args=[token]), {}),
        "notify": client.post(
            reverse("events:signup_notify", args=[token, event_id]), {"email": "on"}
        ),
        "push (JSON)": client.post(
            reverse("events:signup_push", args=[token, event_id]),
            "{}",
            content_type="application/json",
        ),
        "erase unconfirmed": client.post(reverse("events:signup_erase", args=[token]), {}),
        "altered": client.get(reverse("events:signup_person", args=[token[:-2] + "xy"])),
        "altered POST": client.post(reverse("events:signup_confirm", args=[token + "x"])),
    }
    statuses = {name: answer.status_code for name, answer in answers.items()}
    assert statuses == {
        "page": 200,
        "data": 200,
        "unknown path": 404,
        "GET of a POST": 405,
        "confirm": 302,
        "cancel": 302,
        "name": 302,
        "notify": 302,
        "push (JSON)": 400,
        "erase unconfirmed": 302,
        "altered": 404,
        "altered POST": 404,
    }
    assert answers["data"]["Content-Type"] == "application/json"
    assert {name: policy(answer) for name, answer in answers.items()} == dict.fromkeys(answers, KEY)
    # The answer of the erasure itself, and a form posted without the CSRF token (403).
    strict = Client(enforce_csrf_checks=True)
    refused = strict.post(reverse("events:signup_confirm", args=[token]))
    assert refused.status_code == 403 and policy(refused) == KEY
    erased = client.post(reverse("events:signup_erase", args=[token]), {"confirm": "erase"})
    assert erased.status_code == 200 and policy(erased) == KEY


def test_an_expired_persons_link(client, competition, person):
    _entry, _sign_up, token = person
    with time_machine.travel(timezone.now() + dt.timedelta(days=31)):
        page = client.get(reverse("events:signup_person", args=[token]))
        confirm = client.post(reverse("events:signup_confirm", args=[token]))
    assert (page.status_code, confirm.status_code) == (410, 410)
    assert policy(page) == policy(confirm) == KEY


def test_a_nul_in_the_persons_link_is_a_400_without_referrer(client, person):
    _entry, _sign_up, token = person
    answer = client.get(f"/sign-up/{token}%00/")
    assert answer.status_code == 400 and policy(answer) == KEY


def test_every_answer_of_a_stop_link(client, competition):
    (entry,) = seated(competition)
    token = stop_token(entry.player_id, competition.event_id)
    url = reverse("events:notify_stop", args=[token])
    with time_machine.travel(timezone.now() - MAX_AGE - dt.timedelta(days=1)):
        old = stop_token(entry.player_id, competition.event_id)
    answers = {
        "ask": (client.get(url), 200),
        "stop": (client.post(url), 200),
        "expired": (client.get(reverse("events:notify_stop", args=[old])), 410),
        "altered": (client.get(reverse("events:notify_stop", args=[token[:-2] + "xy"])), 404),
        "unknown path": (client.get(f"/notifications/stop/{token}/x/"), 404),
    }
    for name, (answer, status) in answers.items():
        assert (answer.status_code, policy(answer)) == (status, KEY), name


def test_every_answer_of_a_pushs_stop_link(client, competition):
    (entry,) = seated(competition)
    row = PushSubscription.objects.create(
        player=entry.player,
        event=competition.event,
        endpoint="http://127.0.0.1:9/push/phone",
        p256dh="k",
        auth="a",
        public=True,
    )
    token = public_stop_token(row.pk, row.endpoint)
    url = reverse("events:public_push_off", args=[token])
    with time_machine.travel(timezone.now() - MAX_AGE - dt.timedelta(days=1)):
        old = public_stop_token(row.pk, row.endpoint)
    answers = {
        "ask": (client.get(url), 200),
        "stop": (client.post(url), 200),
        "expired": (client.get(reverse("events:public_push_off", args=[old])), 410),
        "altered": (client.get(reverse("events:public_push_off", args=[token + "x"])), 404),
    }
    for name, (answer, status) in answers.items():
        assert (answer.status_code, policy(answer)) == (status, KEY), name


def test_the_round_robins_private_link(client, event):
    a, _b = started_duel(event, "rp", seed=3).entries
    token = PlayerToken.objects.get(entry=a).token
    opened = client.get(f"/p/{token}/")
    assert opened.status_code == 303 and token not in opened["Location"]
    assert policy(opened) == "no-referrer"  # the view's own: the redirect renders no page
    unknown = client.get("/p/" + "x" * 43 + "/")
    assert unknown.status_code == 404 and policy(unknown) == KEY
    page = client.get(opened["Location"])
    # Its address holds no key: the origin may go, so its plain forms post (no Origin: null).
    assert page.status_code == 200 and policy(page) == "strict-origin"
