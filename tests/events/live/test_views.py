from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support import totp
from tests.support.desk import HTMX, entered_players as _players
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory

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


def test_a_public_page_has_a_big_screen_mode(client, competition):
    html = client.get(competition.get_absolute_url(), {"screen": "big"}).content.decode()
    assert 'class="big-screen"' in html and "Normal view" in html
    assert "Big screen (projector)" in client.get(competition.get_absolute_url()).content.decode()
