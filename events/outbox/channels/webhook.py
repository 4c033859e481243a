"""The webhook channel: one post, signed as Standard Webhooks says, to an address checked
against server-side request forgery at every delivery.

- The signature: ``webhook-id`` (the message's, the same on every retry), ``webhook-timestamp``
  (seconds, this attempt), ``webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{ts}.{body}">``,
  keyed with the base64-decoded part of the ``whsec_`` secret.
- The address: http(s) only (https unless ``WEBHOOKS_ALLOW_PRIVATE``), resolved here, every
  address it resolves to checked (private, loopback, link-local, shared, multicast, reserved and
  unspecified ones refused unless ``WEBHOOKS_ALLOW_PRIVATE``), then the connection made to the
  checked address itself (the host kept for the ``Host`` header, TLS's SNI and certificate
  check): a name that answers a public address to the check and a private one to the
  connection (DNS rebinding) reaches nothing.
- No redirect followed, ``TIMEOUT`` seconds for connecting, each read and the whole answer,
  at most ``ANSWER_BYTES`` of the answer read.

Imports only models and the standard library's neighbours: ``events.outbox.queue`` hands a
message of the webhook channel here (``WebhookChannel``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import certifi
import urllib3
from django.conf import settings
from django.utils.translation import gettext_lazy

from events.outbox.models import (
    MAX_WEBHOOK_URL,
    RECEIVER_GONE,
    SECRET_PREFIX,
    OutboxMessage,
    Webhook,
)

TIMEOUT = 5.0  # seconds: connect, each read, and the whole answer
ANSWER_BYTES = 4096  # of the receiver's answer, read at most
USER_AGENT = "events-webhooks/1"
GONE = 410  # the receiver asks to stop (Standard Webhooks): the webhook is disabled

Resolver = Callable[[str, int], Sequence[str]]

BAD_URL = gettext_lazy("Give a whole web address, such as https://example.org/hooks/events.")
NEED_HTTPS = gettext_lazy("The address must start with https://.")
NO_CREDENTIALS = gettext_lazy("The address must not contain a user name or password.")
UNKNOWN_HOST = gettext_lazy("The address's host name could not be found.")
PRIVATE = gettext_lazy(
    "The address leads to a private or local network (%(address)s): the site does not post there."
)


class WebhookRefused(Exception):
    """The address is not one the site posts to (its reason is for people)."""


class WebhookFailed(Exception):
    """The receiver did not take the message (an HTTP status other than 2xx)."""


class WebhookGone(Exception):
    """The webhook no longer takes messages (deleted, disabled, or it answered 410)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written (lower case, without brackets)
    port: int
    path: str  # with the query


def allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False))


def parse_target(url: str) -> Target:
    """The parts of a webhook address; ``WebhookRefused`` for anything else."""
    if not isinstance(url, str) or not url or len(url) > MAX_WEBHOOK_URL:
        raise WebhookRefused(str(BAD_URL))
    if any(ord(c) <= 32 or ord(c) >= 127 or c == "\\" for c in url):
        raise WebhookRefused(str(BAD_URL))  # no spaces, controls, non-ASCII or backslashes
    try:
        parts = urlsplit(url)
        port = parts.port
        checked = urllib3.util.parse_url(url)
    except (ValueError, urllib3.exceptions.LocationParseError) as exc:
        raise WebhookRefused(str(BAD_URL)) from exc
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host or parts.fragment:
        raise WebhookRefused(str(BAD_URL))
    if scheme != "https" and not allow_private():
        raise WebhookRefused(str(NEED_HTTPS))
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise WebhookRefused(str(NO_CREDENTIALS))
    # Two parsers must read the same host (the one checked is the one connected to).
    if (checked.host or "").strip("[]").lower() != host:
        raise WebhookRefused(str(BAD_URL))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, host, port or (443 if scheme == "https" else 80), path)


def system_resolve(host: str, port: int) -> list[str]:
    """Every address the host name resolves to (an address literal resolves to itself)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise WebhookRefused(str(UNKNOWN_HOST)) from exc
    found: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in found:
            found.append(address)
    return found


NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries, which a relay or a translator on the way may
    connect to: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), 6to4 (2002::/16),
    Teredo (2001::/32: its server and its client) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48)."""
    found: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    packed = ip.packed
    if any(ip in network for network in NAT64) or (
        packed[:12] == bytes(12) and int.from_bytes(packed[12:], "big") > 1
    ):
        found.append(ipaddress.IPv4Address(packed[12:]))
    return found


def address_refused(address: str) -> bool:
    """Whether the site refuses to post to ``address`` (an IP address as text). An IPv6 address
    that carries an IPv4 address is refused when that one would be."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        if any(address_refused(str(v4)) for v4 in inner):
            return True
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # ::ffff:203.0.113.9 is judged as 203.0.113.9
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        return True  # never a receiver, whatever the setting
    if allow_private():
        return False
    if ip.is_private or ip.is_loopback or ip.is_link_local:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local:
        return True
    return not ip.is_global  # shared (100.64/10), documentation, benchmarking, ...


def checked_addresses(target: Target, resolve: Resolver = system_resolve) -> list[str]:
    """Resolve the host and check every address; the addresses to connect to (all allowed)."""
    addresses = list(resolve(target.host, target.port))
    if not addresses:
        raise WebhookRefused(str(UNKNOWN_HOST))
    for address in addresses:
        if address_refused(address):
            raise WebhookRefused(str(PRIVATE % {"address": address}))
    return addresses


def check_url(url: str, resolve: Resolver = system_resolve) -> Target:
    """The whole check of an address, as registration and every delivery make it."""
    target = parse_target(url)
    checked_addresses(target, resolve)
    return target


# --- the signature ------------------------------------------------------------------------------


def secret_key(secret: str) -> bytes:
    """The HMAC key of a ``whsec_<base64>`` secret."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """``v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`` (Standard Webhooks)."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def message_id(message: OutboxMessage) -> str:
    """The ``webhook-id``: the same for every attempt of one message (the receiver's dedup)."""
    return "msg_" + hashlib.sha256(message.key.encode()).hexdigest()[:32]


# --- one post ---------------------------------------------------------------------------------


def post(
    target: Target,
    address: str,
    body: bytes,
    headers: dict[str, str],
    *,
    timeout: float = TIMEOUT,
) -> tuple[int, bytes]:
    """POST ``body`` to ``address`` (checked) for ``target``'s host; (status, answer's start)."""
    host_header = target.host if ":" not in target.host else f"[{target.host}]"
    default_port = 443 if target.scheme == "https" else 80
    if target.port != default_port:
        host_header += f":{target.port}"
    limit = urllib3.Timeout(connect=timeout, read=timeout)
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            address,
            target.port,
            timeout=limit,
            retries=False,
            maxsize=1,
            cert_reqs="CERT_REQUIRED",
            ca_certs=certifi.where(),
            server_hostname=target.host,
            assert_hostname=target.host,
        )
    else:
        pool = urllib3.HTTPConnectionPool(address, target.port, timeout=limit, retries=False)
    started = time.monotonic()
    try:
        response = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers={**headers, "Host": host_header},
            redirect=False,
            retries=False,
            preload_content=False,
            assert_same_host=False,
        )
        answer = b""
        for chunk in response.stream(512, decode_content=False):
            answer += chunk
            if len(answer) >= ANSWER_BYTES or time.monotonic() - started > timeout:
                break
        response.close()
        return response.status, answer[:ANSWER_BYTES]
    finally:
        pool.close()


def deliver_webhook(
    message: OutboxMessage,
    *,
    resolve: Resolver = system_resolve,
    now: float | None = None,
    timeout: float = TIMEOUT,
) -> int:
    """Post one message of the webhook channel; its HTTP status (2xx). Raises
    ``WebhookRefused`` (the address), ``WebhookFailed`` (another status), ``WebhookGone``
    (deleted, disabled, or 410: the webhook is then disabled) or the network's error."""
    hook: Webhook | None = message.webhook
    if hook is None or not hook.active:
        raise WebhookGone("the webhook was deleted or disabled")
    target = parse_target(hook.url)
    address = checked_addresses(target, resolve)[0]
    body = message.body.encode()
    stamp = int(now if now is not None else time.time())
    ident = message_id(message)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "webhook-id": ident,
        "webhook-timestamp": str(stamp),
        "webhook-signature": signature(hook.secret, ident, stamp, body),
    }
    status, _answer = post(target, address, body, headers, timeout=timeout)
    OutboxMessage.objects.filter(pk=message.pk).update(response_status=status)
    if status == GONE:
        Webhook.objects.filter(pk=hook.pk).update(active=False, disabled_reason=RECEIVER_GONE)
        raise WebhookGone("the receiver answered 410 Gone: the webhook is disabled")
    if not 200 <= status < 300:
        kind = "a redirect, not followed" if 300 <= status < 400 else "not accepted"
        raise WebhookFailed(f"HTTP {status} ({kind})")
    return status


class WebhookChannel:
    name = OutboxMessage.Channel.WEBHOOK
    gone: tuple[type[Exception], ...] = (WebhookGone,)

    def deliver(self, message: OutboxMessage) -> None:
        deliver_webhook(message)  # signed, its address checked again

    def describe_error(self, exc: Exception) -> str:
        return f"{type(exc).__name__}: {exc}"[:500]
