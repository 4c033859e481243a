"""The sites form: hostile input refused with the line it refuses, never cleaned into a site."""

import pytest

from events.embed.forms import EventSitesForm, SitesForm
from events.embed.origins import MAX_SITES
from tests.support.hostile import VALUES


def test_good_sites_are_stored_as_origins():
    form = EventSitesForm({"sites": " https://Club.se/ \r\n\r\nhttps://*.klubb.se:8443"})
    assert form.is_valid(), form.errors
    assert form.values() == {
        "sites": "https://club.se\nhttps://*.klubb.se:8443",
        "with_club_sites": False,
    }


def test_nothing_listed_is_a_valid_answer():
    form = SitesForm({"sites": ""})
    assert form.is_valid() and form.cleaned_data["sites"] == ""


@pytest.mark.parametrize(
    "typed",
    [
        "https://club.se; script-src *",
        "https://club.se/standings",
        "*",
        "'self'",
        "https://*",
        "https://club.se\n<script>alert(1)</script>",
        "https://evil.example\u2028https://x.se",
        "https://club.se:99999",
    ],
)
def test_hostile_input_is_refused_beside_the_field(typed):
    form = SitesForm({"sites": typed})
    assert not form.is_valid()
    assert form.errors["sites"]


@pytest.mark.parametrize("typed", VALUES)
def test_the_usual_hostile_strings_never_pass(typed):
    form = SitesForm({"sites": typed})
    assert not form.is_valid() or all(
        line.startswith(("https://", "http://")) for line in form.cleaned_data["sites"].split()
    )


def test_too_many_sites_and_too_long_input_are_refused():
    many = "\n".join(f"https://s{n}.club.se" for n in range(MAX_SITES + 1))
    form = SitesForm({"sites": many})
    assert not form.is_valid()
    assert [e.code for e in form.errors.as_data()["sites"]] == ["many"]
    huge = SitesForm({"sites": "https://club.se\n" * 5000})
    assert not huge.is_valid()


def test_each_refused_line_is_named():
    form = SitesForm({"sites": "club.se\nhttps://ok.se\nhttps://a.se/b"})
    assert not form.is_valid()
    words = " ".join(form.errors["sites"])
    assert "club.se" in words and "https://a.se/b" in words and "https://ok.se" not in words
