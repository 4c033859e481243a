"""Notifications: choices per event, quiet hours, the stop link, the push channel
(a local push service decrypts what pywebpush sends), messages that expire."""

from __future__ import annotations

import base64
import datetime as dt
import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.test import override_settings
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from events.errors import ServiceError
from events.outbox import notify, queue as outbox
from events.outbox.channels.push import endpoint_usable, push_topic
from events.outbox.models import (
    NotificationPreference,
    OutboxMessage,
    OutboxStatus,
    PushSubscription,
)
from events.outbox.stop_links import read_stop_token, stop_token
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.notify import NOW, VAPID, Browser, PushService, b64, notice


@pytest.fixture
def event(db):
    return EventFactory(name="Tartu Open", slug="tartu-open", time_zone="Europe/Tallinn")


@pytest.fixture
def player(db):
    return PlayerFactory(name="Mari Maasikas", email="mari@example.org", language="et")


def test_a_choice_is_one_row_per_player_and_event_and_the_database_refuses_half_quiet_hours(
    event, player
):
    notify.preference_set(player=player, event=event, email=True, push=False, now=NOW)
    notify.preference_set(player=player, event=event, email=False, push=False, now=NOW)
    assert NotificationPreference.objects.get().email is False
    with pytest.raises(ServiceError):
        notify.preference_set(
            player=player, event=event, email=True, push=False, quiet_from=dt.time(22)
        )
    with pytest.raises(ServiceError):  # push without VAPID keys is not offered
        notify.preference_set(player=player, event=event, email=True, push=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        NotificationPreference.objects.filter(player=player).update(quiet_from=dt.time(22))
    with pytest.raises(IntegrityError), transaction.atomic():
        NotificationPreference.objects.create(player=player, event=event)


def test_nothing_is_queued_without_a_choice_and_email_with_it(event, player):
    assert notify.send_notices(event, [notice(player)], now=NOW) == 0
    assert notify.send_notices(event, [notice(player, "k0")], email_default=True, now=NOW) == 1
    notify.preference_set(player=player, event=event, email=True, push=False, now=NOW)
    assert notify.send_notices(event, [notice(player, "k1")], now=NOW) == 1
    assert notify.send_notices(event, [notice(player, "k1")], now=NOW) == 0  # deduplicated
    message = OutboxMessage.objects.get(key="k1")
    assert "/notifications/stop/" in message.body


def test_a_message_due_in_quiet_hours_waits_until_they_end(event, player):
    # 12:00 UTC is 14:00 in Tallinn; quiet 13:00-15:30 there.
    notify.preference_set(
        player=player,
        event=event,
        email=True,
        push=False,
        quiet_from=dt.time(13),
        quiet_to=dt.time(15, 30),
        now=NOW,
    )
    notify.send_notices(event, [notice(player)], now=NOW)
    message = OutboxMessage.objects.get()
    assert message.available_at == dt.datetime(2026, 12, 2, 13, 30, tzinfo=dt.UTC)
    assert outbox.drain(now=NOW).sent == 0  # held, not dropped
    assert outbox.drain(now=message.available_at).sent == 1
    # Over midnight: 22:00-07:00 at 23:00 local ends at 07:00 the next day.
    preference = NotificationPreference.objects.get()
    preference.quiet_from, preference.quiet_to = dt.time(22), dt.time(7)
    late = dt.datetime(2026, 12, 2, 21, 0, tzinfo=dt.UTC)
    assert notify.quiet_until(preference, event.time_zone, late) == dt.datetime(
        2026, 12, 3, 5, 0, tzinfo=dt.UTC
    )
    assert notify.quiet_until(preference, event.time_zone, NOW) is None


def test_every_email_carries_a_one_click_stop_and_the_link_stops_it(client, event, player):
    notify.preference_set(player=player, event=event, email=True, push=False, now=NOW)
    notify.send_notices(event, [notice(player, "k1", "s1"), notice(player, "k2", "s2")], now=NOW)
    OutboxMessage.objects.filter(key="k2").update(available_at=NOW + dt.timedelta(hours=1))
    outbox.drain(now=NOW)
    (sent,) = mail.outbox
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = sent.extra_headers["List-Unsubscribe"].strip("<>")
    path = url.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200 and b"Tartu Open" in page.content
    assert NotificationPreference.objects.get().email is True  # a GET changes nothing
    # A mail client's one click: a POST without session or CSRF token.
    answer = client.post("/" + path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    assert NotificationPreference.objects.get().email is False
    assert OutboxMessage.objects.get(key="k2").status == OutboxStatus.CANCELLED
    assert notify.send_notices(event, [notice(player, "k3")], now=NOW) == 0


def test_tampered_foreign_and_expired_stop_links_are_clear_4xx(client, event, player):
    token = stop_token(player.pk, event.pk)
    assert read_stop_token(token) == (player.pk, event.pk)
    for bad in (token[:-2] + "xx", "x" * 300, "", "<script>", "1:2", "%00"):
        answer = client.post(f"/notifications/stop/{bad}/")
        assert answer.status_code in (400, 404), bad
    with override_settings(SECRET_KEY="another"):
        assert read_stop_token(token) is None
    from django.core import signing

    old = signing.TimestampSigner(salt="events.notify.stop")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(old, "timestamp", lambda: signing.b62_encode(1_000_000))
        expired = old.sign_object([player.pk, event.pk])
    assert client.get(f"/notifications/stop/{expired}/").status_code == 410
    assert client.post(f"/notifications/stop/{expired}/").status_code == 410
    assert not NotificationPreference.objects.exists()  # nothing written
    gone = stop_token(player.pk, event.pk + 999)
    assert client.post(f"/notifications/stop/{gone}/").status_code == 404


@VAPID
def test_a_push_payload_round_trips_and_a_410_deletes_the_subscription(event, player):
    browser = Browser()
    with PushService() as service:
        subscription = notify.push_subscribe(
            player=player, endpoint=service.url(), p256dh=browser.p256dh, auth=b64(browser.auth)
        )
        notify.preference_set(player=player, event=event, email=False, push=True, now=NOW)
        notify.send_notices(event, [notice(player, title="Voor 1: laud 2")], now=NOW)
        report = outbox.drain(now=NOW)
        assert report.sent == 1
        ((headers, body),) = service.received
        assert headers["content-encoding"] == "aes128gcm"
        assert headers["authorization"].startswith("vapid t=")
        # one pending message per subject at the push service (RFC 8030 Topic), not its text
        topic = headers["topic"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", topic)
        assert topic == push_topic(OutboxMessage.objects.get(channel="push"))
        payload = browser.decrypt(body)
        assert payload["title"] == "Voor 1: laud 2"
        assert payload["url"] == "https://events.example.org/x/"
        assert payload["lang"] == "et"
        subscription.refresh_from_db()
        assert subscription.last_success_at is not None

        service.status = 410
        notify.send_notices(event, [notice(player, "k2")], now=NOW)
        report = outbox.drain(now=NOW)
        assert (report.sent, report.retried) == (0, 0)
    assert not PushSubscription.objects.exists()
    message = OutboxMessage.objects.get(key__startswith="k2")
    assert message.status == OutboxStatus.CANCELLED and "410" in message.last_error
    assert outbox.retry(messages=[message]) == 0  # not tried again


@VAPID
def test_a_push_service_that_fails_is_retried_and_without_keys_nothing_crashes(event, player):
    browser = Browser()
    with PushService(status=500) as service:
        notify.push_subscribe(
            player=player, endpoint=service.url(), p256dh=browser.p256dh, auth=b64(browser.auth)
        )
        notify.preference_set(player=player, event=event, email=False, push=True, now=NOW)
        notify.send_notices(event, [notice(player)], now=NOW)
        assert outbox.drain(now=NOW).retried == 1
        with override_settings(VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY=""):
            assert outbox.drain(now=NOW + dt.timedelta(hours=2)).retried == 1
    assert OutboxMessage.objects.get().status == OutboxStatus.PENDING


@VAPID
def test_hostile_subscriptions_are_refused_and_write_nothing(event, player):
    browser = Browser()
    good = {"p256dh": browser.p256dh, "auth": b64(browser.auth)}
    bad = [
        {"endpoint": "http://push.example.org/a", **good},  # not https, not this machine
        {"endpoint": "javascript:alert(1)", **good},
        {"endpoint": "https://fcm.googleapis.com/fcm/send/" + "a" * 1000, **good},
        {
            "endpoint": "https://fcm.googleapis.com/fcm/send/a",
            "p256dh": "AAAA",
            "auth": good["auth"],
        },
        {
            "endpoint": "https://fcm.googleapis.com/fcm/send/a",
            "p256dh": good["p256dh"],
            "auth": "!!",
        },
        # only the browsers' push services: nothing inside the operator's network
        {"endpoint": "https://10.0.0.7/send/a", **good},
        {"endpoint": "https://intranet.example.org/send/a", **good},
        {"endpoint": "https://fcm.googleapis.com.evil.example/a", **good},
        {"endpoint": "https://user:pw@fcm.googleapis.com/fcm/send/a", **good},
        {"endpoint": "https://fcm.googleapis.com:99999/a", **good},
    ]
    for fields in bad:
        with pytest.raises(ServiceError):
            notify.push_subscribe(player=player, **fields)
    assert not PushSubscription.objects.exists()
    notify.push_subscribe(player=player, endpoint="https://fcm.googleapis.com/fcm/send/a", **good)
    notify.push_subscribe(player=player, endpoint="https://fcm.googleapis.com/fcm/send/a", **good)
    assert PushSubscription.objects.count() == 1


def test_the_vapid_keys_command_prints_a_usable_pair(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert len(base64.urlsafe_b64decode(lines["VAPID_PRIVATE_KEY"] + "=")) == 32
    assert base64.urlsafe_b64decode(lines["VAPID_PUBLIC_KEY"] + "=")[0] == 4


STEPS = st.lists(
    st.tuples(st.sampled_from(["remind", "move", "drain"]), st.integers(0, 2), st.integers(0, 1)),
    max_size=25,
)


@pytest.mark.django_db
@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=STEPS)
def test_each_state_is_queued_once_and_nothing_goes_out_after_its_subject_ended(steps):
    """For any sequence of reminders (a deadline near), moves (the subject ends) and drains:
    each (person, subject, state) is queued at most once, and no message of an ended subject
    is sent after it ended (delivery itself is at least once)."""
    with transaction.atomic():
        event = EventFactory()
        players = [PlayerFactory(email=f"p{i}@example.org") for i in range(2)]
        for p in players:
            notify.preference_set(player=p, event=event, email=True, push=False, now=NOW)
        ended: set[str] = set()
        sent: set[int] = set()
        clock = NOW
        for action, turn, who in steps:
            clock += dt.timedelta(minutes=1)
            subject = f"turn:{turn}:{who}"
            if action == "remind" and subject not in ended:
                # The reminder of a state, asked again and again while it is true (as the round
                # robin's sweep asks only for sides that have not moved): queued once.
                notify.send_notices(
                    event,
                    [notice(players[who], key=f"remind:{subject}", subject_key=subject)],
                    now=clock,
                )
            elif action == "move":
                outbox.subject_ended(subject)
                ended.add(subject)
            else:
                outbox.drain(now=clock)
                now_sent = dict(
                    OutboxMessage.objects.filter(status=OutboxStatus.SENT).values_list(
                        "pk", "subject_key"
                    )
                )
                for pk, subject_key in now_sent.items():
                    assert pk in sent or subject_key not in ended
                sent = set(now_sent)
        keys = list(OutboxMessage.objects.values_list("key", flat=True))
        assert len(keys) == len(set(keys))
        assert not OutboxMessage.objects.filter(
            subject_key__in=ended, status=OutboxStatus.PENDING
        ).exists()
        transaction.set_rollback(True)


@VAPID
def test_this_machine_is_a_push_endpoint_only_where_the_setting_allows_it(event, player):
    """The tests' and development's own push service (127.0.0.1) is refused in production, at
    subscription and again at delivery (a setting changed since)."""
    browser = Browser()
    good = {"p256dh": browser.p256dh, "auth": b64(browser.auth)}
    local = "http://127.0.0.1:6379/"
    with override_settings(PUSH_ANY_LOCAL_ENDPOINT=False):
        with pytest.raises(ServiceError):
            notify.push_subscribe(player=player, endpoint=local, **good)
    subscription = notify.push_subscribe(player=player, endpoint=local, **good)
    assert endpoint_usable(subscription.endpoint)
    with override_settings(PUSH_ANY_LOCAL_ENDPOINT=False):
        assert not endpoint_usable(subscription.endpoint)
        assert endpoint_usable("https://updates.push.services.mozilla.com/wpush/v2/x")
        assert endpoint_usable("https://web.push.apple.com/QGx")


def test_quiet_hours_end_at_the_right_instant_when_the_clocks_go_back():
    """Stockholm, quiet 22:00-02:30, on the night the hour 02:00-03:00 repeats: at 02:15 of the
    repeated hour (01:15 UTC) the quiet hours end at its 02:30 (01:30 UTC), not a day later,
    and not at the first 02:30 (00:30 UTC, already past)."""
    preference = NotificationPreference(quiet_from=dt.time(22, 0), quiet_to=dt.time(2, 30))
    utc = dt.UTC
    ends = notify.quiet_until(
        preference, "Europe/Stockholm", dt.datetime(2026, 10, 25, 1, 15, tzinfo=utc)
    )
    assert ends is not None and ends.astimezone(utc) == dt.datetime(2026, 10, 25, 1, 30, tzinfo=utc)
    first = notify.quiet_until(
        preference, "Europe/Stockholm", dt.datetime(2026, 10, 24, 21, 0, tzinfo=utc)
    )
    assert first is not None and first.astimezone(utc) == dt.datetime(
        2026, 10, 25, 0, 30, tzinfo=utc
    )
    assert (
        notify.quiet_until(
            preference, "Europe/Stockholm", dt.datetime(2026, 10, 25, 12, 0, tzinfo=utc)
        )
        is None
    )


@VAPID
def test_a_player_keeps_five_browsers_and_a_shared_browser_holds_a_row_per_player(event):
    anna, bo = PlayerFactory(), PlayerFactory()
    browser = Browser()
    keys = {"p256dh": browser.p256dh, "auth": b64(browser.auth)}
    base = "https://fcm.googleapis.com/fcm/send/"
    for number in range(8):
        notify.push_subscribe(
            player=anna,
            endpoint=f"{base}{number}",
            now=dt.datetime(2026, 6, 1, 12, number, tzinfo=dt.UTC),
            **keys,
        )
    kept = PushSubscription.objects.filter(player=anna).order_by("endpoint")
    assert [s.endpoint[-1] for s in kept] == ["3", "4", "5", "6", "7"]  # the newest five
    notify.push_subscribe(player=bo, endpoint=f"{base}7", **keys)  # the family phone
    assert PushSubscription.objects.filter(endpoint=f"{base}7").count() == 2
