"""The admin of play (``events.admin.play``): sessions, rounds, games, seats and the correction
trail; seats are checked by the format and every edit bumps the pages' versions."""

from __future__ import annotations

from django.urls import reverse

from events.models import Game
from tests.support.factories import SeatFactory


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


def _demo(demo):
    """The Blokus and the round robin demo competitions of the module's demo world (built once
    for the module, ``tests/conftest.py``), for tests about their rows in the shared admin."""
    _organiser, competitions = demo
    by_format = {competition.format: competition for competition in competitions}
    return by_format["blokus"], by_format["roundrobin"]


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
