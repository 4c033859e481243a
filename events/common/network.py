"""The machine's address on the venue network, loopback checks, and a request's client
address (the standard library and Django's settings only).

``make run HOST=0.0.0.0`` prints the address phones should open: the IPv4 address of the
interface that would carry traffic out of the machine. Found without sending anything: a UDP
socket "connected" to an unroutable address only asks the kernel for a route
(``getsockname()`` then names the outward interface), with the host name's addresses as a
fallback. A loopback address is chosen only when there is nothing else.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
# Any address works: connect() on a UDP socket sends no packet, it only picks a route.
PROBE = ("10.255.255.255", 1)


def is_loopback_host(host: str) -> bool:
    """127.0.0.0/8, ::1, ``localhost``; also 0.0.0.0 (no phone can open that either)."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def url_host(url: str) -> str:
    """The host of an absolute address (``http://192.168.1.20:8000/`` -> ``192.168.1.20``)."""
    return urlsplit(url).hostname or ""


def choose_address(candidates: Iterable[str]) -> str | None:
    """The first usable IPv4 address: a non-loopback one if any, else a loopback one, else None."""
    usable: list[ipaddress.IPv4Address] = []
    for candidate in candidates:
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        if isinstance(address, ipaddress.IPv4Address) and not (
            address.is_unspecified or address.is_multicast or address.is_link_local
        ):
            usable.append(address)
    for address in usable:
        if not address.is_loopback:
            return str(address)
    return str(usable[0]) if usable else None


def outward_address() -> str | None:
    """The source address the kernel would use for traffic leaving the machine (no packet sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            return str(probe.getsockname()[0])
    except OSError:  # no route at all (no network): fall back to the host name's addresses
        return None


def hostname_addresses() -> list[str]:
    names = {socket.gethostname(), socket.getfqdn()}
    found: list[str] = []
    for name in names:
        try:
            found.extend(socket.gethostbyname_ex(name)[2])
        except OSError:
            continue
    return found


def lan_address(
    outward: Callable[[], str | None] = outward_address,
    by_name: Callable[[], list[str]] = hostname_addresses,
) -> str:
    """The address phones on the same network should open; 127.0.0.1 only if there is no other."""
    first = outward()
    chosen = choose_address([first] if first else [])
    if chosen and not is_loopback_host(chosen):
        return chosen
    return choose_address(by_name()) or "127.0.0.1"


def client_ip(request: HttpRequest) -> str:
    """The client's address for login throttling and the per-address limits: the connection's,
    or behind ``TRUSTED_PROXIES`` proxies the X-Forwarded-For entry they vouch for (counted from
    the right, so a client cannot choose its own address by sending the header)."""
    proxies = getattr(settings, "TRUSTED_PROXIES", 0)
    remote = request.META.get("REMOTE_ADDR", "") or ""
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < proxies:
        return remote
    return forwarded[-proxies]
