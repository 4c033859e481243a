"""The one base of every absolute link (events/common/siteurl.py): SITE_URL, never the request's
host."""

from __future__ import annotations

import pytest

from events.common.siteurl import absolute_url, base_is_loopback, site_url


def test_the_base_drops_its_trailing_slash(settings):
    settings.SITE_URL = "https://events.example.org/"
    assert site_url() == "https://events.example.org"


def test_a_path_is_joined_with_exactly_one_slash(settings):
    settings.SITE_URL = "https://events.example.org/"
    assert absolute_url("/e/lincon/") == "https://events.example.org/e/lincon/"
    assert absolute_url("e/lincon/") == "https://events.example.org/e/lincon/"


@pytest.mark.parametrize(
    ("base", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://localhost:8000/", True),
        ("http://[::1]:8000", True),
        ("http://192.168.1.20:8000", False),
        ("https://events.example.org", False),
    ],
)
def test_a_base_phones_cannot_reach_is_told(settings, base, loopback):
    settings.SITE_URL = base
    assert base_is_loopback() is loopback
