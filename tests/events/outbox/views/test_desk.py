"""The desk's outbox and webhook pages (events/outbox/views/desk.py). The event's e-mails: what
was sent, what waits, what could not be sent, "try again" for organisers only, and a test e-mail
to oneself. The webhook page: organisers add, switch, test and delete webhooks and
read the delivery log; the form keeps what was typed and says what is wrong; nobody else gets
in; hostile settings are form errors, never a 500; the page costs the same number of queries
however many webhooks and deliveries it lists."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from events.models import EventRole
from events.outbox import queue as outbox, webhooks
from events.outbox.models import OutboxMessage, OutboxStatus, Webhook
from tests.support.factories import CompetitionFactory, UserFactory
from tests.support.outbox import Answer, Receiver

LOCAL = "http://127.0.0.1:9/hook"
ALL = ["result.confirmed", "round.seated", "standings.changed", "registration.changed"]
pytestmark = pytest.mark.django_db


def page(event) -> str:
    return reverse("events:webhooks", args=[event.slug])


def action(hook, what: str) -> str:
    return reverse("events:webhook_action", args=[hook.event.slug, hook.pk, what])


def deliveries(hook, count: int) -> None:
    for n in range(count):
        outbox.enqueue(
            key=f"wh:{hook.pk}:t:{n}",
            channel="webhook",
            to=hook.url,
            subject="result.confirmed",
            body="{}",
            event=hook.event,
            webhook=hook,
        )
    OutboxMessage.objects.filter(webhook=hook).update(
        status=OutboxStatus.FAILED, attempts=8, last_error="HTTP 500 (not accepted)"
    )


def test_the_event_desk_links_to_the_page(desk_client, event):
    response = desk_client.get(reverse("events:event_desk", args=[event.slug]) + "?all")
    assert page(event) in response.content.decode()


def test_an_organiser_adds_a_webhook_and_sees_its_secret(desk_client, event):
    response = desk_client.post(page(event), {"url": LOCAL, "topics": ["result.confirmed"]})
    assert response.status_code == 302
    hook = Webhook.objects.get(event=event)
    assert hook.topics == ["result.confirmed"] and hook.created_by.username == "alice"
    text = desk_client.get(page(event)).content.decode()
    assert hook.secret in text and LOCAL in text
    assert desk_client.get(page(event))["Cache-Control"].count("no-store") == 1


def test_the_form_keeps_what_was_typed_and_says_what_is_wrong(desk_client, event, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    response = desk_client.post(page(event), {"url": "https://10.0.0.8/in", "topics": ALL})
    assert response.status_code == 400
    text = response.content.decode()
    assert "private or local network" in text and 'value="https://10.0.0.8/in"' in text
    response = desk_client.post(page(event), {"url": "http://example.org/in", "topics": ALL})
    assert "must start with https://" in response.content.decode()
    response = desk_client.post(page(event), {"url": "https://hooks.example.org/", "topics": []})
    assert response.status_code == 400 and "at least one" in response.content.decode()
    assert not Webhook.objects.exists()


def test_switch_off_on_test_and_delete(desk_client, event, django_capture_on_commit_callbacks):
    with Receiver() as receiver:
        hook = webhooks.webhook_create(event=event, url=receiver.url(), topics=ALL)
        assert desk_client.post(action(hook, "off")).status_code == 302
        hook.refresh_from_db()
        assert not hook.active
        desk_client.post(action(hook, "test"))  # refused while off: a message, no post
        assert not OutboxMessage.objects.exists()
        desk_client.post(action(hook, "on"))
        with django_capture_on_commit_callbacks(execute=True):
            desk_client.post(action(hook, "test"))
        receiver.take()
        text = desk_client.get(page(event)).content.decode()
        assert "HTTP 204" in text and "test" in text
        delivery = OutboxMessage.objects.get()
        resend = reverse("events:webhook_resend", args=[event.slug, delivery.pk])
        with django_capture_on_commit_callbacks(execute=True):
            assert desk_client.post(resend).status_code == 302
        receiver.take()
        assert desk_client.post(action(hook, "delete")).status_code == 302
        assert not Webhook.objects.exists() and not OutboxMessage.objects.exists()
        assert desk_client.post(action(hook, "on")).status_code == 404
        assert desk_client.post(resend).status_code == 404


def test_unknown_actions_and_ids_are_404(desk_client, event):
    hook = webhooks.webhook_create(event=event, url=LOCAL, topics=ALL)
    assert desk_client.post(action(hook, "explode")).status_code == 404
    assert desk_client.get(action(hook, "on")).status_code == 405
    other = reverse("events:webhook_action", args=[event.slug, 10**12, "on"])
    assert desk_client.post(other).status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "outsider", "scorekeeper", "player"])
def test_nobody_but_the_events_organisers_gets_in(client, event, outsider, who):
    hook = webhooks.webhook_create(event=event, url=LOCAL, topics=ALL)
    if who == "outsider":
        client.force_login(outsider)
    elif who == "scorekeeper":
        keeper = UserFactory(username="sam")
        EventRole.objects.create(event=event, user=keeper, role="scorekeeper")
        client.force_login(keeper)
    elif who == "player":
        client.force_login(get_user_model().objects.create(username="pat"))
    for method, url in [
        ("get", page(event)),
        ("post", page(event)),
        ("post", action(hook, "delete")),
        ("post", action(hook, "test")),
    ]:
        response = getattr(client, method)(url, {"url": LOCAL, "topics": ALL})
        if who == "anonymous":
            assert response.status_code == 302 and "/login" in response["Location"]
        else:
            assert response.status_code == 403
        assert hook.secret not in response.content.decode()
    assert Webhook.objects.filter(pk=hook.pk, active=True).exists()
    assert not OutboxMessage.objects.exists()


@pytest.mark.parametrize("count", [1, webhooks.MAX_PER_EVENT])
def test_the_page_costs_the_same_queries_for_one_or_many(
    desk_client, event, count, django_assert_max_num_queries
):
    for n in range(count):
        hook = webhooks.webhook_create(event=event, url=f"{LOCAL}/{n}", topics=ALL)
        deliveries(hook, 6)
    with django_assert_max_num_queries(8):
        response = desk_client.get(page(event))
    assert response.status_code == 200
    assert response.content.decode().count("Resend") == min(6 * count, 50)


HOSTILE_TEXT = st.one_of(
    st.text(max_size=80),
    st.sampled_from(
        [
            "javascript:alert(1)",
            "http://169.254.169.254/latest/meta-data/",
            "https://[::1]/",
            "https://127.0.0.1:0/",
            "https://x.org:99999/",
            "https://a@b@c/",
            "\x00",
            "https://" + "a" * 5000,
            "https://exa\u200bmple.org/",
        ]
    ),
)


@hsettings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(url=HOSTILE_TEXT, topics=st.lists(st.text(max_size=30), max_size=5))
def test_hostile_settings_are_form_errors(desk_client, event, settings, url, topics):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    response = desk_client.post(page(event), {"url": url, "topics": topics})
    assert response.status_code == 400
    assert not Webhook.objects.exists()


def test_a_delivery_made_after_failures_shows_the_success_and_the_old_error_as_history(
    desk_client, event
):
    with Receiver() as receiver:
        hook = webhooks.webhook_create(event=event, url=receiver.url(), topics=ALL)
        outbox.enqueue(
            key=f"wh:{hook.pk}:late",
            channel="webhook",
            to=hook.url,
            subject="result.confirmed",
            body="{}",
            event=event,
            webhook=hook,
        )
        receiver.answer = Answer(status=500)
        outbox.drain()
        receiver.take()
        failing = desk_client.get(page(event)).content.decode()
        # While it fails: the error, as the current state.
        assert 'class="error addr">WebhookFailed: HTTP 500' in failing
        receiver.answer = Answer(status=204)
        outbox.drain(now=timezone.now() + timedelta(hours=1))
        receiver.take()
    delivery = OutboxMessage.objects.get(webhook=hook)
    assert delivery.status == OutboxStatus.SENT and delivery.attempts == 2
    text = desk_client.get(page(event)).content.decode()
    assert "HTTP 204" in text and 'class="tag status-sent"' in text
    assert 'class="error addr"' not in text  # no error shown as the delivery's state
    assert "Before it went through: WebhookFailed: HTTP 500" in text


@pytest.fixture
def mails(event):
    CompetitionFactory(event=event, name="Second", slug="second")  # the event page, not a redirect
    for key in ("a", "b", "c"):
        to = f"{key}@example.org"
        outbox.enqueue(key=key, to=to, subject=f"Mail {key}", body="", event=event)
    OutboxMessage.objects.filter(key="a").update(
        status=OutboxStatus.FAILED, attempts=8, last_error="SMTPRecipientsRefused: no such user"
    )
    outbox.drain()  # b and c go
    return event


def test_the_event_desk_shows_sent_and_failed_mails(desk_client, mails):
    page = desk_client.get(reverse("events:event_desk", args=[mails.slug]) + "?all")
    html = page.content.decode()
    assert page.status_code == 200
    assert "2 sent" in html and "1 could not be sent" in html
    assert "a@example.org" in html and "no such user" in html


def test_try_again_puts_failed_mails_back_and_the_drain_sends_them(desk_client, mails):
    response = desk_client.post(reverse("events:outbox_retry", args=[mails.slug]))
    assert response.status_code == 302 and response.url.endswith("?all#outbox")
    assert OutboxMessage.objects.get(key="a").status == OutboxStatus.PENDING
    assert outbox.drain().sent == 1
    assert not OutboxMessage.objects.exclude(status=OutboxStatus.SENT).exists()


def test_only_the_events_organisers_may_try_again(client, outsider, mails):
    address = reverse("events:outbox_retry", args=[mails.slug])
    assert client.post(address).status_code == 302  # to the login page
    client.force_login(outsider)
    assert client.post(address).status_code == 403
    assert client.get(address).status_code in (403, 405)
    assert OutboxMessage.objects.get(key="a").status == OutboxStatus.FAILED


def test_the_event_desk_reads_the_outbox_in_constant_queries(
    desk_client, mails, django_assert_max_num_queries
):
    address = reverse("events:event_desk", args=[mails.slug]) + "?all"
    desk_client.get(address)
    for number in range(30):
        outbox.enqueue(key=f"more{number}", to="x@example.org", subject="x", body="", event=mails)
    OutboxMessage.objects.filter(key__startswith="more").update(status=OutboxStatus.FAILED)
    with django_assert_max_num_queries(12):
        assert desk_client.get(address).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_desk_shows_the_messages_retries_and_sends_a_test(
    desk_client, organiser, competition, django_assert_max_num_queries
):
    event = competition.event
    for n in range(40):
        outbox.enqueue(key=f"k{n}", to=f"p{n}@example.org", subject=f"S {n}", body="B", event=event)
    OutboxMessage.objects.filter(key="k1").update(
        status=OutboxStatus.FAILED, attempts=8, last_error="SMTPException: refused"
    )
    OutboxMessage.objects.filter(key="k2").update(
        status=OutboxStatus.CANCELLED, last_error="no longer true"
    )
    page_url = reverse("events:event_desk", args=[event.slug]) + "?all"
    with django_assert_max_num_queries(16):
        page = desk_client.get(page_url)
    text = page.content.decode()
    assert "p1@example.org: S 1" in text and "SMTPException: refused" in text
    assert "1 no longer due" in text and "e-mail" in text
    desk_client.post(reverse("events:outbox_retry", args=[event.slug]))
    assert OutboxMessage.objects.get(key="k1").status == OutboxStatus.PENDING
    assert OutboxMessage.objects.get(key="k2").status == OutboxStatus.CANCELLED

    organiser.email = "org@example.org"
    organiser.save()
    mail.outbox.clear()
    answer = desk_client.post(reverse("events:outbox_test", args=[event.slug]))
    assert answer.status_code == 302
    assert any(m.to == ["org@example.org"] for m in mail.outbox)
