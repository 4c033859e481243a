"""The desk's check-in (events/desk/views/checkin.py): player numbers, register + check in in one
step, the typed check-in box, desk counts that agree with the Blokus roll calls; and check-in by
the desk's camera: the scanned QR code (the address of a player's own page) names an entry of
this event, and checks it in through the check-in box's own view; a code of another event, or
not a player's page, is refused with a sentence."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError
from django.urls import get_resolver, reverse

from blokus import services as blokus_services
from blokus.models import SessionPlayer
from blokus.services.sessions import session_register_and_check_in
from events import services
from events.common.middleware import DESK_PERMISSIONS_POLICY, PERMISSIONS_POLICY
from events.common.siteurl import absolute_url
from events.desk.views.checkin import entry_for_code, entry_to_check_in
from events.errors import ServiceError
from events.models import Entry
from events.selectors import entries_for_competition
from events.services.events import competition_touch
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory

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


def player_page(entry):
    competition = entry.competition
    return absolute_url(
        reverse("shuffleboard:player", args=[competition.event.slug, competition.slug, entry.pk])
    )


def private_page(entry):
    return absolute_url(reverse("roundrobin:private_page", args=[entry.pk]))


def resolve(competition, code, **kwargs):
    return entry_for_code(entries_for_competition(competition), competition, code, **kwargs)


def test_a_players_own_page_names_their_entry(sjoelen):
    entry = EntryFactory(competition=sjoelen)
    EntryFactory(competition=sjoelen)
    assert resolve(sjoelen, player_page(entry)) == entry
    assert resolve(sjoelen, "  " + private_page(entry) + "\n") == entry


def test_a_code_of_another_competition_of_the_event_names_the_same_players_entry_here(
    sjoelen, competition
):
    player = PlayerFactory(name="Õie Sööt")
    here = EntryFactory(competition=competition, player=player)
    there = EntryFactory(competition=sjoelen, player=player)
    assert resolve(competition, player_page(there)) == here


def test_a_player_not_in_this_competition_is_refused_by_name(sjoelen, competition):
    there = EntryFactory(competition=sjoelen, player=PlayerFactory(name="Zed"))
    with pytest.raises(ServiceError) as refused:
        resolve(competition, player_page(there))
    assert refused.value.code == "not_in_competition"
    assert "Zed (Test Club) is not registered in “Blokus”." in refused.value.messages


def test_a_code_of_another_event_is_refused(sjoelen):
    other = CompetitionFactory(
        event=EventFactory(slug="elsewhere"), slug="sjoelen", format="shuffleboard", settings={}
    )
    stranger = EntryFactory(competition=other)
    with pytest.raises(ServiceError) as refused:
        resolve(sjoelen, player_page(stranger))
    assert refused.value.code == "other_event"
    assert "belongs to another event, not to “LinCon 2026”" in refused.value.messages[0]


@pytest.mark.parametrize(
    "code",
    [
        "hello",
        "12",
        "https://evil.example.org/p/player/1/",
        "javascript:alert(1)",
        absolute_url("/e/lincon-2026/"),
        absolute_url("/p/player/999999/"),
    ],
)
def test_what_is_not_a_players_page_of_this_site_is_refused(sjoelen, code):
    EntryFactory(competition=sjoelen)
    with pytest.raises(ServiceError) as refused:
        resolve(sjoelen, code)
    assert refused.value.code == "not_a_player_code"


def test_a_page_address_with_the_wrong_event_in_it_is_refused(sjoelen):
    entry = EntryFactory(competition=sjoelen)
    forged = absolute_url(reverse("shuffleboard:player", args=["elsewhere", "sjoelen", entry.pk]))
    with pytest.raises(ServiceError):
        resolve(sjoelen, forged)


def test_the_desks_own_host_is_accepted_too(sjoelen):
    entry = EntryFactory(competition=sjoelen)
    path = reverse("roundrobin:private_page", args=[entry.pk])
    assert (
        resolve(sjoelen, f"http://192.168.1.20:8000{path}", hosts=("192.168.1.20:8000",)) == entry
    )


def test_a_scanned_code_checks_in_through_the_check_in_box(desk_client, sjoelen):
    entry = EntryFactory(competition=sjoelen, player=PlayerFactory(name="Ann"))
    url = reverse("events:check_in_typed", args=[sjoelen.event.slug, sjoelen.slug])
    response = desk_client.post(url, {"q": "", "code": player_page(entry)}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ann" in html and f"checked in (no. {entry.number})." in html
    entry.refresh_from_db()
    assert entry.checked_in_at is not None


def test_a_scanned_code_of_another_event_is_refused_on_the_desk(desk_client, sjoelen):
    other = CompetitionFactory(
        event=EventFactory(slug="elsewhere"), slug="sjoelen", format="shuffleboard", settings={}
    )
    stranger = EntryFactory(competition=other)
    url = reverse("events:check_in_typed", args=[sjoelen.event.slug, sjoelen.slug])
    response = desk_client.post(url, {"q": "", "code": player_page(stranger)}, headers=HTMX)
    html = response.content.decode()
    assert 'role="alert"' in html and "belongs to another event" in html
    stranger.refresh_from_db()
    assert stranger.checked_in_at is None


def test_the_camera_is_allowed_on_desk_pages_only(desk_client, sjoelen):
    assert "camera=(self)" in DESK_PERMISSIONS_POLICY and "camera=()" in PERMISSIONS_POLICY
    desk = desk_client.get(sjoelen.get_desk_url())
    assert "camera=(self)" in desk["Permissions-Policy"]
    assert "microphone=()" in desk["Permissions-Policy"]
    assert "data-scan " in desk.content.decode()
    public = desk_client.get(sjoelen.get_absolute_url())
    assert "camera=()" in public["Permissions-Policy"]


def player_page_names() -> set[str]:
    from tests.support.routes import routes

    return {name for name, _route in routes(get_resolver().url_patterns)}


def test_every_formats_player_page_shows_the_check_in_code_the_desk_reads(demo, client):
    """Each format's player page carries a QR code of its own address; that address is what
    the desk's scanner posts, and it names that player's entry. At sjoelen and Blokus only
    until the player is checked in: then the page leads with their next board or table."""
    _, competitions = demo
    # The formats with a public player page (named "player"; not part of the contract).
    with_page = [c for c in competitions if f"{c.format}:player" in player_page_names()]
    assert with_page
    for competition in with_page:
        entry = competition.entries.order_by("pk").first()
        assert entry is not None
        if entry.checked_in_at is not None and competition.format in ("shuffleboard", "blokus"):
            checked_in = reverse(
                f"{competition.format}:player",
                args=[competition.event.slug, competition.slug, entry.pk],
            )
            assert "check-in-code" not in client.get(checked_in).content.decode()
            entry.checked_in_at = None  # as if not yet: the demo is running, no undo there
            entry.save(update_fields=["checked_in_at"])
            competition_touch(competition)  # a new version: the page is drawn anew
        path = reverse(
            f"{competition.format}:player",
            args=[competition.event.slug, competition.slug, entry.pk],
        )
        page = client.get(path)
        assert page.status_code == 200, path
        body = page.content.decode()
        assert 'class="qr check-in-code' in body and "<svg" in body, path
        entries = list(entries_for_competition(competition))
        assert entry_for_code(entries, competition, absolute_url(path)).pk == entry.pk
