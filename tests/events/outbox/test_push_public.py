"""The "this is me" of a public player page: a subscription for one player in one
event, with its own cap, that receives only public notices and stops from the push itself."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from events.errors import ServiceError
from events.outbox import notify, push_public, queue as outbox
from events.outbox.models import OutboxMessage, OutboxStatus, PushSubscription
from events.outbox.stop_links import public_stop_token, read_public_stop_token
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory
from tests.support.notify import NOW, VAPID, Browser, PushService, b64, notice

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def vapid():
    with VAPID:
        yield


@pytest.fixture
def entry(db):
    event = EventFactory(name="Tartu Open", slug="tartu-open", time_zone="Europe/Tallinn")
    player = PlayerFactory(name="Mari Maasikas", email="mari@example.org", language="et")
    return EntryFactory(competition=CompetitionFactory(event=event), player=player)


def claim(entry, endpoint, browser=None, now=NOW):
    browser = browser or Browser()
    return push_public.subscribe(
        entry=entry, endpoint=endpoint, p256dh=browser.p256dh, auth=b64(browser.auth), now=now
    )


def test_only_public_notices_reach_a_this_is_me_browser(entry):
    event, player = entry.competition.event, entry.player
    browser = Browser()
    with PushService() as service:
        claim(entry, service.url("/push/phone"), browser)
        assert notify.players_listening(event, [player.pk]) == set()
        assert notify.players_listening(event, [player.pk], public=True) == {player.pk}
        assert outbox.drain(now=NOW).sent == 1  # the welcome push, which proves the claim
        welcome = browser.decrypt(service.received.pop()[1])
        assert welcome["title"] == "Notifications on" and "Mari Maasikas" in welcome["body"]
        queued = notify.send_notices(
            event,
            [
                notice(player, "seat", "s1", public=True, title="Voor 1: laud 2"),
                notice(player, "your-move", "s2", title="Sinu käik"),  # private: a link of theirs
            ],
            now=NOW,
        )
        assert queued == 1
        assert outbox.drain(now=NOW).sent == 1
        ((_headers, body),) = service.received
    payload = browser.decrypt(body)
    assert payload["title"] == "Voor 1: laud 2"
    # The push's own stop names this subscription only, never the player's stop link.
    assert "/notifications/phone/" in payload["stop"] and payload["stop_label"]
    token = payload["stop"].rstrip("/").split("/")[-2]
    subscription = PushSubscription.objects.get()
    assert read_public_stop_token(token)[0] == subscription.pk
    # No e-mail: nobody chose it, and a public page's claim never adds one.
    assert not OutboxMessage.objects.filter(channel=outbox.EMAIL).exists()


def test_a_claim_is_for_its_event_only(entry):
    other = EventFactory(slug="other-event")
    claim(entry, "http://127.0.0.1:9/push/a")
    assert notify.send_notices(other, [notice(entry.player, public=True)], now=NOW) == 0
    assert notify.players_listening(other, [entry.player_id], public=True) == set()


def test_three_proved_claims_per_player_and_event_and_the_persons_own_browsers_untouched(entry):
    player = entry.player
    with PushService() as service:
        own = notify.push_subscribe(
            player=player,
            endpoint=service.url("/push/own"),
            p256dh=Browser().p256dh,
            auth=b64(Browser().auth),
            now=NOW,
        )
        for n in range(2, 5):
            claim(entry, service.url(f"/push/{n}"), now=NOW + dt.timedelta(minutes=n))
        assert outbox.drain(now=NOW + dt.timedelta(minutes=5)).sent == 3  # proved by welcome
        # A fourth is refused, saying why: a stranger cannot push the player's phones out.
        with pytest.raises(ServiceError) as full:
            claim(entry, service.url("/push/5"), now=NOW + dt.timedelta(minutes=5))
        assert full.value.code == "full" and "Stop" in full.value.text
        public = PushSubscription.objects.filter(public=True).order_by("endpoint")
        assert [s.endpoint[-1] for s in public] == ["2", "3", "4"]
        assert PushSubscription.objects.filter(pk=own.pk, public=False).exists()
        # The same browser again: one row, updated.
        claim(entry, service.url("/push/2"), now=NOW + dt.timedelta(hours=1))
        assert PushSubscription.objects.filter(public=True).count() == 3
        # One browser may be the person's own and a public claim at once: one message, not two.
        push_public.unsubscribe(entry=entry, endpoint=service.url("/push/4"))
        claim(entry, service.url("/push/own"), now=NOW + dt.timedelta(hours=2))
        OutboxMessage.objects.all().delete()
        notify.preference_set(player=player, event=entry.competition.event, email=False, push=True)
        notify.send_notices(entry.competition.event, [notice(player, public=True)], now=NOW)
        to = set(OutboxMessage.objects.values_list("subscription__endpoint", flat=True))
        assert len(to) == OutboxMessage.objects.count() == 3  # own + the two other claims


def test_made_up_push_addresses_cannot_lock_the_player_out(entry):
    """A stranger's claims with push addresses nothing answers at never prove themselves: they
    hold no place, give way to newer claims, and the player's own phone gets its place."""
    dead = [f"http://127.0.0.1:9/push/fake-{n}" for n in range(6)]  # nothing listens on port 9
    for n, endpoint in enumerate(dead):
        claim(entry, endpoint, now=NOW + dt.timedelta(seconds=n))
    outbox.drain(now=NOW + dt.timedelta(seconds=10))  # their welcome pushes go nowhere
    waiting = PushSubscription.objects.filter(public=True, last_success_at__isnull=True)
    assert waiting.count() == push_public.UNPROVED_PER_PLAYER
    phone = Browser()
    with PushService() as service:
        claim(entry, service.url("/push/phone"), phone, now=NOW + dt.timedelta(minutes=1))
        assert outbox.drain(now=NOW + dt.timedelta(minutes=1)).sent == 1
        assert phone.decrypt(service.received[0][1])["title"] == "Notifications on"
    proved = PushSubscription.objects.get(public=True, last_success_at__isnull=False)
    assert proved.endpoint.endswith("/push/phone")
    # Unproved claims are dropped once their time to prove themselves is over.
    claim(entry, dead[0], now=NOW + push_public.PROOF_WINDOW + dt.timedelta(minutes=5))
    assert list(
        PushSubscription.objects.filter(public=True, last_success_at__isnull=True).values_list(
            "endpoint", flat=True
        )
    ) == [dead[0]]


def test_the_welcome_push_is_in_the_pages_language(entry):
    from django.utils import translation

    phone = Browser()
    with PushService() as service, translation.override("et"):
        claim(entry, service.url("/push/phone"), phone)
    with PushService() as service:
        PushSubscription.objects.update(endpoint=service.url("/push/phone"))
        outbox.drain(now=NOW)
        welcome = phone.decrypt(service.received[0][1])
    assert welcome["lang"] == "et"
    assert welcome["title"] != "Notifications on"  # Estonian


def test_the_database_ties_a_public_claim_to_one_event(entry):
    row = claim(entry, "http://127.0.0.1:9/push/a")
    with pytest.raises(IntegrityError), transaction.atomic():
        PushSubscription.objects.filter(pk=row.pk).update(event=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        PushSubscription.objects.filter(pk=row.pk).update(public=False)


def test_stopping_on_the_phone_needs_its_own_address_and_the_players_stop_ends_claims(entry):
    claim(entry, "http://127.0.0.1:9/push/a")
    claim(entry, "http://127.0.0.1:9/push/b")
    OutboxMessage.objects.all().delete()  # their welcome pushes aside
    assert push_public.unsubscribe(entry=entry, endpoint="http://127.0.0.1:9/push/x") == 0
    assert push_public.unsubscribe(entry=entry, endpoint="http://127.0.0.1:9/push/a") == 1
    notify.send_notices(entry.competition.event, [notice(entry.player, public=True)], now=NOW)
    notify.stop(player_id=entry.player_id, event_id=entry.competition.event_id, now=NOW)
    assert not PushSubscription.objects.exists()
    assert OutboxMessage.objects.get().status == OutboxStatus.CANCELLED


def test_the_stop_link_stops_its_own_browser_once(entry):
    row = claim(entry, "http://127.0.0.1:9/push/a")
    other = claim(entry, "http://127.0.0.1:9/push/b")
    OutboxMessage.objects.all().delete()  # their welcome pushes aside
    mark = read_public_stop_token(public_stop_token(row.pk, row.endpoint))[1]
    notify.send_notices(entry.competition.event, [notice(entry.player, public=True)], now=NOW)
    assert push_public.stop(subscription_id=other.pk, mark=mark) is None  # another browser's
    assert push_public.stop(subscription_id=row.pk, mark=mark) is not None
    assert push_public.stop(subscription_id=row.pk, mark=mark) is None
    assert list(PushSubscription.objects.values_list("pk", flat=True)) == [other.pk]
    outbox.drain(now=NOW)  # the stopped browser's message is no longer due
    stopped = OutboxMessage.objects.get(to=f"push {row.pk}")
    assert stopped.status == OutboxStatus.CANCELLED
