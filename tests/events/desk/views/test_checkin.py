"""Check-in at speed: player numbers, register + check in in one step, the
typed check-in box, and desk counts that agree with the Blokus roll calls."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError
from django.urls import reverse

from blokus import services as blokus_services
from blokus.models import SessionPlayer
from blokus.services.sessions import session_register_and_check_in
from events import services
from events.desk.views.checkin import entry_to_check_in
from events.errors import ServiceError
from events.models import Entry
from events.selectors import entries_for_competition
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

HTMX = {"HX-Request": "true"}


def desk_url(name, competition):
    return reverse(f"events:{name}", args=[competition.event.slug, competition.slug])


@pytest.fixture
def sjoelen(event):
    return CompetitionFactory(
        event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard", settings={}
    )


def test_entries_are_numbered_in_order_of_registration_per_competition(competition, sjoelen):
    first = services.player_register_new(competition=competition, name="Ann")
    second = services.player_register_new(competition=competition, name="Bo")
    elsewhere = services.player_register(competition=sjoelen, player=second.player)
    assert (first.number, second.number, elsewhere.number) == (1, 2, 1)


def test_the_database_refuses_two_entries_with_one_number(competition):
    entry = EntryFactory(competition=competition)
    with pytest.raises(IntegrityError):
        EntryFactory(competition=competition, number=entry.number)


def test_register_and_check_in_is_one_step(desk_client, sjoelen):
    player = PlayerFactory(name="Õie Sööt")
    response = desk_client.post(
        desk_url("register_known", sjoelen), {"player": player.pk, "check_in": "1"}, headers=HTMX
    )
    html = response.content.decode()
    assert "Õie Sööt" in html and "registered and checked in" in html
    assert "1 registered, 1 checked in" in html
    assert "playerRegistered" in json.loads(response["HX-Trigger"])
    assert Entry.objects.get(competition=sjoelen, player=player).checked_in_at is not None


def test_a_new_player_is_added_registered_and_checked_in_and_the_box_stays_ticked(
    desk_client, sjoelen
):
    response = desk_client.post(
        desk_url("register_new", sjoelen), {"name": "Maja Åkesson", "check_in": "on"}, headers=HTMX
    )
    html = response.content.decode()
    assert "Maja Åkesson registered and checked in. Player number 1." in html
    assert 'name="check_in" id="id_check_in" checked' in html
    assert Entry.objects.get(player__name="Maja Åkesson").is_checked_in


def test_the_search_says_registered_after_registering(desk_client, sjoelen):
    player = PlayerFactory(name="Anna Berg")
    desk_client.post(desk_url("register_known", sjoelen), {"player": player.pk}, headers=HTMX)
    results = desk_client.get(desk_url("player_search", sjoelen), {"q": "anna"}, headers=HTMX)
    html = results.content.decode()
    assert "registered" in html and 'name="player"' not in html


def test_the_desk_lists_numbers_and_the_check_in_box(desk_client, sjoelen):
    entry = EntryFactory(competition=sjoelen, player=PlayerFactory(name="Åsa Öberg"))
    html = desk_client.get(sjoelen.get_desk_url()).content.decode()
    assert 'id="checkin-filter"' in html and "desk-checkin.js" in html
    assert f'data-number="{entry.number}"' in html and 'data-search="asa oberg test club"' in html


@pytest.mark.parametrize("typed", ["2", " 2 ", "oberg", "ÅSA Ö"])
def test_the_box_checks_in_by_number_or_by_a_name_that_names_one_player(
    desk_client, sjoelen, typed
):
    EntryFactory(competition=sjoelen, player=PlayerFactory(name="Bo Ek"))
    asa = EntryFactory(competition=sjoelen, player=PlayerFactory(name="Åsa Öberg"))
    response = desk_client.post(desk_url("check_in_typed", sjoelen), {"q": typed}, headers=HTMX)
    html = response.content.decode()
    assert "Åsa Öberg (Test Club) checked in (no. 2)." in html
    asa.refresh_from_db()
    assert asa.is_checked_in


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("99", "no_such_number"),
        ("zed", "no_match"),
        ("test club", "many_match"),
        ("", "nothing_typed"),
    ],
)
def test_the_box_says_what_it_could_not_match(desk_client, sjoelen, typed, code):
    entries = EntryFactory.create_batch(2, competition=sjoelen)
    with pytest.raises(ServiceError) as info:
        entry_to_check_in(entries_for_competition(sjoelen), typed)
    assert info.value.code == code
    response = desk_client.post(desk_url("check_in_typed", sjoelen), {"q": typed}, headers=HTMX)
    assert 'class="msg error"' in response.content.decode()
    assert not Entry.objects.filter(pk__in=[e.pk for e in entries], checked_in_at__isnull=False)


def test_the_box_works_without_javascript(desk_client, sjoelen):
    entry = EntryFactory(competition=sjoelen)
    response = desk_client.post(desk_url("check_in_typed", sjoelen), {"q": str(entry.number)})
    assert response.status_code == 302 and response.url == sjoelen.get_desk_url()
    page = desk_client.get(response.url).content.decode()
    assert "checked in (no. 1)" in page


def test_a_number_already_checked_in_is_refused_with_a_message(desk_client, sjoelen):
    entry = EntryFactory(competition=sjoelen)
    services.entry_check_in(entry=entry)
    response = desk_client.post(
        desk_url("check_in_typed", sjoelen), {"q": str(entry.number)}, headers=HTMX
    )
    assert "already checked in" in response.content.decode()


def test_the_box_is_for_the_events_organisers_only(client, outsider, sjoelen):
    client.force_login(outsider)
    assert client.post(desk_url("check_in_typed", sjoelen), {"q": "1"}).status_code == 403
    assert client.get(desk_url("check_in_typed", sjoelen)).status_code == 405  # POST only


def test_the_desk_costs_the_same_queries_for_3_or_30_players(
    desk_client, sjoelen, django_assert_max_num_queries
):
    EntryFactory.create_batch(3, competition=sjoelen)
    with django_assert_max_num_queries(20) as few:
        desk_client.get(sjoelen.get_desk_url())
    EntryFactory.create_batch(27, competition=sjoelen)
    with django_assert_max_num_queries(len(few.captured_queries)):
        desk_client.get(sjoelen.get_desk_url())


def test_the_blokus_competition_desk_counts_who_checked_in_at_the_roll_calls(
    desk_client, competition
):
    sessions = blokus_services.sessions_set_up(competition=competition, roll_calls=[None, None])
    entries = EntryFactory.create_batch(6, competition=competition)
    for index, entry in enumerate(entries):
        session_register_and_check_in(session=sessions[index % 2], entry=entry, check_in=index < 5)
    html = desk_client.get(competition.get_desk_url()).content.decode()
    assert "6 registered, 5 checked in" in html
    # An undo at the roll call is an undo on the competition desk too.
    undone = SessionPlayer.objects.get(entry=entries[0])
    blokus_services.session_undo_check_in(session_player=undone)
    html = desk_client.get(competition.get_desk_url()).content.decode()
    assert "6 registered, 4 checked in" in html
