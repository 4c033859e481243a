"""The browser-push channel (``pywebpush``, VAPID keys from the settings): a push service's 404
or 410 deletes the subscription and cancels the message (``PushGone``). The site posts only to
an address of one of the browsers' push services (``endpoint_usable``), reads at most a few
bytes of the answer (``bounded_answer``), and the desk sees the kind of a failure and its
status, never the address (``push_error``)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time

import requests
import urllib3
from django.conf import settings
from django.utils import timezone

from events.common.network import is_loopback_host
from events.outbox.models import OutboxMessage, PushSubscription
from events.outbox.stop_links import push_stop

MAX_PUSH_ENDPOINT = 1000  # characters of a push subscription's address
PUSH_ANSWER_BYTES = 4096  # of a push service's answer body, read at most
# A push service's address: https, a host name, a path of URL characters; nothing else.
PUSH_ENDPOINT = re.compile(r"https://(?P<host>[A-Za-z0-9.-]+)/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*")
LOCAL_ENDPOINT = re.compile(r"https?://(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]{1,5})?/[!-~]*")
PUSH_TTL = 12 * 3600  # a push service keeps an undelivered message this long (seconds)
PUSH_TIMEOUT = 10
GONE = (404, 410)


class PushGone(Exception):
    """The push service no longer knows the subscription (404, 410): never tried again."""


def push_payload(message: OutboxMessage) -> dict[str, str]:
    """What the service worker (templates/events/outbox/sw.js) shows: title, body, link, language,
    and its one-tap stop (``stop_links.push_stop``)."""
    return {
        "title": message.subject,
        "body": message.body,
        "url": message.url,
        "lang": message.language,
        "tag": message.subject_key or message.key,
        **push_stop(message),
    }


def endpoint_usable(endpoint: str) -> bool:
    """An https address at one of the browsers' push services (``PUSH_SERVICE_HOSTS``): the
    site posts to whatever address a subscription names, so anything else (an address inside
    the operator's network, this machine) is refused. Plain ASCII of one strict shape (no
    backslash, user, port or space that two URL parsers could read differently), and the host
    ``requests`` (urllib3) will connect to is the host checked. ``PUSH_ANY_LOCAL_ENDPOINT`` (the
    tests) also takes an address on this machine."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_PUSH_ENDPOINT:
        return False
    try:
        connects_to = (urllib3.util.parse_url(endpoint).host or "").lower()
    except (ValueError, urllib3.exceptions.LocationParseError):
        return False
    if settings.PUSH_ANY_LOCAL_ENDPOINT and LOCAL_ENDPOINT.fullmatch(endpoint):
        return is_loopback_host(connects_to)
    shape = PUSH_ENDPOINT.fullmatch(endpoint)
    if shape is None or shape["host"].lower() != connects_to:
        return False
    host = connects_to.rstrip(".")
    return any(host == known or host.endswith("." + known) for known in settings.PUSH_SERVICE_HOSTS)


def push_error(exc: BaseException) -> str:
    """What the desk shows of a failed push: the kind and the status, never the address (it
    is the browser's secret) nor what the other side answered."""
    status = getattr(getattr(exc, "response", None), "status_code", None)
    return f"{type(exc).__name__}" + (f" (status {status})" if status else "")


def push_topic(message: OutboxMessage) -> str:
    """The message's Topic (RFC 8030, 5.4): a push service keeps one undelivered message per
    topic and subscription, so a message sent again (a retry after an answer that never came)
    or a newer one about the same thing (the next reminder of one turn) replaces the one a
    phone has not fetched yet instead of joining it. At most 32 characters of URL-safe base64,
    derived from the subject (or the message's own key): the subject itself stays private."""
    digest = hashlib.sha256((message.subject_key or message.key).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


def _deliver_push(message: OutboxMessage) -> None:
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

    subscription = message.subscription
    if subscription is None:
        raise PushGone("the browser's subscription is gone")
    if not (settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY):
        raise RuntimeError("VAPID keys are not set (manage.py vapid_keys)")
    if not endpoint_usable(subscription.endpoint):  # checked again: the settings may have changed
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        raise PushGone("the subscription's address is not a push service's")
    session = requests.Session()
    session.max_redirects = 0  # a push service answers; it never sends the post elsewhere
    session.hooks["response"].append(bounded_answer)
    try:
        webpush(
            {
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(push_payload(message), ensure_ascii=False),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},  # a new dict: webpush fills it in
            ttl=PUSH_TTL,
            headers={"Topic": push_topic(message)},
            timeout=PUSH_TIMEOUT,
            requests_session=session,
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            raise PushGone(f"the push service answered {exc.status_code}") from exc
        raise
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())


def bounded_answer(response: requests.Response, *args: object, **kwargs: object) -> None:
    """A push service's answer is a status and a few bytes: read at most ``PUSH_ANSWER_BYTES``
    (an endless or huge body must not hold the worker or fill its memory)."""
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > PUSH_ANSWER_BYTES:
        response._content = b""  # noqa: SLF001 (requests' own cache of the body)
        return
    if response.raw is not None and not getattr(response, "_content_consumed", True):
        deadline = time.monotonic() + PUSH_TIMEOUT  # a body sent a byte at a time ends here
        body = b""
        for chunk in response.raw.stream(512, decode_content=True):
            body += chunk
            if len(body) >= PUSH_ANSWER_BYTES or time.monotonic() > deadline:
                break
        response._content = body[:PUSH_ANSWER_BYTES]  # noqa: SLF001
        response._content_consumed = True  # noqa: SLF001
        response.close()


class PushChannel:
    name = OutboxMessage.Channel.PUSH
    gone: tuple[type[Exception], ...] = (PushGone,)

    def deliver(self, message: OutboxMessage) -> None:
        _deliver_push(message)

    def describe_error(self, exc: Exception) -> str:
        return push_error(exc)
