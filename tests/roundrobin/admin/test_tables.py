"""Tests of roundrobin/admin/tables.py: snapshots, stages, game details, rating changes."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from events.models import Game, Round, Seat
from roundrobin import services
from roundrobin.models import (
    GameDetail,
    RatingChange,
    RatingSnapshot,
    TiebreakStage,
)
from tests.support.factories import UserFactory
from tests.support.roundrobin import (
    START,
    admin_url,
    enter_players,
    make_competition,
    play,
    swap_to_a_non_result,
)


def test_the_admin_lists_every_model(client, started, sixteen):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    play(started, sixteen[0], sixteen[1])
    services.entry_withdraw(entry=sixteen[15], now=START + dt.timedelta(hours=2))
    for model in ("ratingsnapshot", "tiebreakstage", "gamedetail", "ratingchange", "withdrawal"):
        response = client.get(reverse(f"admin:roundrobin_{model}_changelist"))
        assert response.status_code == 200, model
    detail = GameDetail.objects.filter(ending="played_out").first()
    response = client.get(reverse("admin:roundrobin_gamedetail_change", args=[detail.pk]))
    assert response.status_code == 200


def test_the_admin_action_reapplies_ratings_after_a_seat_edit(client, started, sixteen):
    from events.models import Player, Seat

    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    game = play(started, sixteen[0], sixteen[1])
    winner_before = Player.objects.get(pk=sixteen[0].player_id).rating
    # A correction made in the events' game admin: the seats' points are swapped.
    for seat in Seat.objects.filter(game=game):
        seat.points = 1 - seat.points
        seat.save()
    response = client.post(
        reverse("admin:roundrobin_gamedetail_changelist"),
        {"action": "recompute", "_selected_action": [game.pk]},
    )
    assert response.status_code == 302
    assert Player.objects.get(pk=sixteen[0].player_id).rating < 2000 < winner_before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_the_admin_refuses_a_game_detail_whose_seats_hold_no_result(client, started, sixteen):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    game = play(started, sixteen[0], sixteen[1])
    swap_to_a_non_result(game)
    address = reverse("admin:roundrobin_gamedetail_change", args=[game.pk])
    response = client.post(
        address,
        {
            "game": game.pk,
            "ending": "played_out",
            "rated": "on",
            "ended_at_0": "2026-03-02",
            "ended_at_1": "12:00:00",
        },
    )
    assert response.status_code == 200 and "errornote" in response.content.decode()


def _table_players(started) -> list[int]:
    table = Game.objects.filter(round__session__competition=started).first().round.session
    return sorted(
        set(Seat.objects.filter(game__round__session=table).values_list("entry_id", flat=True))
    )


def _stage(started, players_key: str) -> TiebreakStage:
    table = Game.objects.filter(round__session__competition=started).first().round.session
    number = Round.objects.filter(session=table).count() + 10
    round_ = Round.objects.create(session=table, number=number, seed=1)
    return TiebreakStage(
        round=round_, table=table, kind="decider", attempt=1, place=1, players_key=players_key
    )


def test_the_admin_shows_drawn_and_derived_fields_read_only(root, started, sixteen):
    play(started, sixteen[0], sixteen[1])
    snapshot = RatingSnapshot.objects.get(entry=sixteen[0])
    detail = GameDetail.objects.filter(game__round__session__competition=started).first()
    ids = _table_players(started)
    stage = _stage(started, f"{ids[0]},{ids[1]}")
    stage.save()
    forms = {
        reverse("admin:roundrobin_ratingsnapshot_change", args=[snapshot.pk]): "table",
        reverse("admin:roundrobin_tiebreakstage_change", args=[stage.pk]): "players_key",
        reverse("admin:roundrobin_gamedetail_change", args=[detail.pk]): "adjudicated",
    }
    for address, field in forms.items():
        page = root.get(address)
        assert page.status_code == 200
        assert f'name="{field}"' not in page.content.decode(), address
    # A post naming them anyway changes nothing.
    root.post(
        reverse("admin:roundrobin_ratingsnapshot_change", args=[snapshot.pk]),
        {"rating": snapshot.rating, "rated_games": 40, "table": 99},
    )
    snapshot.refresh_from_db()
    assert snapshot.table != 99
    assert root.get(reverse("admin:roundrobin_tiebreakstage_add")).status_code == 403
    assert root.get(reverse("admin:roundrobin_ratingsnapshot_add")).status_code == 403


def test_rating_changes_cannot_be_deleted_and_keep_history(root, played):
    change = RatingChange.objects.first()
    assert root.get(admin_url(RatingChange, "delete", change.pk)).status_code == 403
    assert change.history.count() == 1


def test_tiebreak_stages_are_named_and_not_deleted(root, event):
    competition = make_competition(event, slug="trio", max_table_size=3)
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=7, now=START)
    competition.refresh_from_db()
    play(competition, a, b)
    play(competition, b, c)
    play(competition, c, a)
    stage = TiebreakStage.objects.get()
    listing = root.get(admin_url(TiebreakStage, "changelist")).content.decode()
    assert competition.name in listing and "Mini round robin" in listing
    assert "place 1" in str(stage)
    page = root.get(admin_url(TiebreakStage, "delete", stage.pk)).content.decode()
    assert "correct a result instead" in page
    root.post(admin_url(TiebreakStage, "delete", stage.pk), {"post": "yes"})
    assert TiebreakStage.objects.count() == 1
