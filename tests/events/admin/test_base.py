"""What every admin of events shares (``events.admin.base``): every page renders, hostile queries
are no 500, lists cost a constant number of queries, what holds results is not deleted, and times
are the event's."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.models import Competition, Entry, Event, Game, Player, Round, Seat, Session
from tests.support.factories import SeatFactory


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


EVENTS_CHANGELISTS = ["player", "event", "competition", "entry", "session", "round", "game", "seat"]


@pytest.mark.parametrize("model_name", [*EVENTS_CHANGELISTS, "correction"])
def test_changelists_of_many_rows_cost_a_constant_number_of_queries(
    admin_client, demo, django_assert_max_num_queries, model_name
):
    assert Game.objects.count() > 10  # the demo world: many rows of every list
    url = reverse(f"admin:events_{model_name}_changelist")
    with django_assert_max_num_queries(14):
        response = admin_client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize("model_name", EVENTS_CHANGELISTS)
@pytest.mark.parametrize(
    "query", ["q=%00", "status=%00", "event=%00", "competition=%00", "kind=%00", "x%00=1"]
)
def test_a_nul_in_a_changelist_query_is_not_a_500(admin_client_with_world, model_name, query):
    response = admin_client_with_world.get(
        reverse(f"admin:events_{model_name}_changelist") + "?" + query
    )
    assert response.status_code in (200, 302, 400)


@pytest.mark.parametrize("model_name", ["session", "round", "game"])
def test_deleting_what_holds_results_is_refused(admin_client, model_name):
    seat = SeatFactory(score=-5)
    game = seat.game
    obj = {"session": game.round.session, "round": game.round, "game": game}[model_name]
    url = reverse(f"admin:events_{model_name}_delete", args=[obj.pk])
    page = admin_client.get(url).content.decode()
    assert "protected" in page and "1 score entered" in page
    admin_client.post(url, {"post": "yes"})
    assert type(obj).objects.filter(pk=obj.pk).exists()
    admin_client.post(
        reverse(f"admin:events_{model_name}_changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )
    assert type(obj).objects.filter(pk=obj.pk).exists()
    assert Seat.objects.filter(pk=seat.pk, score=-5).exists()


def test_an_event_with_results_is_refused_naming_the_results_not_a_permission(client, db):
    """A staff organiser allowed to delete events, not each related table, was once told about
    permissions; the results are the reason and are named."""
    from django.contrib.auth.models import Permission

    from tests.support.factories import UserFactory

    seat = SeatFactory(score=-5)
    event = seat.game.round.session.competition.event
    staff = UserFactory(username="staff-organiser", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["delete_event", "view_event", "change_event"])
    )
    client.force_login(staff)
    page = client.get(reverse("admin:events_event_delete", args=[event.pk])).content.decode()
    assert "1 score entered" in page
    assert "permission to delete" not in page


@pytest.mark.parametrize("model_name", ["session", "round", "game"])
def test_what_holds_no_results_can_be_deleted(admin_client, model_name):
    seat = SeatFactory(score=None, points=None)
    game = seat.game
    obj = {"session": game.round.session, "round": game.round, "game": game}[model_name]
    response = admin_client.post(
        reverse(f"admin:events_{model_name}_delete", args=[obj.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not type(obj).objects.filter(pk=obj.pk).exists()


def test_a_constraint_name_is_never_shown(admin_client):
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    response = admin_client.post(
        reverse("admin:events_session_add"),
        {"competition": competition.pk, "number": 0, "kind": "series", "name": ""},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "is violated" not in page and "session_number_positive" not in page


def test_an_events_rows_show_and_take_times_in_the_events_zone(admin_client, db):
    """Admin times are in the event's zone, not the server's (UTC), as they once were."""
    import datetime as dt

    from tests.support.factories import EntryFactory

    entry = EntryFactory(checked_in_at=dt.datetime(2026, 6, 12, 9, 30, tzinfo=dt.UTC))
    Event.objects.filter(pk=entry.competition.event_id).update(time_zone="Pacific/Auckland")
    url = reverse("admin:events_entry_change", args=[entry.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="checked_in_at_1" value="21:30:00"' in page  # 09:30 UTC is 21:30 in Auckland
    assert 'value="09:30:00"' not in page
    # What is typed there means the event's time too: 22:00 in Auckland is 10:00 UTC.
    form = {
        "player": entry.player_id,
        "competition": entry.competition_id,
        "checked_in_at_0": "2026-06-12",
        "checked_in_at_1": "22:00:00",
        "withdrawn_at_0": "",
        "withdrawn_at_1": "",
        "number": "",
    }
    response = admin_client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:3000]
    entry.refresh_from_db()
    assert entry.checked_in_at == dt.datetime(2026, 6, 12, 10, 0, tzinfo=dt.UTC)
