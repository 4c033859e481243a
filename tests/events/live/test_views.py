from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import Entry, Event, Player
from tests.support import totp
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory

HTMX = {"HX-Request": "true"}


def desk_url(name, competition, **kwargs):
    return reverse(f"events:{name}", args=[competition.event.slug, competition.slug], **kwargs)


# --- public pages ---------------------------------------------------------------------------


def test_a_site_holding_the_demo_says_so_and_where_the_logins_are(
    client, db, settings, django_user_model
):
    settings.DEBUG = True
    assert "This is a demo" not in client.get(reverse("events:index")).content.decode()
    django_user_model.objects.create_user(username="organiser", password="desk-demo-2026")
    html = client.get(reverse("events:index")).content.decode()
    assert "This is a demo" in html
    assert f'<a href="{reverse("events:desk")}">' in html
    assert "<kbd>organiser</kbd>" in html and "<kbd>desk-demo-2026</kbd>" in html
    assert "<kbd>admin-demo-2026</kbd>" in html
    # In Swedish too, as every page.
    client.cookies["django_language"] = "sv"
    assert "Det här är en demo" in client.get(reverse("events:index")).content.decode()


def test_a_production_site_never_shows_the_demo_passwords(client, db, settings, django_user_model):
    """An organiser who happens to be called "organiser" on a real site: no notice, no password."""
    settings.DEBUG = False
    django_user_model.objects.create_user(username="organiser", password="something-else")
    html = client.get(reverse("events:index")).content.decode()
    assert "This is a demo" not in html and "desk-demo-2026" not in html


def test_it_lists_public_events_only(client, db):
    EventFactory(name="Open Night")
    EventFactory(name="Secret Night", is_public=False)
    html = client.get(reverse("events:index")).content.decode()
    assert "Open Night" in html
    assert "Secret Night" not in html


def test_the_event_page_shows_the_single_competitions_players_and_a_qr_code(client, entries):
    event = entries[0].competition.event
    response = client.get(event.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert all(e.player.name in html for e in entries)
    assert "<svg" in html
    assert 'hx-trigger="every 10s' in html


def test_the_event_page_lists_competitions_when_there_are_several(client, competition):
    CompetitionFactory(event=competition.event, name="Sjoelen", format="shuffleboard")
    html = client.get(competition.event.get_absolute_url()).content.decode()
    assert "Sjoelen" in html and "Blokus" in html


def test_the_event_fragment_is_a_fragment(client, entries):
    event = entries[0].competition.event
    html = client.get(event.get_absolute_url(), headers=HTMX).content.decode()
    assert "<html" not in html
    assert 'id="event-live"' in html


def test_the_competition_page_and_fragment(client, entries):
    competition = entries[0].competition
    page = client.get(competition.get_absolute_url()).content.decode()
    fragment = client.get(competition.get_absolute_url(), headers=HTMX).content.decode()
    assert "<html" in page and "<html" not in fragment
    assert entries[0].player.name in fragment


def test_withdrawn_players_are_not_shown_publicly(client, competition):
    entry = EntryFactory(competition=competition, player=PlayerFactory(name="Gone Away"))
    entry.withdrawn_at = entry.registered_at
    entry.save()
    assert "Gone Away" not in client.get(competition.get_absolute_url()).content.decode()


def test_it_answers_304_until_something_changes(client, desk_client, entries):
    competition = entries[0].competition
    url = competition.get_absolute_url()
    first = client.get(url, headers=HTMX)
    etag = first["ETag"]
    assert "HX-Request" in first["Vary"]
    again = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert again.status_code == 304
    desk_client.post(reverse("events:entry_action", args=[entries[0].pk, "check_in"]))
    changed = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_the_page_and_the_fragment_have_different_etags(client, competition):
    url = competition.get_absolute_url()
    assert client.get(url)["ETag"] != client.get(url, headers=HTMX)["ETag"]


def test_a_finished_competition_stops_polling(client, competition):
    competition.status = competition.Status.FINISHED
    competition.save()
    html = client.get(competition.get_absolute_url()).content.decode()
    assert "hx-trigger" not in html


@pytest.mark.parametrize(
    "url",
    ["/e/nope/", "/e/lincon-2026/nope/", "/desk/nope/", "/desk/lincon-2026/nope/", "/nothing/"],
)
def test_unknown_addresses_are_404(desk_client, competition, url):
    assert desk_client.get(url).status_code == 404


def test_public_pages_refuse_posts(client, competition):
    assert client.post(competition.get_absolute_url()).status_code == 405


def _players(competition, n):
    for i in range(n):
        EntryFactory(competition=competition, player=PlayerFactory(name=f"P{i}"))


@pytest.mark.parametrize("n", [3, 30])
def test_public_pages_run_a_constant_number_of_queries(
    client, competition, n, django_assert_max_num_queries
):
    _players(competition, n)
    # event page: ETag version, event, competitions+counts (prefetch), entries with players,
    # the format's panel (one query); the first visit without a browser language also reads
    # the event's language (events/language.py, then cached)
    with django_assert_max_num_queries(6):
        client.get(competition.event.get_absolute_url())
    # competition page: ETag version, competition+event, entries with players, corrections
    with django_assert_max_num_queries(4):
        client.get(competition.get_absolute_url(), headers=HTMX)
    # a 304 costs one query
    etag = client.get(competition.get_absolute_url())["ETag"]
    with django_assert_max_num_queries(1):
        client.get(competition.get_absolute_url(), headers={"If-None-Match": etag})


# --- permissions ----------------------------------------------------------------------------

DESK_GETS = ["competition_desk", "csv_import", "player_search"]


@pytest.mark.parametrize("name", DESK_GETS)
def test_anonymous_users_are_sent_to_log_in(client, competition, name):
    response = client.get(desk_url(name, competition))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize("name", DESK_GETS)
def test_other_organisers_are_refused(client, outsider, competition, name):
    client.force_login(outsider)
    assert client.get(desk_url(name, competition)).status_code == 403


@pytest.mark.parametrize("name", ["register_known", "register_new", "competition_settings"])
def test_other_organisers_cannot_write(client, outsider, competition, name):
    client.force_login(outsider)
    response = client.post(desk_url(name, competition), {"name": "Intruder", "player": 1})
    assert response.status_code == 403
    assert not Player.objects.filter(name="Intruder").exists()


def test_other_organisers_cannot_check_in(client, outsider, entries):
    client.force_login(outsider)
    url = reverse("events:entry_action", args=[entries[0].pk, "check_in"])
    assert client.post(url).status_code == 403
    entries[0].refresh_from_db()
    assert entries[0].checked_in_at is None


def test_superusers_may_use_any_desk(client, competition, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    assert client.get(competition.get_desk_url()).status_code == 200


def test_the_desk_lists_only_my_events(desk_client, competition, outsider):
    html = desk_client.get(reverse("events:desk")).content.decode()
    assert "LinCon 2026" in html
    assert outsider.organised_events.get().name not in html


def test_desk_actions_refuse_get(desk_client, entries, competition):
    assert (
        desk_client.get(
            reverse("events:entry_action", args=[entries[0].pk, "check_in"])
        ).status_code
        == 405
    )
    assert desk_client.get(desk_url("register_new", competition)).status_code == 405


# --- the desk ---------------------------------------------------------------------------------


def test_it_creates_an_event_and_goes_to_its_competition(desk_client, organiser):
    response = desk_client.post(
        reverse("events:event_create"),
        {
            "name": "Tallinn Open",
            "starts_on": "2026-06-01",
            "ends_on": "2026-06-01",
            "time_zone": "Europe/Tallinn",
            "is_public": "on",
            "competition_name": "Sjoelen",
            "competition_format": "shuffleboard",
        },
    )
    event = Event.objects.get(name="Tallinn Open")
    competition = event.competitions.get()
    assert response["Location"] == competition.get_desk_url() + "?new#settings"
    assert competition.settings["games"] == 10
    assert organiser in event.organisers.all()


def test_a_bad_event_form_keeps_what_was_typed(desk_client):
    response = desk_client.post(
        reverse("events:event_create"),
        {
            "name": "Keep Me",
            "starts_on": "2026-06-02",
            "ends_on": "2026-06-01",
            "time_zone": "Europe/Tallinn",
            "competition_name": "",
            "competition_format": "chess",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Keep Me"' in html
    assert "cannot end before it starts" in html
    assert "Select a valid choice" in html
    assert not Event.objects.filter(name="Keep Me").exists()


def test_an_event_with_one_competition_skips_the_event_level(desk_client, competition):
    response = desk_client.get(reverse("events:event_desk", args=[competition.event.slug]))
    assert response["Location"] == competition.get_desk_url()
    page = desk_client.get(reverse("events:event_desk", args=[competition.event.slug]) + "?all")
    assert page.status_code == 200


def test_it_adds_a_second_competition(desk_client, competition):
    response = desk_client.post(
        reverse("events:competition_create", args=[competition.event.slug]),
        {"name": "Round robin", "format": "roundrobin"},
    )
    assert response.status_code == 302
    assert competition.event.competitions.count() == 2


def test_the_desk_page_and_its_entries_fragment(desk_client, entries):
    competition = entries[0].competition
    page = desk_client.get(competition.get_desk_url()).content.decode()
    assert "<html" in page and entries[0].player.name in page
    fragment = desk_client.get(
        competition.get_desk_url(), headers={**HTMX, "HX-Target": "entries"}
    ).content.decode()
    assert "<html" not in fragment and 'id="entries"' in fragment


@pytest.mark.parametrize("n", [3, 30])
def test_the_desk_runs_a_constant_number_of_queries(
    desk_client, competition, n, django_assert_max_num_queries
):
    _players(competition, n)
    # session, user, competition+event, organiser check, entries with players, corrections
    with django_assert_max_num_queries(7):
        desk_client.get(competition.get_desk_url())
    with django_assert_max_num_queries(6):
        desk_client.get(desk_url("player_search", competition) + "?q=p", headers=HTMX)
    with django_assert_max_num_queries(8):  # without JavaScript: the desk plus the search
        desk_client.get(desk_url("player_search", competition) + "?q=p")
    with django_assert_max_num_queries(6):
        desk_client.get(reverse("events:desk"))


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


def test_it_registers_a_known_player_with_htmx(desk_client, competition):
    player = PlayerFactory(name="Jüri Tamm")
    response = desk_client.post(
        desk_url("register_known", competition), {"player": player.pk}, headers=HTMX
    )
    html = response.content.decode()
    assert 'id="entries"' in html and "Jüri Tamm" in html
    assert Entry.objects.filter(competition=competition, player=player).exists()
    assert "playerRegistered" in json.loads(response["HX-Trigger"])


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


def test_settings_are_saved_and_bad_ones_kept_with_errors(desk_client, competition):
    url = desk_url("competition_settings", competition)
    data = {**competition.settings, "capacity": 16, "official_bonus": "on"}
    assert desk_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert competition.settings["capacity"] == 16 and competition.settings["official_bonus"] is True
    response = desk_client.post(url, {**data, "capacity": 13})
    assert response.status_code == 400
    assert "multiple of 4" in response.content.decode()
    assert 'value="13"' in response.content.decode()


def test_csv_import_page(desk_client, competition):
    assert desk_client.get(desk_url("csv_import", competition)).status_code == 200
    upload = SimpleUploadedFile("p.csv", "name;club\nÕie Sööt;Tallinn\n".encode(), "text/csv")
    preview = desk_client.post(desk_url("csv_import", competition), {"file": upload})
    assert preview.status_code == 200  # the preview: nothing written yet
    assert not Entry.objects.exists()
    confirm = preview.context["confirm_form"]
    data = {"payload": confirm["payload"].initial, "submission": confirm["submission"].initial}
    response = desk_client.post(desk_url("csv_import_confirm", competition), data)
    assert response.status_code == 302
    assert Entry.objects.filter(competition=competition, player__name="Õie Sööt").exists()


def test_csv_import_lists_bad_rows(desk_client, competition):
    upload = SimpleUploadedFile("p.csv", b"name,club,email\nA,B,bad\n,,x@y.z\n", "text/csv")
    response = desk_client.post(desk_url("csv_import", competition), {"file": upload})
    html = response.content.decode()
    assert response.status_code == 400
    assert "No row of this file can be imported" in html
    assert [row.line for row in response.context["plan"].rows] == [2, 3]
    assert "is not an e-mail address" in html and "the name is missing" in html
    assert not Entry.objects.filter(competition=competition).exists()


def test_csv_import_without_a_file_says_so(desk_client, competition):
    response = desk_client.post(desk_url("csv_import", competition), {})
    assert "This field is required." in response.content.decode()


def test_the_login_page_the_second_factor_and_logout(client, organiser):
    assert client.get(reverse("account_login")).status_code == 200
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": "pw-for-tests-only"}
    )
    assert response["Location"] == reverse("mfa_authenticate")
    assert "_auth_user_id" not in client.session  # not before the second factor
    response = client.post(
        reverse("mfa_authenticate"), {"code": totp.code(totp.secret_of(organiser))}
    )
    # "Trust this browser" for the event day: 12 hours without the code.
    assert response["Location"] == reverse("mfa_trust")
    response = client.post(reverse("mfa_trust"), {"action": "trust"})
    assert response["Location"] == reverse("events:desk")
    assert client.session["_auth_user_id"] == str(organiser.pk)
    assert response.cookies["mfa_trusted"]["max-age"] == 12 * 3600
    assert client.post(reverse("account_logout")).status_code == 302
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": "pw-for-tests-only"}
    )
    assert response["Location"] == reverse("events:desk")  # trusted: no code asked


def test_the_language_switcher_changes_the_language(client, db):
    response = client.post(reverse("set_language"), {"language": "sv", "next": "/"})
    assert response.status_code == 302
    assert client.cookies["django_language"].value == "sv"


# --- hostile input ----------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["\x00", "a\x00b", "%", "_", "'; drop table", "x" * 5000, "   "])
def test_search_survives_hostile_queries(desk_client, competition, query):
    response = desk_client.get(desk_url("player_search", competition), {"q": query}, headers=HTMX)
    assert response.status_code == (400 if "\x00" in query else 200)  # a NUL: refused early


def test_search_treats_percent_and_underscore_literally(desk_client, competition):
    PlayerFactory(name="Plain Name")
    html = desk_client.get(desk_url("player_search", competition), {"q": "%"}).content.decode()
    assert "Plain Name" not in html


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


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\x01\x02binary",
        b"\xff\xfe\x00n\x00a",
        b'name\n"unclosed,quote\n',
        b"a;b;c;d;e;f\n" * 3,
    ],
)
def test_csv_import_survives_hostile_files(desk_client, competition, content):
    upload = SimpleUploadedFile("p.csv", content, "text/csv")
    response = desk_client.post(desk_url("csv_import", competition), {"file": upload})
    assert response.status_code in (200, 400)  # a preview, or why not
    assert not Entry.objects.filter(competition=competition).exists()


def test_an_organiser_adds_another_login(desk_client, competition, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="x")
    url = reverse("events:organiser_add", args=[competition.event.slug])
    assert desk_client.post(url, {"username": "BOB"}).status_code == 302
    assert bob in competition.event.organisers.all()
    again = desk_client.post(url, {"username": "bob"})
    assert again.status_code == 400 and "already organises" in again.content.decode()
    nobody = desk_client.post(url, {"username": "nobody"})
    assert "There is no login named “nobody”" in nobody.content.decode()
    assert 'value="nobody"' in nobody.content.decode()


def test_outsiders_cannot_add_organisers(client, outsider, competition):
    client.force_login(outsider)
    url = reverse("events:organiser_add", args=[competition.event.slug])
    assert client.post(url, {"username": "mallory"}).status_code == 403
    assert outsider not in competition.event.organisers.all()


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


def test_a_public_page_has_a_big_screen_mode(client, competition):
    html = client.get(competition.get_absolute_url(), {"screen": "big"}).content.decode()
    assert 'class="big-screen"' in html and "Normal view" in html
    assert "Big screen (projector)" in client.get(competition.get_absolute_url()).content.decode()


def test_search_without_javascript_renders_the_desk_with_results(desk_client, competition):
    PlayerFactory(name="Õie Sööt")
    response = desk_client.get(desk_url("player_search", competition), {"q": "oie"})
    html = response.content.decode()
    assert "<html" in html and "Õie Sööt" in html and 'value="oie"' in html
    assert html.count('id="search-results"') == 1
