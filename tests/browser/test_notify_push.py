"""Browser push end to end: a person opts in on their page (the service worker at
/sw.js registers, the subscription is posted), a Blokus round is drawn, the outbox sends the
push to a local push service that decrypts it (Swedish), and the service worker's push handler,
driven with Chromium's ServiceWorker.deliverPushMessage, shows the notification."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from blokus import services as blokus
from events.outbox import queue as outbox
from events.outbox.models import NotificationPreference, PushSubscription
from events.signups.services import lifecycle as signups, mail as signup_mail
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory
from tests.support.notify import PRIVATE, PUBLIC, Browser, PushService, b64

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Headless Chromium has no push service to subscribe with (no Google keys): the page's
# subscribe() answers with the test's own subscription, whose endpoint is the local service.
FAKE_SUBSCRIBE = """
window.__subscription = %s;
PushManager.prototype.getSubscription = async function () { return null; };
PushManager.prototype.subscribe = async function () {
  const data = window.__subscription;
  return { toJSON: () => data };
};
"""


@override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)
def test_opt_in_on_the_person_page_and_receive_a_round_in_swedish(browser, live_server):
    event = EventFactory(name="LinCon", slug="lincon", time_zone="Europe/Stockholm")
    competition = CompetitionFactory(
        event=event,
        name="Blokus",
        slug="blokus",
        settings={"qualifying_sessions": 1, "capacity": 12, "rounds_per_session": 1},
    )
    now = dt.datetime.now(dt.UTC)
    signups.window_set(
        competition=competition,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=1),
        cap=8,
    )
    seat = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=competition.sign_up_window, name="Sara Svensson", email="sara@example.org"
        )
    ).entry
    seat.player.language = "sv"
    seat.player.save()
    (session,) = blokus.sessions_set_up(competition=competition, roll_calls=[None])
    entries = [seat] + [
        EntryFactory(competition=competition, player=PlayerFactory(name=f"P{n}")) for n in range(3)
    ]
    for entry in entries:
        blokus.session_check_in(
            session_player=blokus.session_register(session=session, entry=entry)
        )
    blokus.session_seat(session=session)

    phone_keys = Browser()
    with PushService() as service:
        subscription = {
            "endpoint": service.url("/push/sara"),
            "keys": {"p256dh": phone_keys.p256dh, "auth": b64(phone_keys.auth)},
        }
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE")
        context.set_default_timeout(20_000)
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(FAKE_SUBSCRIBE % json.dumps(subscription))
        page = context.new_page()
        token = signup_mail.person_token("sara@example.org")
        page.goto(f"{live_server.url}/sign-up/{token}/")
        form = page.locator("#notify form")
        form.locator("input[name=push]").check()
        form.get_by_role("button", name="Spara").click()
        expect(form).to_have_attribute("data-saved", "push")
        expect(form.locator("[data-push-status]")).to_have_text("Sparat.")
        assert PushSubscription.objects.get().endpoint == subscription["endpoint"]
        assert NotificationPreference.objects.get().push

        blokus.round_draw(session=session, seed=3)
        outbox.drain()
        received = [body for _headers, body in service.received]
    assert len(received) == 1
    payload = phone_keys.decrypt(received[0])
    assert payload["lang"] == "sv" and payload["title"].startswith("Blokus: Omgång 1: bord")
    assert f"/player/{seat.pk}/" in payload["url"]

    shown_by_the_service_worker(context, page, live_server.url, payload)
    context.close()


def shown_by_the_service_worker(context, page, origin: str, payload: dict) -> None:
    """The push handler of /sw.js, driven through the DevTools protocol, shows ``payload``."""
    cdp = context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.wait_for_function(
        "navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))"
    )
    registration = next(r for r in registrations if r["scopeURL"] == origin + "/")
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": origin,
            "registrationId": registration["registrationId"],
            "data": json.dumps(payload),
        },
    )
    page.wait_for_function(
        """title => navigator.serviceWorker.getRegistration('/')
            .then(r => r.getNotifications())
            .then(list => list.some(n => n.title === title))""",
        arg=payload["title"],
    )


@override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)
def test_push_on_the_private_page_and_x_has_moved_in_dutch(browser, live_server):
    from roundrobin import services as roundrobin
    from roundrobin.models import PlayerToken
    from tests.support.roundrobin import START, started_duel

    event = EventFactory(name="Briefschaak", slug="briefschaak")
    competition, game, first, second = started_duel(event)
    second.player.language = "nl"
    second.player.save()
    token = PlayerToken.objects.get(entry=second).token

    phone_keys = Browser()
    with PushService() as service:
        subscription = {
            "endpoint": service.url("/push/dutch"),
            "keys": {"p256dh": phone_keys.p256dh, "auth": b64(phone_keys.auth)},
        }
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="nl-NL")
        context.set_default_timeout(20_000)
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(FAKE_SUBSCRIBE % json.dumps(subscription))
        page = context.new_page()
        page.goto(f"{live_server.url}/p/{token}/")
        page.locator("#notify-push").check()
        page.locator("#notify").get_by_role("button", name="Opslaan").click()
        expect(page.locator("#notify form")).to_have_attribute("data-saved", "push")
        assert PushSubscription.objects.get().player_id == second.player_id

        roundrobin.move_submit(
            entry=first, game_id=game.pk, turn=1, text="e4", now=START + dt.timedelta(hours=1)
        )
        outbox.drain(now=START + dt.timedelta(hours=1))
        received = [body for _headers, body in service.received]
    assert len(received) == 1
    payload = phone_keys.decrypt(received[0])
    assert payload["lang"] == "nl" and payload["title"].endswith("heeft gezet"), payload
    assert f"/p/{token}/" in payload["url"]
    shown_by_the_service_worker(context, page, live_server.url, payload)
    context.close()


@override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)
def test_this_is_me_on_a_public_player_page_and_the_seat_of_a_round(browser, live_server):
    """A visitor with no link and no account says "this is me" on a public Blokus player page:
    the round's seat (public anyway) reaches the phone; stopping on the page ends it."""
    from django.urls import reverse

    from tests.support.browser import SHOTS

    event = EventFactory(name="LinCon", slug="lincon", time_zone="Europe/Stockholm")
    competition = CompetitionFactory(
        event=event,
        name="Blokus",
        slug="blokus",
        settings={"qualifying_sessions": 1, "capacity": 12, "rounds_per_session": 1},
    )
    (session,) = blokus.sessions_set_up(competition=competition, roll_calls=[None])
    entries = [
        EntryFactory(competition=competition, player=PlayerFactory(name=f"Player {n}"))
        for n in range(4)
    ]
    for entry in entries:
        blokus.session_check_in(
            session_player=blokus.session_register(session=session, entry=entry)
        )
    blokus.session_seat(session=session)
    me = entries[2]

    phone_keys = Browser()
    with PushService() as service:
        subscription = {
            "endpoint": service.url("/push/visitor"),
            "keys": {"p256dh": phone_keys.p256dh, "auth": b64(phone_keys.auth)},
        }
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        context.set_default_timeout(20_000)
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_init_script(FAKE_SUBSCRIBE % json.dumps(subscription))
        page = context.new_page()
        page.goto(live_server.url + reverse("blokus:player", args=["lincon", "blokus", me.pk]))
        box = page.locator("[data-push-me]")
        # One choice at a time: "This is me" first, then its one follow-up.
        expect(box).to_be_hidden()
        page.get_by_role("button", name="This is me", exact=True).click()
        expect(box).to_be_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "this-is-me-390.png"), full_page=True)
        box.get_by_role("button", name="Also notify me on this phone").click()
        expect(box).to_have_attribute("data-state", "on")
        expect(box.locator("[data-push-me-status]")).to_have_text("This phone will be notified.")
        claimed = PushSubscription.objects.get()
        assert (claimed.public, claimed.player_id) == (True, me.player_id)

        blokus.round_draw(session=session, seed=3)
        outbox.drain()
        received = [body for _headers, body in service.received]
        assert len(received) == 2
        # First the welcome push, which proves the claim (a made-up address never would).
        assert phone_keys.decrypt(received[0])["title"] == "Notifications on"
        claimed.refresh_from_db()
        assert claimed.last_success_at is not None
        payload = phone_keys.decrypt(received[1])
        assert payload["title"].startswith("Blokus: Round 1: table"), payload
        assert f"/player/{me.pk}/" in payload["url"]
        assert "/notifications/phone/" in payload["stop"]
        shown_by_the_service_worker(context, page, live_server.url, payload)

        # "Stop on this phone": the browser names its own push address, the claim goes.
        page.evaluate(
            """data => {
                PushManager.prototype.getSubscription = async () => ({
                    endpoint: data.endpoint, toJSON: () => data,
                });
            }""",
            subscription,
        )
        box.get_by_role("button", name="Stop on this phone").click()
        expect(box).to_have_attribute("data-state", "off")
        assert not PushSubscription.objects.exists()
    context.close()
