from __future__ import annotations

import pytest
from django.urls import reverse

from events.models import Competition, Entry, Event, Game, Player, Round, Seat, Session
from tests.factories import SeatFactory


@pytest.fixture
def admin_client_with_world(admin_client, db):
    SeatFactory.create_batch(3)
    return admin_client


@pytest.mark.parametrize("model", [Player, Event, Competition, Entry, Session, Round, Game, Seat])
def test_every_admin_list_and_change_page_renders(admin_client_with_world, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client_with_world.get(changelist).status_code == 200
    obj = model.objects.first()
    change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    assert admin_client_with_world.get(change).status_code == 200
    history = reverse(f"admin:{opts.app_label}_{opts.model_name}_history", args=[obj.pk])
    assert admin_client_with_world.get(history).status_code == 200


def test_an_admin_correction_bumps_the_competition_version(admin_client, db):
    seat = SeatFactory(score=-5, game__round__session__competition__format="roundrobin")
    competition = seat.game.round.session.competition
    before = competition.version
    url = reverse("admin:events_seat_change", args=[seat.pk])
    response = admin_client.post(
        url,
        {
            "game": seat.game_id,
            "entry": seat.entry_id,
            "position": seat.position,
            "colour": "blue",
            "score": -3,
            "points": "",
        },
    )
    assert response.status_code == 302
    seat.refresh_from_db()
    competition.refresh_from_db()
    assert seat.score == -3
    assert competition.version == before + 1
    assert seat.history.count() == 2


def test_admin_refuses_a_seat_for_a_player_of_another_competition(admin_client, db):
    seat = SeatFactory()
    stranger = SeatFactory().entry
    url = reverse("admin:events_seat_change", args=[seat.pk])
    response = admin_client.post(
        url, {"game": seat.game_id, "entry": stranger.pk, "position": seat.position}
    )
    assert response.status_code == 200
    assert "not entered in this game" in response.content.decode()


def test_blokus_seat_scores_are_read_only_in_admin(admin_client, db):
    seat = SeatFactory(score=-5)
    url = reverse("admin:events_seat_change", args=[seat.pk])
    admin_client.post(
        url, {"game": seat.game_id, "entry": seat.entry_id, "position": seat.position, "score": 7}
    )
    seat.refresh_from_db()
    assert seat.score == -5


def test_a_bulk_delete_in_admin_bumps_the_competition_version(admin_client, db):
    seat = SeatFactory(game__round__session__competition__format="roundrobin")
    competition = seat.game.round.session.competition
    before = competition.version
    response = admin_client.post(
        reverse("admin:events_seat_changelist"),
        {"action": "delete_selected", "_selected_action": [seat.pk], "post": "yes"},
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert not Seat.objects.filter(pk=seat.pk).exists()
    assert competition.version > before


def test_moving_an_entry_in_admin_bumps_both_competitions(admin_client, db):
    from tests.factories import CompetitionFactory, EntryFactory

    entry = EntryFactory()
    old, new = entry.competition, CompetitionFactory()
    versions = (old.version, new.version)
    response = admin_client.post(
        reverse("admin:events_entry_change", args=[entry.pk]),
        {"player": entry.player_id, "competition": new.pk},
    )
    assert response.status_code == 302
    old.refresh_from_db()
    new.refresh_from_db()
    assert (old.version, new.version) == (versions[0] + 1, versions[1] + 1)


def test_renaming_a_player_in_admin_bumps_their_competitions(admin_client, db):
    from tests.factories import EntryFactory

    entry = EntryFactory()
    competition = entry.competition
    before = competition.version
    player = entry.player
    response = admin_client.post(
        reverse("admin:events_player_change", args=[player.pk]),
        {"name": "Renamed Person", "club": "", "email": "", "rating": 1600, "rated_games": 0},
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.version == before + 1


def test_an_event_edit_in_admin_bumps_its_pages(admin_client, admin_user):
    from tests.factories import CompetitionFactory

    competition = CompetitionFactory()
    event = competition.event
    before = (event.version, competition.version)
    response = admin_client.post(
        reverse("admin:events_event_change", args=[event.pk]),
        {
            "name": "Renamed Event",
            "slug": event.slug,
            "venue": "Elsewhere",
            "info": "",
            "starts_on": "2026-05-05",
            "ends_on": "2026-05-08",
            "time_zone": "Europe/Stockholm",
            "is_public": "on",
            "organisers": [admin_user.pk],
            "competitions-TOTAL_FORMS": 1,
            "competitions-INITIAL_FORMS": 1,
            "competitions-0-id": competition.pk,
            "competitions-0-event": event.pk,
            "competitions-0-name": "Renamed Competition",
            "competitions-0-slug": competition.slug,
            "competitions-0-format": competition.format,
            "competitions-0-status": "finished",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    competition.refresh_from_db()
    assert event.version > before[0] and competition.version > before[1]
    assert competition.status == "finished"
