"""The plumbing of addresses: the machine's address on the venue network, loopback checks
(pure), and the client address a request is counted under."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import given, strategies as st

from events.common.network import choose_address, client_ip, is_loopback_host, lan_address

# --- the machine's address (pure) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.4.5.6", True),
        ("localhost", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("desk.localhost", True),
        ("192.168.1.23", False),
        ("10.0.0.5", False),
        ("events.example.org", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback


ipv4 = st.ip_addresses(v=4).map(str)


@given(st.lists(st.one_of(ipv4, st.ip_addresses(v=6).map(str), st.text(max_size=5))))
def test_the_chosen_address_is_never_a_loopback_when_another_exists(candidates):
    chosen = choose_address(candidates)
    usable = []
    for c in candidates:
        try:
            address = ipaddress.ip_address(c)
        except ValueError:
            continue
        if address.version == 4 and not (
            address.is_unspecified or address.is_multicast or address.is_link_local
        ):
            usable.append(address)
    if not usable:
        assert chosen is None
    elif any(not a.is_loopback for a in usable):
        assert chosen is not None and not ipaddress.ip_address(chosen).is_loopback
    else:
        assert chosen is not None and ipaddress.ip_address(chosen).is_loopback


def test_lan_address_falls_back_to_the_host_names_then_to_loopback():
    assert lan_address(lambda: "192.168.1.23", lambda: ["10.0.0.1"]) == "192.168.1.23"
    assert lan_address(lambda: None, lambda: ["127.0.1.1", "10.0.0.7"]) == "10.0.0.7"
    assert lan_address(lambda: "127.0.0.1", lambda: ["192.168.5.5"]) == "192.168.5.5"
    assert lan_address(lambda: None, lambda: []) == "127.0.0.1"


def test_lan_address_on_this_machine_is_one_of_its_addresses():
    address = lan_address()
    ipaddress.IPv4Address(address)
    with socket.socket() as s:  # an address of this machine: it can be bound
        s.bind((address, 0))


# --- the client's address -----------------------------------------------------------------


def test_without_trusted_proxies_the_connection_is_the_client(rf, settings):
    settings.TRUSTED_PROXIES = 0
    request = rf.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert client_ip(request) == "192.0.2.1"  # a header anyone can send is not believed


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (1, "203.0.113.5", "203.0.113.5"),
        # the client wrote the leftmost entry itself: the proxy's own entry (rightmost) counts
        (1, "198.51.100.9, 203.0.113.5", "203.0.113.5"),
        (2, "198.51.100.9, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, " 203.0.113.5 ,, 10.0.0.2 ", "203.0.113.5"),
        # fewer entries than proxies: not what the proxies send, so the connection counts
        (2, "203.0.113.5", "192.0.2.1"),
        (1, "", "192.0.2.1"),
    ],
)
def test_behind_trusted_proxies_the_entry_they_vouch_for(
    rf, settings, proxies, forwarded, expected
):
    settings.TRUSTED_PROXIES = proxies
    request = rf.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_a_request_without_an_address_is_counted_under_the_empty_one(rf, settings):
    settings.TRUSTED_PROXIES = 0
    request = rf.get("/")
    del request.META["REMOTE_ADDR"]
    assert client_ip(request) == ""


def test_the_login_throttle_counts_by_this_address(settings):
    """django-axes asks the settings' dotted path; it names this function, where it lives."""
    from django.utils.module_loading import import_string

    assert import_string(settings.AXES_CLIENT_IP_CALLABLE) is client_ip
