"""One webhook post (events/outbox/channels/webhook.py): signed as Standard Webhooks
says (checked here by a verifier written from the specification's text), delivered to a real
HTTP server on 127.0.0.1, and never to an address inside a private network: the address is
resolved and checked at every delivery (DNS rebinding), no redirect is followed, the answer is
read for a few KB at most and the whole post ends within the timeout."""

from __future__ import annotations

import base64
import threading
from collections.abc import Iterator

import pytest

from events.outbox import queue as outbox, webhooks
from events.outbox.channels import webhook as webhook_http
from events.outbox.channels.webhook import (
    ANSWER_BYTES,
    WebhookGone,
    WebhookRefused,
    address_refused,
    check_url,
    deliver_webhook,
    parse_target,
)
from events.outbox.models import OutboxMessage, OutboxStatus, Webhook
from tests.support.outbox import Answer, Receiver, verify

PUBLIC = "93.184.215.14"  # a public address (the example.org network)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


def hook_for(event, url: str, **kw) -> Webhook:
    return webhooks.webhook_create(event=event, url=url, topics=["result.confirmed"], **kw)


def message_for(hook: Webhook, key: str = "wh:test:1", body: str = '{"type":"test"}'):
    outbox.enqueue(
        key=key,
        channel=OutboxMessage.Channel.WEBHOOK,
        to=hook.url,
        subject="test",
        body=body,
        event=hook.event,
        webhook=hook,
    )
    return OutboxMessage.objects.select_related("webhook").get(key=key)


# --- the signature ------------------------------------------------------------------------------


def test_the_signature_follows_the_specifications_example():
    """The example of the Standard Webhooks specification (its test vector)."""
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = b'{"test": 2432232314}'
    expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    assert webhook_http.signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body) == (
        expected
    )


@pytest.mark.django_db
def test_a_delivery_reaches_a_local_server_signed_and_marked_sent(event, receiver):
    hook = hook_for(event, receiver.url("/hook?club=1"))
    assert hook.secret.startswith("whsec_") and len(base64.b64decode(hook.secret[6:])) == 32
    message = message_for(hook, body='{"type":"test","data":{"event":"x"}}')
    report = outbox.drain()
    assert (report.sent, report.retried, report.failed) == (1, 0, 0)
    got = receiver.take()
    assert got.path == "/hook?club=1"
    assert got.headers["content-type"] == "application/json"
    assert got.body == message.body.encode()
    assert verify(hook.secret, got.headers, got.body)
    assert not verify(webhooks.new_secret(), got.headers, got.body)
    assert not verify(hook.secret, got.headers, got.body + b" ")
    assert got.headers["webhook-id"].startswith("msg_")
    message.refresh_from_db()
    assert message.status == OutboxStatus.SENT and message.response_status == 204


@pytest.mark.django_db
def test_a_5xx_is_retried_with_backoff_under_the_same_id_then_sent(event, receiver):
    hook = hook_for(event, receiver.url())
    message = message_for(hook)
    receiver.answer = Answer(status=503)
    report = outbox.drain()
    assert (report.sent, report.retried) == (0, 1)
    first = receiver.take()
    message.refresh_from_db()
    assert message.status == OutboxStatus.PENDING and message.attempts == 1
    assert message.response_status == 503 and "HTTP 503" in message.last_error
    assert message.available_at > message.created_at  # backoff: not due again at once
    assert outbox.drain().sent == 0  # not due yet
    receiver.answer = Answer(status=200, body=b"ok")
    report = outbox.drain(now=message.available_at)
    assert report.sent == 1
    second = receiver.take()
    assert second.headers["webhook-id"] == first.headers["webhook-id"]
    assert verify(hook.secret, second.headers, second.body)
    message.refresh_from_db()
    assert message.status == OutboxStatus.SENT and message.response_status == 200


@pytest.mark.django_db
def test_410_gone_disables_the_webhook_and_cancels_the_message(event, receiver):
    hook = hook_for(event, receiver.url())
    message = message_for(hook)
    receiver.answer = Answer(status=410)
    assert outbox.drain().failed == 1
    message.refresh_from_db()
    hook.refresh_from_db()
    assert message.status == OutboxStatus.CANCELLED and message.response_status == 410
    assert not hook.active and "410" in hook.disabled_reason
    assert webhooks.wanted_topics(event.pk) == frozenset()


@pytest.mark.django_db
def test_no_redirect_is_followed(event, receiver):
    with Receiver() as elsewhere:
        hook = hook_for(event, receiver.url())
        message = message_for(hook)
        receiver.answer = Answer(status=302, headers={"Location": elsewhere.url("/stolen")})
        assert outbox.drain().retried == 1
        receiver.take()
        message.refresh_from_db()
        assert message.response_status == 302 and "redirect" in message.last_error
        assert elsewhere.nothing()


@pytest.mark.django_db
def test_an_oversized_answer_is_read_only_up_to_the_cap(event, receiver):
    hook = hook_for(event, receiver.url())
    receiver.answer = Answer(status=200, body=b"x" * 2_000_000)
    target = parse_target(hook.url)
    status, answer = webhook_http.post(target, "127.0.0.1", b"{}", {})
    assert status == 200 and len(answer) <= ANSWER_BYTES
    receiver.take()


@pytest.mark.django_db
def test_a_receiver_that_hangs_is_given_up_after_the_timeout(event, receiver):
    hook = hook_for(event, receiver.url())
    message = message_for(hook)
    receiver.answer = Answer(hold=threading.Event())
    with pytest.raises(Exception) as caught:  # urllib3's ReadTimeoutError
        deliver_webhook(message, timeout=0.3)
    assert "timed out" in str(caught.value).lower()
    receiver.take()


# --- where the site posts -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.20",
        "169.254.169.254",  # the cloud's metadata service
        "100.64.0.1",  # shared address space
        "0.0.0.0",
        "224.0.0.1",
        "240.0.0.1",
        "::1",
        "fe80::1",
        "fc00::1",
        "::ffff:127.0.0.1",
        "::ffff:169.254.169.254",
        # IPv6 forms that carry a private or loopback IPv4 address to a relay or translator
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:c0a8:114::1",  # 6to4 of 192.168.1.20
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 of the metadata service
        "64:ff9b:1::a00:1",  # local-use NAT64 of 10.0.0.1
        "::127.0.0.1",  # IPv4-compatible
        "::10.0.0.1",
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
        "2001:0:a00:1:8000:63bf:3f57:fefe",  # Teredo, server 10.0.0.1
        "ff02::1",
        "::",
        "not an address",
    ],
)
def test_private_loopback_link_local_and_odd_addresses_are_refused(settings, address):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert address_refused(address)


def test_public_addresses_are_allowed_and_the_setting_allows_local_ones(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert not address_refused(PUBLIC)
    assert not address_refused("2606:4700:4700::1111")
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    assert not address_refused("127.0.0.1") and not address_refused("192.168.1.20")
    assert address_refused("0.0.0.0") and address_refused("224.0.0.1")  # never


@pytest.mark.parametrize(
    "url",
    [
        "",
        "example.org/hook",
        "ftp://example.org/hook",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "gopher://example.org/",
        "http://example.org/hook",  # plain http, with the setting off
        "https://user:pw@example.org/hook",
        "https://example.org@127.0.0.1/hook",
        "https://example.org\\@127.0.0.1/",
        "https://exa mple.org/",
        "https://exämple.org/",
        "https://example.org:99999/",
        "https:///hook",
        "https://example.org/#frag",
        "https://" + "a" * 600 + ".org/",
    ],
)
def test_bad_addresses_are_refused_with_a_reason(settings, url):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(WebhookRefused) as refused:
        check_url(url, lambda host, port: [PUBLIC])
    assert str(refused.value)


def test_every_resolved_address_is_checked(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert check_url("https://hooks.example.org/x", lambda host, port: [PUBLIC]).host == (
        "hooks.example.org"
    )
    with pytest.raises(WebhookRefused, match="10.0.0.7"):
        check_url("https://hooks.example.org/x", lambda host, port: [PUBLIC, "10.0.0.7"])
    with pytest.raises(WebhookRefused):
        check_url("https://hooks.example.org/x", lambda host, port: [])


@pytest.mark.django_db
def test_dns_rebinding_is_refused_at_delivery_and_nothing_connects(event, receiver, settings):
    """The name answered a public address when the webhook was registered, and answers a
    private one at delivery: refused before any connection (the receiver, which stands for
    the private network, hears nothing)."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    answers = iter([[PUBLIC], ["127.0.0.1"]])

    def rebinding(host: str, port: int) -> list[str]:
        return next(answers)

    hook = webhooks.webhook_create(
        event=event,
        url=f"https://rebind.example.org:{receiver.port}/hook",
        topics=["result.confirmed"],
        resolve=rebinding,
    )
    message = message_for(hook)
    with pytest.raises(WebhookRefused, match="127.0.0.1"):
        deliver_webhook(message, resolve=rebinding)
    assert receiver.nothing()


@pytest.mark.django_db
def test_the_connection_goes_to_the_checked_address_with_the_name_as_host(event, receiver):
    """Pinned: the name is resolved once (by our resolver) and the connection made to that
    address; the Host header keeps the name. The name itself resolves nowhere."""
    asked = []

    def resolver(host: str, port: int) -> list[str]:
        asked.append(host)
        return ["127.0.0.1"]

    hook = hook_for(event, f"http://hooks.invalid:{receiver.port}/in", resolve=resolver)
    message = message_for(hook)
    assert deliver_webhook(message, resolve=resolver) == 204
    got = receiver.take()
    assert got.headers["host"] == f"hooks.invalid:{receiver.port}"
    assert asked == ["hooks.invalid", "hooks.invalid"]  # registration, delivery


@pytest.mark.django_db
def test_with_the_setting_off_a_loopback_webhook_is_refused_at_delivery(event, receiver, settings):
    hook = hook_for(event, receiver.url())  # registered while allowed
    message = message_for(hook)
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    report = outbox.drain()
    assert report.retried == 1
    message.refresh_from_db()
    assert "WebhookRefused" in message.last_error and message.response_status is None
    assert receiver.nothing()


@pytest.mark.django_db
def test_a_deleted_or_disabled_webhook_sends_nothing(event, receiver):
    hook = hook_for(event, receiver.url())
    message = message_for(hook)
    webhooks.webhook_set_active(webhook=hook, active=False)
    message.webhook.refresh_from_db()
    with pytest.raises(WebhookGone):
        deliver_webhook(message)
    assert outbox.drain().failed == 1
    message.refresh_from_db()
    assert message.status == OutboxStatus.CANCELLED
    assert receiver.nothing()
