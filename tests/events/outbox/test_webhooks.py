"""Webhooks' settings and what they are told (events/outbox/webhooks.py): checked
addresses and topics, "registration.changed" from the shared entry services,
"standings.changed" once per committed competition version, thin public payloads, the test
button and the resend, and nothing at all for an event without webhooks."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Q

from events import services as event_services
from events.errors import ServiceError
from events.models import Competition
from events.outbox import queue as outbox, webhooks
from events.outbox.models import OutboxMessage, OutboxStatus, Webhook
from events.services.editing import entry_remove
from tests.support.factories import EntryFactory, EventFactory, PlayerFactory
from tests.support.outbox import Receiver, verify

LOCAL = "http://127.0.0.1:9/hook"
ALL = ["result.confirmed", "round.seated", "standings.changed", "registration.changed"]
pytestmark = pytest.mark.django_db


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


def codes(call) -> str:
    with pytest.raises(ServiceError) as refused:
        call()
    return str(refused.value.code)


# --- settings -----------------------------------------------------------------------------------


def test_a_webhook_needs_a_usable_address_and_known_topics(event, settings):
    create = webhooks.webhook_create
    assert codes(lambda: create(event=event, url=LOCAL, topics=[])) == "no_topic"
    assert codes(lambda: create(event=event, url=LOCAL, topics=["everything"])) == "bad_topic"
    assert codes(lambda: create(event=event, url="ftp://x.org/", topics=ALL)) == "bad_url"
    hook = create(event=event, url=LOCAL, topics=["standings.changed"])
    assert hook.topics == ["standings.changed"] and hook.active
    assert codes(lambda: create(event=event, url=LOCAL, topics=ALL)) == "already_registered"
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert codes(lambda: create(event=event, url="https://127.0.0.1/x", topics=ALL)) == "bad_url"
    assert (
        codes(
            lambda: create(
                event=event,
                url="https://hooks.example.org/x",
                topics=ALL,
                resolve=lambda host, port: ["10.0.0.1"],
            )
        )
        == "bad_url"
    )


def test_an_event_has_at_most_ten_webhooks(event):
    for n in range(webhooks.MAX_PER_EVENT):
        webhooks.webhook_create(event=event, url=f"{LOCAL}/{n}", topics=ALL)
    assert codes(lambda: webhooks.webhook_create(event=event, url=LOCAL, topics=ALL)) == "too_many"


def test_the_database_refuses_a_webhook_without_topics_or_with_another_scheme(event):
    for fields in ({"on_result": False}, {"url": "ftp://x.org/"}, {"secret": "plain"}):
        values = {"event": event, "url": LOCAL, "secret": webhooks.new_secret(), "on_result": True}
        with pytest.raises(IntegrityError), transaction.atomic():
            Webhook.objects.create(**(values | fields))


# --- what is told -------------------------------------------------------------------------------


def test_an_event_without_webhooks_pays_one_cached_read(
    competition, django_assert_num_queries, django_assert_max_num_queries
):
    with django_assert_max_num_queries(2):  # filling the cache
        webhooks.wanted_topics(competition.event_id)
        webhooks.any_standings()
    with django_assert_num_queries(0):
        assert webhooks.announce("result.confirmed", competition, subject="x") == 0
        webhooks.standings_bumped(Q(pk=competition.pk))


def test_registration_changes_are_told_with_ids_only(competition):
    webhooks.webhook_create(event=competition.event, url=LOCAL, topics=["registration.changed"])
    player = PlayerFactory(name="Hidden Person", email="hidden@example.org")
    entry = event_services.player_register(competition=competition, player=player)
    event_services.entry_check_in(entry=entry)
    event_services.entry_undo_check_in(entry=entry)
    event_services.entry_withdraw(entry=entry)
    event_services.entry_reinstate(entry=entry)
    entry_remove(entry=entry)
    told = sent("registration.changed")
    assert [m["data"]["change"] for m in told] == [
        "added",
        "checked_in",
        "check_in_undone",
        "withdrawn",
        "reinstated",
        "removed",
    ]
    assert {m["data"]["entry"] for m in told} == {entry.pk}
    bodies = "".join(OutboxMessage.objects.values_list("body", flat=True))
    assert "Hidden" not in bodies and "@example.org" not in bodies and "token" not in bodies
    assert sent("result.confirmed") == []  # not subscribed


def test_standings_are_told_once_per_committed_version(
    competition, django_capture_on_commit_callbacks
):
    webhooks.webhook_create(event=competition.event, url=LOCAL, topics=["standings.changed"])
    other = EventFactory(slug="elsewhere")
    elsewhere = Competition.objects.create(event=other, name="B", slug="b", format="blokus")
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():  # a burst in one transaction: one message
            event_services.competition_touch(competition)
            event_services.competition_touch(competition)
            event_services.competition_touch(elsewhere)  # no webhook there
    with django_capture_on_commit_callbacks(execute=True):
        event_services.competition_touch(competition)
    versions = [m["data"]["version"] for m in sent("standings.changed")]
    competition.refresh_from_db()
    assert versions == [competition.version - 1, competition.version]
    assert {m["data"]["event"] for m in sent("standings.changed")} == {competition.event.slug}
    # The same version again (a second server's after-commit check): nothing new.
    assert webhooks.standings_announce(Q(pk=competition.pk)) == 0


def test_a_switched_off_webhook_is_told_nothing(competition):
    hook = webhooks.webhook_create(event=competition.event, url=LOCAL, topics=ALL)
    webhooks.webhook_set_active(webhook=hook, active=False)
    EntryFactory(competition=competition)
    event_services.player_register(competition=competition, player=PlayerFactory())
    assert not OutboxMessage.objects.filter(channel="webhook").exists()
    webhooks.webhook_set_active(webhook=hook, active=True)
    event_services.player_register(competition=competition, player=PlayerFactory())
    assert len(sent("registration.changed")) == 1


def test_send_a_test_and_resend_reach_the_receiver_with_the_same_id(
    event, django_capture_on_commit_callbacks
):
    with Receiver() as receiver:
        hook = webhooks.webhook_create(event=event, url=receiver.url(), topics=ALL)
        with django_capture_on_commit_callbacks(execute=True):
            key = webhooks.webhook_test(webhook=hook)
        got = receiver.take()
        assert verify(hook.secret, got.headers, got.body)
        body = json.loads(got.body)
        assert body["type"] == "test" and body["data"] == {"event": event.slug}
        message = OutboxMessage.objects.get(key=key)
        assert message.status == OutboxStatus.SENT and message.response_status == 204
        with django_capture_on_commit_callbacks(execute=True):
            webhooks.delivery_resend(message=message)
        again = receiver.take()
        assert again.headers["webhook-id"] == got.headers["webhook-id"]
        message.refresh_from_db()
        assert message.status == OutboxStatus.SENT


def test_a_pending_delivery_is_not_resent_and_an_off_webhook_not_tested(event):
    hook = webhooks.webhook_create(event=event, url=LOCAL, topics=ALL)
    outbox.enqueue(
        key="wh:x", channel="webhook", to=LOCAL, subject="t", body="{}", event=event, webhook=hook
    )
    message = OutboxMessage.objects.get(key="wh:x")
    assert codes(lambda: webhooks.delivery_resend(message=message)) == "delivery_pending"
    webhooks.webhook_set_active(webhook=hook, active=False)
    assert codes(lambda: webhooks.webhook_test(webhook=hook)) == "webhook_off"
    webhooks.webhook_delete(webhook=hook)
    assert not OutboxMessage.objects.filter(key="wh:x").exists()
    assert codes(lambda: webhooks.webhook_test(webhook=hook)) == "webhook_gone"


def test_a_persons_after_commit_delivery_leaves_webhooks_to_the_loop(
    competition, django_capture_on_commit_callbacks
):
    """A scorer's request delivers the players' messages after its commit, never another
    site's webhook: a slow receiver would hold the request up."""
    webhooks.webhook_create(event=competition.event, url=LOCAL, topics=ALL)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            event_services.player_register(competition=competition, player=PlayerFactory())
            outbox.enqueue(
                key="mail:1",
                to="p@example.org",
                subject="Seat",
                body="Table 1",
                event=competition.event,
            )
            outbox.drain_after_commit()
    assert OutboxMessage.objects.get(key="mail:1").status == OutboxStatus.SENT
    posts = OutboxMessage.objects.filter(channel="webhook")
    assert {(m.status, m.attempts) for m in posts} == {(OutboxStatus.PENDING, 0)}
    assert outbox.drain().sent == 0  # the loop takes them (and finds nobody at port 9)
    assert {m.attempts for m in posts.all()} == {1}
