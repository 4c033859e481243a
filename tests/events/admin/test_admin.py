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


def test_an_admin_correction_bumps_the_competition_version(admin_client, db):
    # Round-robin seats are corrected through the format's hook (Game admin); a Blokus seat's
    # colour is still a plain admin edit.
    seat = SeatFactory(score=-5, colour="blue")
    competition = seat.game.round.session.competition
    before = competition.version
    url = reverse("admin:events_seat_change", args=[seat.pk])
    response = admin_client.post(
        url,
        {
            "game": seat.game_id,
            "entry": seat.entry_id,
            "position": seat.position,
            "colour": "yellow",
        },
    )
    assert response.status_code == 302
    seat.refresh_from_db()
    competition.refresh_from_db()
    assert (seat.colour, seat.score) == ("yellow", -5)
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
    from tests.support.factories import CompetitionFactory, EntryFactory

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
    from tests.support.factories import EntryFactory

    entry = EntryFactory()
    competition = entry.competition
    before = competition.version
    player = entry.player
    response = admin_client.post(
        reverse("admin:events_player_change", args=[player.pk]),
        {
            "name": "Renamed Person",
            "club": "",
            "email": "",
            "rating": 1600,
            "rated_games": 0,
            "name_shown": "full",
        },
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.version == before + 1


def test_an_event_edit_in_admin_bumps_its_pages(admin_client, admin_user):
    from tests.support.factories import CompetitionFactory

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


# --- a readable, safe admin ---------------------------------------------------------------

EVENTS_CHANGELISTS = ["player", "event", "competition", "entry", "session", "round", "game", "seat"]


def _demo(demo):
    """The Blokus and the round robin demo competitions of the module's demo world (built once
    for the module, ``tests/conftest.py``), for tests about their rows in the shared admin."""
    _organiser, competitions = demo
    by_format = {competition.format: competition for competition in competitions}
    return by_format["blokus"], by_format["roundrobin"]


@pytest.mark.parametrize("model_name", [*EVENTS_CHANGELISTS, "correction"])
def test_changelists_of_many_rows_cost_a_constant_number_of_queries(
    admin_client, demo, django_assert_max_num_queries, model_name
):
    assert Game.objects.count() > 10  # the demo world: many rows of every list
    url = reverse(f"admin:events_{model_name}_changelist")
    with django_assert_max_num_queries(14):
        response = admin_client.get(url)
    assert response.status_code == 200


def test_the_game_list_names_competition_session_and_players(admin_client, demo):
    blokus, _rr = _demo(demo)
    game = Game.objects.filter(round__session__competition=blokus, seats__isnull=False).first()
    names = [s.entry.player.name for s in game.seats.select_related("entry__player")]
    response = admin_client.get(
        reverse("admin:events_game_changelist"),
        {"competition": blokus.pk, "q": names[0]},
    )
    page = response.content.decode()
    assert names[0] in page and blokus.name in page and str(game.round.session) in page


def test_an_entry_names_its_competition(db):
    SeatFactory()
    entry = Entry.objects.select_related("player", "competition").first()
    assert entry is None or entry.competition.name in str(entry)


@pytest.mark.parametrize("model_name", EVENTS_CHANGELISTS)
@pytest.mark.parametrize(
    "query", ["q=%00", "status=%00", "event=%00", "competition=%00", "kind=%00", "x%00=1"]
)
def test_a_nul_in_a_changelist_query_is_not_a_500(admin_client_with_world, model_name, query):
    response = admin_client_with_world.get(
        reverse(f"admin:events_{model_name}_changelist") + "?" + query
    )
    assert response.status_code in (200, 302, 400)


def test_a_competition_can_be_added_through_the_event_inline(admin_client, admin_user):
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    event = competition.event
    response = admin_client.post(
        reverse("admin:events_event_change", args=[event.pk]),
        {
            "name": event.name,
            "slug": event.slug,
            "venue": "",
            "info": "",
            "starts_on": "2026-05-05",
            "ends_on": "2026-05-08",
            "time_zone": "Europe/Stockholm",
            "is_public": "on",
            "organisers": [admin_user.pk],
            "competitions-TOTAL_FORMS": 2,
            "competitions-INITIAL_FORMS": 1,
            "competitions-0-id": competition.pk,
            "competitions-0-event": event.pk,
            "competitions-0-name": competition.name,
            "competitions-0-slug": competition.slug,
            "competitions-0-format": competition.format,
            "competitions-0-status": competition.status,
            "competitions-1-event": event.pk,
            "competitions-1-name": "League",
            "competitions-1-slug": "league",
            "competitions-1-format": "roundrobin",
            "competitions-1-status": "registration",
        },
    )
    assert response.status_code == 302
    added = Competition.objects.get(event=event, slug="league")
    assert added.settings == added.game_format.default_settings()
    assert admin_client.get(added.get_absolute_url()).status_code == 200


@pytest.mark.parametrize(
    "settings_text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 5000 + "1" + "}" * 5000,
        '{"x": "' + "y" * 9000 + '"}',
    ],
)
def test_hostile_settings_are_a_form_error(admin_client, settings_text):
    from tests.support.factories import CompetitionFactory

    competition = CompetitionFactory()
    response = admin_client.post(
        reverse("admin:events_competition_change", args=[competition.pk]),
        {
            "event": competition.event_id,
            "name": competition.name,
            "slug": competition.slug,
            "format": competition.format,
            "status": competition.status,
            "settings": settings_text,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors


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


def test_a_blokus_seat_colour_must_be_a_blokus_colour(admin_client):
    seat = SeatFactory(colour="blue")
    response = admin_client.post(
        reverse("admin:events_seat_change", args=[seat.pk]),
        {
            "game": seat.game_id,
            "entry": seat.entry_id,
            "position": seat.position,
            "colour": "purple",
        },
    )
    assert response.status_code == 200
    seat.refresh_from_db()
    assert seat.colour == "blue"


def test_the_correction_trail_is_read_only_in_admin(admin_client):
    assert admin_client.get(reverse("admin:events_correction_add")).status_code == 403


def _game_form(admin_client, game):
    from tests.support.admin import posted

    url = reverse("admin:events_game_change", args=[game.pk])
    return url, posted(admin_client.get(url).content.decode())


def _seat_prefix(data, seat):
    return next(
        k[: -len("-id")] for k, v in data.items() if k.endswith("-id") and v == [str(seat.pk)]
    )


def test_round_robin_seats_in_the_game_admin_go_through_the_format(admin_client, demo):
    from roundrobin.models import GameDetail

    _blokus, rr = _demo(demo)
    game = (
        Game.objects.filter(round__session__competition=rr, status=Game.Status.FINISHED)
        .order_by("pk")
        .first()
    )
    white, black = game.seats.order_by("position")
    url, data = _game_form(admin_client, game)
    w, b = _seat_prefix(data, white), _seat_prefix(data, black)
    # Both seats 1 point and a purple seat: errors beside the fields, nothing stored.
    bad = {**data, f"{w}-points": ["1"], f"{b}-points": ["1"], f"{b}-colour": ["purple"]}
    response = admin_client.post(url, bad)
    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    assert any(form.errors for form in formset.forms)
    black.refresh_from_db()
    assert black.colour == "black"
    # A valid correction (the other result) is stored through the format, with its trail.
    before = (white.points, black.points)
    wanted = ("0", "1") if before[0] != 0 else ("1", "0")
    corrections = rr.corrections.count()
    good = {
        **data,
        f"{w}-points": [wanted[0]],
        f"{b}-points": [wanted[1]],
        "confirm_correction": ["on"],
    }
    response = admin_client.post(url, good)
    assert response.status_code == 302, response.context and [
        f.errors for f in response.context["inline_admin_formsets"][0].formset.forms
    ]
    white.refresh_from_db()
    assert str(int(white.points)) == wanted[0]
    assert rr.corrections.count() == corrections + 1
    assert GameDetail.objects.get(game=game).has_result
    assert admin_client.get(rr.get_absolute_url()).status_code == 200


def test_round_robin_seats_cannot_be_added_or_deleted_in_the_game_admin(admin_client, demo):
    _blokus, rr = _demo(demo)
    game = Game.objects.filter(round__session__competition=rr).first()
    url, data = _game_form(admin_client, game)
    prefix = next(k for k in data if k.endswith("-TOTAL_FORMS"))[: -len("-TOTAL_FORMS")]
    assert data[f"{prefix}-MAX_NUM_FORMS"] == [str(game.seats.count())] or not any(
        k.endswith("-DELETE") for k in data
    )


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
