"""Desk edits (event details, competition names, players, removing a mistaken registration),
the owner's People page, and the rule for entering strangers into a rated competition."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from events import services
from events.errors import Conflict, Refused, Stale
from events.exchange import players as imports
from events.models import Entry, Event, EventRole, Player
from events.services import editing, organisers
from roundrobin.format import RoundRobinSettings
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    SeatFactory,
    UserFactory,
)

HTMX = {"HX-Request": "true"}


def event_form(event: Event, **changes) -> dict:
    data = {
        "signature": editing.signature(event, editing.EVENT_FIELDS),
        "name": event.name,
        "venue": event.venue,
        "info": event.info,
        "starts_on": event.starts_on.isoformat(),
        "ends_on": event.ends_on.isoformat(),
        "time_zone": event.time_zone,
        "is_public": "on" if event.is_public else "",
    }
    return {**data, **changes}


def player_form(player: Player, **changes) -> dict:
    data = {
        "signature": editing.signature(player, editing.PLAYER_FIELDS),
        "name": player.name,
        "club": player.club,
        "email": player.email,
        "rating": player.rating,
    }
    if "language" in editing.PLAYER_FIELDS:
        data["language"] = player.language
    return {**data, **changes}


@pytest.fixture
def scorekeeper(event, django_user_model):
    user = django_user_model.objects.create(username="sam")
    event.organisers.add(user, through_defaults={"role": EventRole.Role.SCOREKEEPER})
    return user


# --- event details -------------------------------------------------------------------------------


def test_it_edits_the_event_and_shows_who_changed_what(desk_client, event, competition):
    url = reverse("events:event_edit", args=[event.slug])
    versions = (event.version, competition.version)
    response = desk_client.post(url, event_form(event, name="LinCon 2026 (Linköping)"))
    assert response.status_code == 302
    event.refresh_from_db()
    competition.refresh_from_db()
    assert event.name == "LinCon 2026 (Linköping)"
    assert event.version > versions[0] and competition.version > versions[1]
    html = desk_client.get(url).content.decode()
    assert "alice" in html and "LinCon 2026 → LinCon 2026 (Linköping)" in html


def test_an_event_without_history_rows_still_opens_its_edit_page(desk_client, event):
    # A raw SQL fix or an old backup can leave a row without history: the page still opens.
    event.history.all().delete()
    response = desk_client.get(reverse("events:event_edit", args=[event.slug]))
    assert response.status_code == 200
    assert event.name in response.content.decode()


def test_a_stale_event_edit_is_refused_and_keeps_what_was_typed(desk_client, event):
    url = reverse("events:event_edit", args=[event.slug])
    first = event_form(event, venue="Room P42")
    second = event_form(event, venue="Room B1")  # drawn from the same page
    assert desk_client.post(url, first).status_code == 302
    response = desk_client.post(url, second)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone else changed this" in html
    assert 'value="Room P42"' in html and "Room B1" in html  # stored in the form, typed beside
    event.refresh_from_db()
    assert event.venue == "Room P42"


def test_a_bad_event_edit_keeps_the_values_and_says_why(desk_client, event):
    url = reverse("events:event_edit", args=[event.slug])
    response = desk_client.post(url, event_form(event, name="Renamed", ends_on="2026-05-01"))
    assert response.status_code == 400
    html = response.content.decode()
    assert "An event cannot end before it starts." in html and 'value="Renamed"' in html
    assert Event.objects.get(pk=event.pk).name == "LinCon 2026"


def test_the_service_refuses_a_stale_signature(event):
    with pytest.raises(Stale):
        editing.event_edit(event=event, expected="not-it", values={"name": "X"})


# --- competition names -------------------------------------------------------------------------


def test_it_renames_a_competition_and_refuses_a_stale_rename(desk_client, competition):
    url = reverse("events:competition_edit", args=[competition.event.slug, competition.slug])
    signature = editing.signature(competition, editing.COMPETITION_FIELDS)
    response = desk_client.post(url, {"signature": signature, "name": "Blokus Open"})
    assert response.status_code == 302
    stale = desk_client.post(url, {"signature": signature, "name": "Blokus Cup"})
    assert stale.status_code == 409
    competition.refresh_from_db()
    assert competition.name == "Blokus Open" and competition.slug == "blokus"
    assert "Blokus → Blokus Open" in desk_client.get(url).content.decode()


# --- players -----------------------------------------------------------------------------------


def test_it_edits_a_player_of_the_event(desk_client, event, entries):
    player = entries[0].player
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    data = player_form(player, name="Õie Sööt", club="Tartu", email="oie@example.org", rating=1710)
    assert desk_client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert (player.name, player.club, player.email, player.rating) == (
        "Õie Sööt",
        "Tartu",
        "oie@example.org",
        1710,
    )
    assert player.person_key == "oie soot|tartu"
    html = desk_client.get(url).content.decode()
    assert "Tartu" in html and "alice" in html


def test_a_name_and_club_another_player_has_is_a_form_error(desk_client, event, entries):
    PlayerFactory(name="Anna Berg", club="Uppsala")
    player = entries[0].player
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    response = desk_client.post(url, player_form(player, name="anna  BERG", club="uppsala"))
    assert response.status_code == 400
    assert "already has this name and club" in response.content.decode()
    assert Player.objects.get(pk=player.pk).name == player.name


def test_a_bad_email_keeps_what_was_typed(desk_client, event, entries):
    player = entries[0].player
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    response = desk_client.post(url, player_form(player, name="Typed", email="Tartu"))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="Typed"' in html and 'value="Tartu"' in html


def test_a_rating_from_rated_games_stays(desk_client, event, entries):
    player = entries[0].player
    Player.objects.filter(pk=player.pk).update(rated_games=3)
    player.refresh_from_db()
    with pytest.raises(Refused) as refused:
        editing.player_edit(
            event=event,
            player=player,
            expected=editing.signature(player, editing.PLAYER_FIELDS),
            values={"rating": 2100},
        )
    assert refused.value.code == "rating_from_games"
    # On the page the field is disabled: a posted rating is ignored, the rest saved.
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    assert "disabled" in desk_client.get(url).content.decode()
    assert desk_client.post(url, player_form(player, rating=2100, club="Lund")).status_code == 302
    player.refresh_from_db()
    assert (player.rating, player.club) == (1500, "Lund")


def test_players_of_other_events_are_not_editable_here(desk_client, event, entries):
    stranger = EntryFactory().player  # entered in another organiser's event only
    url = reverse("events:player_edit", args=[event.slug, stranger.pk])
    assert desk_client.get(url).status_code == 404


@pytest.mark.parametrize("who", ["outsider", "scorekeeper"])
def test_only_organisers_edit(client, event, entries, who, request):
    client.force_login(request.getfixturevalue(who))
    player = entries[0].player
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, player_form(player, name="Hacked")).status_code == 403
    assert Player.objects.get(pk=player.pk).name != "Hacked"


def test_the_player_page_costs_the_same_with_a_long_history(
    desk_client, event, entries, django_assert_max_num_queries
):
    player = entries[0].player
    url = reverse("events:player_edit", args=[event.slug, player.pk])
    for n in range(30):
        p = Player.objects.get(pk=player.pk)
        p.club = f"Club {n}"
        p.save()
    # session, user, event, role, player, entries, history (+ the messages/savepoint noise)
    with django_assert_max_num_queries(10):
        response = desk_client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count("<time") == editing.HISTORY_LENGTH


# --- removing a registration -------------------------------------------------------------------


def test_a_mistaken_registration_is_removed_before_play(desk_client, event, competition, entries):
    entry = entries[0]
    response = desk_client.post(reverse("events:entry_remove", args=[entry.pk]), headers=HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == competition.get_desk_url()
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert Player.objects.filter(pk=entry.player_id).exists()  # the register keeps them


def test_a_registration_with_a_seat_stays(desk_client, competition):
    seat = SeatFactory(game__round__session__competition=competition)
    response = desk_client.post(reverse("events:entry_remove", args=[seat.entry_id]), follow=True)
    assert "already has a seat or a result" in response.content.decode()
    assert Entry.objects.filter(pk=seat.entry_id).exists()
    with pytest.raises(Refused) as refused:
        editing.entry_remove(entry=seat.entry)
    assert refused.value.code == "has_played"


def test_a_scorekeeper_cannot_remove_a_registration(client, scorekeeper, entries):
    client.force_login(scorekeeper)
    assert client.post(reverse("events:entry_remove", args=[entries[0].pk])).status_code == 403
    assert Entry.objects.filter(pk=entries[0].pk).exists()


# --- people ------------------------------------------------------------------------------------


def test_the_owner_adds_changes_and_removes_people(desk_client, event, django_user_model):
    sam = django_user_model.objects.create(username="sam")
    url = reverse("events:people", args=[event.slug])
    assert desk_client.post(url, {"username": "SAM", "role": "scorekeeper"}).status_code == 302
    assert event.role_of(sam) == EventRole.Role.SCOREKEEPER
    assert desk_client.post(url, {"username": "sam", "role": "organiser"}).status_code == 302
    assert event.role_of(sam) == EventRole.Role.ORGANISER
    again = desk_client.post(url, {"username": "sam", "role": "organiser"})
    assert again.status_code == 400 and "already organiser" in again.content.decode()
    nobody = desk_client.post(url, {"username": "nobody", "role": "organiser"})
    assert nobody.status_code == 400 and "no login named “nobody”" in nobody.content.decode()
    remove = reverse("events:person_remove", args=[event.slug, sam.pk])
    assert desk_client.post(remove).status_code == 302
    assert event.role_of(sam) is None
    assert "sam" in str(EventRole.history.filter(event=event).values_list("user__username"))


def test_an_event_keeps_its_last_owner(desk_client, event, organiser):
    with pytest.raises(Refused) as refused:
        organisers.event_role_set(event=event, username="alice", role="scorekeeper")
    assert refused.value.code == "last_owner"
    remove = reverse("events:person_remove", args=[event.slug, organiser.pk])
    response = desk_client.post(remove, follow=True)
    assert "the only owner" in response.content.decode()
    assert event.role_of(organiser) == EventRole.Role.OWNER


def test_an_organiser_who_is_not_owner_cannot_manage_people(client, event, django_user_model):
    otto = django_user_model.objects.create(username="otto")
    event.organisers.add(otto)
    client.force_login(otto)
    assert client.get(reverse("events:people", args=[event.slug])).status_code == 403
    assert (
        "People:"
        not in client.get(reverse("events:event_desk", args=[event.slug]) + "?all").content.decode()
    )


def test_a_new_event_is_owned_by_its_creator(organiser):
    event = services.event_create(
        name="Tartu Open",
        starts_on=dt.date(2026, 6, 1),
        ends_on=dt.date(2026, 6, 1),
        time_zone="Europe/Tallinn",
        organiser=organiser,
    )
    assert event.role_of(organiser) == EventRole.Role.OWNER


def test_a_scorekeeper_is_sent_to_the_results(client, scorekeeper, event, competition):
    client.force_login(scorekeeper)
    response = client.get(reverse("events:event_desk", args=[event.slug]))
    assert response["Location"] == reverse("blokus:desk", args=[event.slug, competition.slug])
    assert client.get(response["Location"]).status_code == 200
    assert client.get(competition.get_desk_url()).status_code == 403


# --- strangers in a rated competition ----------------------------------------------------------


@pytest.fixture
def rated(event):
    return CompetitionFactory(
        event=event, slug="league", format="roundrobin", settings={"rated": True}
    )


def test_a_stranger_is_not_entered_into_a_rated_competition(desk_client, rated):
    stranger = EntryFactory().player  # plays in another organiser's event
    response = desk_client.post(
        reverse("events:register_known", args=[rated.event.slug, rated.slug]),
        {"player": stranger.pk},
        follow=True,
    )
    assert "plays at events you do not run" in response.content.decode()
    assert not Entry.objects.filter(competition=rated, player=stranger).exists()
    with pytest.raises(Refused) as refused:
        services.player_register(
            competition=rated, player=stranger, by=rated.event.organisers.get()
        )
    assert refused.value.code == "stranger_in_rated"


def test_own_players_new_players_and_unrated_competitions_are_fine(organiser, event, rated):
    ours = EntryFactory(competition=CompetitionFactory(event=event)).player
    services.player_register(competition=rated, player=ours, by=organiser)
    services.player_register(competition=rated, player=PlayerFactory(), by=organiser)
    entry = services.player_register_new(competition=rated, name="Nieuw Lid", by=organiser)
    assert entry.competition == rated
    unrated = CompetitionFactory(
        event=event, slug="friendly", format="roundrobin", settings={"rated": False}
    )
    stranger = EntryFactory().player
    services.player_register(competition=unrated, player=stranger, by=organiser)
    assert not organisers.is_rated(unrated) and RoundRobinSettings().rated


def test_a_scorekeepers_events_do_not_make_players_theirs(event, rated):
    """Keeping the score somewhere does not let you enter that event's players elsewhere."""
    keeper = UserFactory(username="kim")
    other = EventFactory(organisers=[UserFactory()])
    other.organisers.add(keeper, through_defaults={"role": "scorekeeper"})
    event.organisers.add(keeper)  # an organiser here, a scorekeeper there
    theirs = EntryFactory(competition=CompetitionFactory(event=other)).player
    assert not organisers.may_enter(competition=rated, player=theirs, by=keeper)


def test_a_second_registration_is_still_a_conflict(organiser, rated):
    entry = EntryFactory(competition=rated)
    with pytest.raises(Conflict):
        services.player_register(competition=rated, player=entry.player, by=organiser)


def test_strangers_in_bulk_agree_with_the_one_by_one_rule(organiser, event, rated):
    ours = EntryFactory(competition=CompetitionFactory(event=event)).player
    new = PlayerFactory()
    stranger = EntryFactory().player
    ids = [ours.pk, new.pk, stranger.pk]
    assert organisers.strangers(competition=rated, player_ids=ids, by=organiser) == {stranger.pk}
    for player in (ours, new, stranger):
        allowed = organisers.may_enter(competition=rated, player=player, by=organiser)
        assert allowed == (player != stranger)


def test_a_csv_import_refuses_strangers_into_a_rated_competition(organiser, event, rated):
    stranger = EntryFactory().player  # plays in another organiser's event
    ours = EntryFactory(competition=CompetitionFactory(event=event)).player
    data = (
        f"name,club\n{stranger.name},{stranger.club}\n{ours.name},{ours.club}\nNieuw Lid,Utrecht\n"
    ).encode()
    plan = imports.import_plan(competition=rated, data=data, by=organiser)
    actions = {row.name: row.action for row in plan.rows}
    assert actions == {stranger.name: "refused", ours.name: "known", "Nieuw Lid": "new"}
    refused = next(row for row in plan.rows if row.name == stranger.name)
    assert "plays at events you do not run" in refused.reason
    imports.import_confirm(competition=rated, data=data, by=organiser)
    assert set(Entry.objects.filter(competition=rated).values_list("player__name", flat=True)) == {
        ours.name,
        "Nieuw Lid",
    }
