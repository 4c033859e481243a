"""The desk's register through real requests (events/desk/views/registration.py): search, a known
or a new player registered (with or without JavaScript), check-in and the other entry actions,
for the event's organisers only."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from events.models import Entry, Player
from tests.support.desk import HTMX, desk_url
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory


def test_other_organisers_cannot_check_in(client, outsider, entries):
    client.force_login(outsider)
    url = reverse("events:entry_action", args=[entries[0].pk, "check_in"])
    assert client.post(url).status_code == 403
    entries[0].refresh_from_db()
    assert entries[0].checked_in_at is None


def test_desk_actions_refuse_get(desk_client, entries, competition):
    assert (
        desk_client.get(
            reverse("events:entry_action", args=[entries[0].pk, "check_in"])
        ).status_code
        == 405
    )
    assert desk_client.get(desk_url("register_new", competition)).status_code == 405


def test_search_is_case_and_accent_insensitive_over_name_and_club(desk_client, competition):
    PlayerFactory(name="Õie Sööt", club="Tallinna Lauamänguklubi")
    PlayerFactory(name="Anna Lindqvist", club="Linköpings Spelförening")
    PlayerFactory(name="Bob", club="Other")
    url = desk_url("player_search", competition)
    assert "Õie Sööt" in desk_client.get(url, {"q": "oie SOOT"}, headers=HTMX).content.decode()
    by_club = desk_client.get(url, {"q": "linkoping"}, headers=HTMX).content.decode()
    assert "Anna Lindqvist" in by_club and "Bob" not in by_club
    nothing = desk_client.get(url, {"q": "zzz"}, headers=HTMX).content.decode()
    assert "No known player matches" in nothing


def test_search_marks_players_already_registered(desk_client, entries):
    competition = entries[0].competition
    name = entries[0].player.name
    html = desk_client.get(desk_url("player_search", competition), {"q": name}).content.decode()
    assert "registered" in html and 'name="player"' not in html


@pytest.mark.parametrize("query", ["\x00", "a\x00b", "%", "_", "'; drop table", "x" * 5000, "   "])
def test_search_survives_hostile_queries(desk_client, competition, query):
    response = desk_client.get(desk_url("player_search", competition), {"q": query}, headers=HTMX)
    assert response.status_code == (400 if "\x00" in query else 200)  # a NUL: refused early


def test_search_treats_percent_and_underscore_literally(desk_client, competition):
    PlayerFactory(name="Plain Name")
    html = desk_client.get(desk_url("player_search", competition), {"q": "%"}).content.decode()
    assert "Plain Name" not in html


def test_search_without_javascript_renders_the_desk_with_results(desk_client, competition):
    PlayerFactory(name="Õie Sööt")
    response = desk_client.get(desk_url("player_search", competition), {"q": "oie"})
    html = response.content.decode()
    assert "<html" in html and "Õie Sööt" in html and 'value="oie"' in html
    assert html.count('id="search-results"') == 1


def test_it_registers_a_known_player_with_htmx(desk_client, competition):
    player = PlayerFactory(name="Jüri Tamm")
    response = desk_client.post(
        desk_url("register_known", competition), {"player": player.pk}, headers=HTMX
    )
    html = response.content.decode()
    assert 'id="entries"' in html and "Jüri Tamm" in html
    assert Entry.objects.filter(competition=competition, player=player).exists()
    assert "playerRegistered" in json.loads(response["HX-Trigger"])


def test_it_registers_a_new_player_and_clears_the_form(desk_client, competition):
    response = desk_client.post(
        desk_url("register_new", competition),
        {"name": "Maja Åkesson", "club": "LinCon", "email": "", "rating": ""},
        headers=HTMX,
    )
    html = response.content.decode()
    assert "Maja Åkesson (LinCon) registered." in html
    assert 'value="Maja' not in html
    assert "entriesChanged" in json.loads(response["HX-Trigger"])
    assert Entry.objects.filter(competition=competition, player__name="Maja Åkesson").exists()


def test_a_duplicate_registration_shows_the_players_name(desk_client, entries):
    competition = entries[0].competition
    player = entries[0].player
    response = desk_client.post(
        desk_url("register_known", competition), {"player": player.pk}, headers=HTMX
    )
    assert f"{player} is already registered in Blokus." in response.content.decode()


@pytest.mark.parametrize("bad", ["", "abc", "999999", "1.5"])
def test_registering_an_unknown_player_is_404(desk_client, competition, bad):
    assert (
        desk_client.post(desk_url("register_known", competition), {"player": bad}).status_code
        == 404
    )


def test_a_bad_new_player_keeps_what_was_typed(desk_client, competition):
    response = desk_client.post(
        desk_url("register_new", competition),
        {"name": "Typed Name", "club": "Typed Club", "email": "not-mail", "rating": "-3"},
        headers=HTMX,
    )
    html = response.content.decode()
    assert 'value="Typed Name"' in html and 'value="Typed Club"' in html
    assert "Enter a valid email address." in html
    assert "greater than or equal to 0" in html
    assert not Player.objects.filter(name="Typed Name").exists()


def test_a_bad_new_player_without_javascript_renders_the_page_with_errors(desk_client, competition):
    response = desk_client.post(
        desk_url("register_new", competition), {"name": "  ", "rating": "x"}
    )
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_check_in_with_htmx_returns_the_table(desk_client, entries):
    url = reverse("events:entry_action", args=[entries[0].pk, "check_in"])
    html = desk_client.post(url, headers=HTMX).content.decode()
    assert "1 checked in" in html
    stale = desk_client.post(url, headers=HTMX).content.decode()
    assert "is already checked in" in stale


def test_check_in_without_javascript_redirects_back(desk_client, entries):
    url = reverse("events:entry_action", args=[entries[0].pk, "check_in"])
    response = desk_client.post(url)
    assert response["Location"] == entries[0].competition.get_desk_url()


def test_unknown_entry_actions_are_404(desk_client, entries):
    assert (
        desk_client.post(reverse("events:entry_action", args=[entries[0].pk, "delete"])).status_code
        == 404
    )
    assert (
        desk_client.post(reverse("events:entry_action", args=[99999, "check_in"])).status_code
        == 404
    )


@pytest.mark.parametrize("entry_id", ["99999999999999999999", "0"])
def test_huge_or_zero_ids_are_404(desk_client, competition, entry_id):
    url = f"/desk/entries/{entry_id}/check_in/"
    assert desk_client.post(url).status_code == 404
    assert (
        desk_client.post(desk_url("register_known", competition), {"player": entry_id}).status_code
        == 404
    )


def test_a_new_player_with_a_nul_byte_is_refused_and_nothing_is_written(desk_client, competition):
    response = desk_client.post(
        desk_url("register_new", competition), {"name": "A\x00B"}, headers=HTMX
    )
    assert response.status_code == 400
    assert "NUL" in response.content.decode() or "null" in response.content.decode().lower()
    assert not Player.objects.exists()


def test_the_desk_links_withdrawals_of_a_running_round_robin_to_its_page(desk_client, event):
    competition = CompetitionFactory(
        event=event,
        format="roundrobin",
        settings={"max_table_size": 7, "hours_per_move": 24, "rated": True, "colours": "random"},
        status="running",
    )
    entry = EntryFactory(competition=competition)
    html = desk_client.get(competition.get_desk_url()).content.decode()
    assert reverse("roundrobin:withdraw", args=[event.slug, competition.slug, entry.pk]) in html
    assert reverse("events:entry_action", args=[entry.pk, "withdraw"]) not in html
    assert "<fieldset disabled" in html


@pytest.mark.parametrize("name", ["register_known", "register_new", "competition_settings"])
def test_other_organisers_cannot_write(client, outsider, competition, name):
    client.force_login(outsider)
    response = client.post(desk_url(name, competition), {"name": "Intruder", "player": 1})
    assert response.status_code == 403
    assert not Player.objects.filter(name="Intruder").exists()
