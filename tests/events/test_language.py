"""Which language a visitor reads, and the language of a player's e-mails.

Order: the switcher's cookie > the browser's Accept-Language (when one of ours) > the event's
language on its public pages (the player's, then the event's, on a private page) > English.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import language
from events.exchange import csv_rules, players as imports
from events.exchange.document import export_event, import_event
from events.formats import (
    all_formats,
)
from events.models import Event, Player
from events.outbox import queue as outbox
from events.services import editing
from roundrobin import services as rr_services
from roundrobin.models import PlayerToken
from tests.support.factories import EntryFactory, PlayerFactory
from tests.support.roundrobin import START, enter_players, make_competition, started_duel

HTML_LANG = re.compile(r'<html lang="([^"]*)"')
COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A cache of this test's own: no language cached by another test."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-language-{secrets.token_hex(4)}",
        }
    }
    yield
    cache.clear()


def page_lang(response) -> str:
    assert response.status_code == 200, response.status_code
    match = HTML_LANG.search(response.content.decode())
    assert match, "no <html lang>"
    return match.group(1)


def set_language(event: Event, code: str) -> None:
    event.language = code
    event.save()


# --- who decides -----------------------------------------------------------------------------


def test_the_browser_asking_for_swedish_gets_swedish(client, competition):
    response = client.get(competition.get_absolute_url(), headers={"Accept-Language": "sv-SE"})
    assert page_lang(response) == "sv"
    assert response["Content-Language"] == "sv"
    vary = {v.strip().lower() for v in response["Vary"].split(",")}
    assert {"accept-language", "cookie"} <= vary


def test_without_a_language_of_ours_the_event_decides_and_the_index_stays_english(
    client, event, competition
):
    set_language(event, "et")
    assert page_lang(client.get(event.get_absolute_url())) == "et"
    assert page_lang(client.get(competition.get_absolute_url())) == "et"
    # a browser asking for languages the site has not: the event's too
    german = {"Accept-Language": "de-DE, de;q=0.9, fr;q=0.5"}
    assert page_lang(client.get(event.get_absolute_url(), headers=german)) == "et"
    # pages of no event: the site's default
    assert page_lang(client.get(reverse("events:index"))) == "en"
    assert page_lang(client.get(reverse("events:index"), headers=german)) == "en"


def test_the_browser_wins_over_the_event(client, event, competition):
    set_language(event, "et")
    response = client.get(competition.get_absolute_url(), headers={"Accept-Language": "nl"})
    assert page_lang(response) == "nl"


def test_the_cookie_wins_over_browser_and_event(client, event, competition):
    set_language(event, "et")
    client.cookies[COOKIE] = "nl"
    headers = {"Accept-Language": "sv"}
    assert page_lang(client.get(competition.get_absolute_url(), headers=headers)) == "nl"
    assert page_lang(client.get(reverse("events:index"), headers=headers)) == "nl"


def test_a_cookie_naming_no_language_of_ours_is_ignored(client, event, competition):
    set_language(event, "et")
    client.cookies[COOKIE] = "de"
    assert page_lang(client.get(competition.get_absolute_url())) == "et"


def test_the_switcher_remembers_the_choice_for_an_anonymous_visitor(client, event, competition):
    set_language(event, "et")
    response = client.post(reverse("set_language"), {"language": "sv", "next": "/"})
    assert response.status_code == 302
    morsel = response.cookies[COOKIE]
    assert morsel.value == "sv"
    assert int(morsel["max-age"]) >= 300 * 24 * 3600  # kept past the browser session
    assert morsel["samesite"] == "Lax"
    english = {"Accept-Language": "en"}
    for url in (reverse("events:index"), event.get_absolute_url(), competition.get_absolute_url()):
        assert page_lang(client.get(url, headers=english)) == "sv"


def test_the_desk_follows_the_organiser_not_the_event(desk_client, event, competition):
    set_language(event, "et")
    assert page_lang(desk_client.get(competition.get_desk_url())) == "en"
    response = desk_client.get(competition.get_desk_url(), headers={"Accept-Language": "nl"})
    assert page_lang(response) == "nl"


# --- private pages: the player's language, then the event's -------------------------------------


@pytest.fixture
def duel(event):
    return started_duel(event)


def open_private_link(client, entry):
    """The private link (a 303 to the page, with the player's cookie), then the page."""
    token = PlayerToken.objects.get(entry=entry).token
    link = client.get(reverse("roundrobin:private", args=[token]))
    assert link.status_code == 303
    assert link["Location"] == reverse("roundrobin:private_page", args=[entry.pk])
    return client.get(link["Location"])


def test_a_private_page_is_in_the_players_language_else_the_events(client, event, duel):
    _competition, _game, white, black = duel
    set_language(event, "et")
    Player.objects.filter(pk=white.player_id).update(language="nl")
    assert page_lang(open_private_link(client, white)) == "nl"
    assert page_lang(open_private_link(client, black)) == "et"
    # the visitor's own choice still wins
    client.cookies[COOKIE] = "sv"
    assert page_lang(open_private_link(client, white)) == "sv"


# --- live pages cached per language -----------------------------------------------------------


def test_a_page_cached_in_swedish_is_not_served_to_an_english_visitor(
    client, settings, competition, entries
):
    settings.LIVE_VERSIONS_IN_CACHE = True
    url = competition.get_absolute_url()
    swedish = client.get(url, headers={"Accept-Language": "sv"})
    english = client.get(url, headers={"Accept-Language": "en"})
    assert (page_lang(swedish), page_lang(english)) == ("sv", "en")
    assert swedish["ETag"] != english["ETag"]
    # the Swedish ETag does not make an English visitor's page "not modified"
    again = client.get(url, headers={"Accept-Language": "en", "If-None-Match": swedish["ETag"]})
    assert page_lang(again) == "en"
    same = client.get(url, headers={"Accept-Language": "sv", "If-None-Match": swedish["ETag"]})
    assert same.status_code == 304


def test_the_event_language_is_read_with_at_most_one_query(client, event, competition, entries):
    """The middleware's cost: one query the first time, none once the language is cached."""
    set_language(event, "et")
    url = competition.get_absolute_url()
    headers = {"HX-Request": "true"}

    def queries(**extra: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url, headers={**headers, **extra})
        assert response.status_code == 200
        return len(captured)

    queries(**{"Accept-Language": "et"})  # warm whatever the page itself caches
    with_browser = queries(**{"Accept-Language": "et"})
    cache.delete(language._event_key(event.slug))
    cold = queries()
    warm = queries()
    assert cold - with_browser <= 1
    assert warm == with_browser


def test_an_edited_language_is_seen_at_once(client, desk_client, event, competition):
    assert page_lang(client.get(competition.get_absolute_url())) == "en"  # now cached
    form = desk_client.get(reverse("events:event_edit", args=[event.slug])).context["form"]
    data = {name: form.initial.get(name) for name in editing.EVENT_FIELDS}
    data["starts_on"], data["ends_on"] = event.starts_on.isoformat(), event.ends_on.isoformat()
    data["is_public"] = "on"
    response = desk_client.post(
        reverse("events:event_edit", args=[event.slug]),
        {**data, "signature": form.initial["signature"], "language": "sv"},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.language == "sv"
    assert page_lang(client.get(competition.get_absolute_url())) == "sv"


# --- the desk's forms ---------------------------------------------------------------------------


def test_a_new_event_takes_the_organisers_language_unless_chosen(desk_client):
    desk_client.cookies[COOKIE] = "et"
    form = desk_client.get(reverse("events:event_create")).context["form"]
    assert form["language"].value() == "et"
    data = {
        "name": "Sjoelen Tartu",
        "starts_on": "2026-05-01",
        "ends_on": "2026-05-01",
        "time_zone": "Europe/Tallinn",
        "is_public": "on",
        "competition_name": "Sjoelen",
        "competition_format": "shuffleboard",
    }
    assert desk_client.post(reverse("events:event_create"), data).status_code == 302
    assert Event.objects.get(name="Sjoelen Tartu").language == "et"  # not posted: the desk's
    posted = {**data, "name": "Blokus Linköping", "language": "sv"}
    assert desk_client.post(reverse("events:event_create"), posted).status_code == 302
    assert Event.objects.get(name="Blokus Linköping").language == "sv"


def test_existing_events_and_players_default_to_english_and_the_events_language(db):
    assert Event._meta.get_field("language").default == "en"
    assert PlayerFactory().language == ""


def test_the_desk_sets_a_players_preferred_language(desk_client, event, competition):
    player = PlayerFactory(name="Mari Tamm")
    EntryFactory(competition=competition, player=player)
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    form = desk_client.get(url).context["form"]
    assert form.fields["language"].choices[0][0] == ""  # "the event's language"
    data = {
        "signature": editing.signature(player, editing.PLAYER_FIELDS),
        "name": player.name,
        "club": player.club,
        "email": player.email,
        "rating": player.rating,
        "language": "et",
    }
    assert desk_client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert player.language == "et"
    refused = desk_client.post(
        url,
        {**data, "signature": editing.signature(player, editing.PLAYER_FIELDS), "language": "de"},
    )
    assert refused.status_code in (200, 400)
    player.refresh_from_db()
    assert player.language == "et"


def test_a_new_player_at_the_desk_gets_a_preferred_language(desk_client, competition):
    url = reverse("events:register_new", args=[competition.event.slug, competition.slug])
    response = desk_client.post(url, {"name": "Jan de Vries", "language": "nl"})
    assert response.status_code == 302
    assert Player.objects.get(name="Jan de Vries").language == "nl"
    desk_client.post(url, {"name": "Anna Berg"})
    assert Player.objects.get(name="Anna Berg").language == ""


# --- the CSV column -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "cells", "expected"),
    [
        (
            "language",
            ["en", "SV", "sv-SE", "Estonian", "Nederlands", ""],
            ["en", "sv", "sv", "et", "nl", ""],
        ),
        ("Språk", ["svenska", "engelska", "nederländska", "tyska"], ["sv", "en", "nl", None]),
        ("Keel", ["eesti", "eesti keel", "inglise", "rootsi"], ["et", "et", "en", "sv"]),
        ("Taal", ["Nederlands", "Engels", "Zweeds", "Ests"], ["nl", "en", "sv", "et"]),
    ],
)
def test_the_csv_language_column_is_read_by_code_or_name(header, cells, expected):
    data = f"Name;{header}\n" + "".join(f"P{i};{cell}\n" for i, cell in enumerate(cells))
    sheet = csv_rules.read_sheet(data.encode(), max_rating=4000)
    assert ("language", header) in sheet.columns
    for row, want in zip(sheet.rows, expected, strict=True):
        if want is None:
            assert [r.code for r in row.reasons] == ["bad_language"]
        else:
            assert (row.language, row.reasons) == (want, ())


def test_a_file_without_a_language_column_gives_none():
    sheet = csv_rules.read_sheet(b"Anna Berg,Uppsala,anna@example.org,1600\n", max_rating=4000)
    assert sheet.rows[0].language == ""


def test_the_import_sets_new_players_languages_and_fills_known_ones(competition, organiser):
    known = PlayerFactory(name="Kalle Ek", club="")
    kept = PlayerFactory(name="Lena Ek", club="", language="nl")
    data = "Namn;Språk\nKalle Ek;svenska\nLena Ek;eesti\nTiit Kask;et\nNo Language;\nBad;klingon\n"
    plan = imports.import_plan(competition=competition, data=data.encode(), by=organiser)
    refused = [row for row in plan.rows if row.action == imports.Action.REFUSED]
    assert [row.name for row in refused] == ["Bad"]
    assert "klingon" in refused[0].reason
    imports.import_confirm(competition=competition, data=data.encode(), by=organiser)
    languages = dict(Player.objects.values_list("name", "language"))
    assert languages["Tiit Kask"] == "et"
    assert languages["No Language"] == ""
    assert languages[known.name] == "sv"  # was empty: filled
    assert languages[kept.name] == "nl"  # had one: kept


# --- export and import of the whole event ----------------------------------------------------


def test_the_event_file_keeps_the_languages_and_old_files_still_import(event, competition):
    set_language(event, "et")
    player = PlayerFactory(name="Õie Sööt", language="nl")
    EntryFactory(competition=competition, player=player)
    document = export_event(event)
    assert document["event"]["language"] == "et"
    assert document["tables"]["events.player"][0]["language"] == "nl"
    import_event(document, slug="copy")
    assert Event.objects.get(slug="copy").language == "et"
    # a file written before events had a language (no key): the default
    old = {**document, "event": {k: v for k, v in document["event"].items() if k != "language"}}
    import_event(old, slug="old-copy")
    assert Event.objects.get(slug="old-copy").language == "en"


# --- e-mails in the player's language ---------------------------------------------------------


def test_a_reminder_is_in_the_players_language_else_the_events(event, duel):
    competition, _game, white, black = duel
    set_language(event, "sv")
    Player.objects.filter(pk=white.player_id).update(email="w@example.org", language="et")
    Player.objects.filter(pk=black.player_id).update(email="b@example.org")
    assert rr_services.reminders_send(now=START + dt.timedelta(hours=19)) == 2
    outbox.drain(now=START + dt.timedelta(hours=19))
    by_address = {message.to[0]: message for message in mail.outbox}
    assert by_address["w@example.org"].extra_headers["Content-Language"] == "et"
    assert by_address["b@example.org"].extra_headers["Content-Language"] == "sv"
    assert by_address["w@example.org"].message()["Content-Language"] == "et"


def test_the_private_link_mail_is_rendered_in_the_players_language(
    event, settings, tmp_path, django_capture_on_commit_callbacks
):
    """The e-mail's templates see the player's language active (a Django-translated word
    proves it: the catalogues of our own strings are the translators' work)."""
    folder = tmp_path / "roundrobin" / "email"
    folder.mkdir(parents=True)
    (folder / "private_link_subject.txt").write_text(
        '{% load i18n %}{% get_current_language as L %}{{ L }} {% translate "Monday" %}'
    )
    (folder / "private_link_body.txt").write_text("{{ url }}")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}
    ]
    set_language(event, "sv")
    competition = make_competition(event, slug="mail")
    a, b = enter_players(competition, 2)
    Player.objects.filter(pk=a.player_id).update(email="a@example.org", language="et")
    Player.objects.filter(pk=b.player_id).update(email="b@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        rr_services.competition_start(competition=competition, now=START)
    subjects = {message.to[0]: message.subject for message in mail.outbox}
    assert subjects == {"a@example.org": "et esmaspäev", "b@example.org": "sv måndag"}
    assert all(settings.SITE_URL in message.body for message in mail.outbox)


def test_a_player_page_is_read_from_the_registry():
    """The language middleware's player pages are the registered formats' ``player_pages``."""
    declared = {
        view_name: (keyword, lookup)
        for game_format in all_formats()
        for view_name, keyword, lookup in game_format.player_pages
    }
    assert declared  # at least one installed format has a player's page
    assert language.player_pages() == declared
