"""Database constraints and admin validation of the round robin's records, and the admin pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from events.models import Game
from roundrobin import services
from roundrobin.models import GameDetail, RatingChange, RatingSnapshot, TiebreakStage, Withdrawal
from tests.support.factories import UserFactory
from tests.support.roundrobin import START, play

NOW = dt.datetime(2026, 3, 2, tzinfo=dt.UTC)


def violates(make) -> bool:
    try:
        with transaction.atomic():
            make()
    except IntegrityError:
        return True
    return False


def test_a_double_forfeit_cannot_be_rated(started):
    detail = GameDetail.objects.first()
    detail.ending, detail.ended_at, detail.rated = "double_forfeit", NOW, True
    with pytest.raises(ValidationError, match="never rated"):
        detail.full_clean()
    assert violates(detail.save)


def test_an_ended_game_needs_its_end_time(started):
    detail = GameDetail.objects.first()
    detail.ending = "played_out"
    assert violates(detail.save)


def test_a_withdrawal_must_follow_the_half_rule(started, sixteen):
    bad = Withdrawal(entry=sixteen[0], effect="forfeit", finished=1, scheduled=5, at=NOW)
    with pytest.raises(ValidationError, match="strike"):
        bad.full_clean()
    assert violates(bad.save)
    assert violates(
        Withdrawal(entry=sixteen[0], effect="strike", finished=6, scheduled=5, at=NOW).save
    )


def test_rating_changes_must_add_up(started, sixteen):
    game = play(started, sixteen[0], sixteen[1])
    change = RatingChange.objects.filter(game=game).first()
    change.after = change.before + change.change + 1
    assert violates(change.save)


def test_a_snapshot_is_provisional_below_30_games(started, sixteen):
    snapshot = RatingSnapshot.objects.get(entry=sixteen[0])
    snapshot.provisional = True
    with pytest.raises(ValidationError, match="30"):
        snapshot.full_clean()


def test_tiebreak_stages_hold_podium_places_only(started):
    round_ = Game.objects.first().round
    stage = TiebreakStage(
        round=round_, table=round_.session, kind="decider", attempt=1, place=4, players_key="1,2"
    )
    assert violates(stage.save)


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


# --- the clock ------------------------------------------------------------------------------------


def test_turn_constraints_hold_in_the_database(started):
    from roundrobin.models import Turn

    turn = Turn.objects.first()
    game = turn.game
    hour = dt.timedelta(hours=1)
    assert violates(
        lambda: Turn.objects.create(game=game, number=1, opened_at=START, deadline=START + hour)
    )
    assert violates(
        lambda: Turn.objects.create(game=game, number=2, opened_at=START, deadline=START)
    )  # deadline must be after the opening (and one open turn per game)
    assert violates(lambda: Turn.objects.filter(pk=turn.pk).update(first_missed=True))
    assert violates(
        lambda: Turn.objects.filter(pk=turn.pk).update(first_moved_at=START + 30 * hour)
    )
    assert violates(lambda: Turn.objects.filter(pk=turn.pk).update(closed_at=START - hour))


def test_a_turn_edited_in_admin_is_checked(started):
    from roundrobin.models import Turn

    turn = Turn.objects.first()
    turn.deadline = turn.opened_at
    with pytest.raises(ValidationError):
        turn.full_clean()
    turn.refresh_from_db()
    turn.first_missed = True
    with pytest.raises(ValidationError):
        turn.full_clean()


def test_the_clock_admin_pages_and_history(client, started):
    from roundrobin.models import PlayerToken, Turn

    admin = UserFactory(username="clock-root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for model in ("turn", "playertoken", "resultreport"):
        assert client.get(reverse(f"admin:roundrobin_{model}_changelist")).status_code == 200
    turn = Turn.objects.first()
    page = client.get(reverse("admin:roundrobin_turn_change", args=[turn.pk]))
    assert page.status_code == 200
    assert client.get(reverse("admin:roundrobin_turn_history", args=[turn.pk])).status_code == 200
    old = PlayerToken.objects.first().token
    client.post(
        reverse("admin:roundrobin_playertoken_changelist"),
        {"action": "renew", "_selected_action": [PlayerToken.objects.first().pk]},
    )
    assert PlayerToken.objects.first().token != old


def test_an_open_turn_cannot_be_closed_in_admin_only_its_deadline_changed(client, started):
    from roundrobin.models import Turn

    admin = UserFactory(username="clock-root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    turn = Turn.objects.order_by("pk").first()
    address = reverse("admin:roundrobin_turn_change", args=[turn.pk])
    page = client.get(address).content.decode()
    assert 'name="closed_at_0"' not in page and 'name="first_missed"' not in page
    assert "cannot be closed here" in page and 'name="deadline_0"' in page
    response = client.post(
        address,
        {
            "game": turn.game_id,
            "number": 1,
            "opened_at_0": "2026-03-01",
            "opened_at_1": "13:00:00",  # Stockholm time: START
            "deadline_0": "2026-03-04",
            "deadline_1": "13:00:00",
            "first_move": "",
            "second_move": "",
            "closed_at_0": "2026-03-01",
            "closed_at_1": "14:00:00",
            "first_missed": "on",
            "second_missed": "on",
        },
    )
    assert response.status_code == 302
    turn.refresh_from_db()
    assert turn.closed_at is None and not turn.first_missed and not turn.second_missed
    assert turn.deadline == START + dt.timedelta(days=3)
    closed = Turn.objects.order_by("pk").first()
    Turn.objects.filter(pk=closed.pk).update(closed_at=START + dt.timedelta(hours=1))
    assert 'name="closed_at_0"' in client.get(address).content.decode()  # closed: editable


def test_turns_are_not_added_in_admin(client, started):
    admin = UserFactory(username="clock-root-2", is_staff=True, is_superuser=True)
    client.force_login(admin)
    assert client.get(reverse("admin:roundrobin_turn_add")).status_code == 403
    changelist = client.get(reverse("admin:roundrobin_turn_changelist")).content.decode()
    assert reverse("admin:roundrobin_turn_add") not in changelist


# --- one check of a result ------------------------------------------------------------------------


def swap_to_a_non_result(game):
    from events.models import Seat

    Seat.objects.filter(game=game).update(points=1)  # 1-1: no such result


def test_seat_points_that_are_no_result_are_refused_by_the_model(started, sixteen):
    game = play(started, sixteen[0], sixteen[1])
    swap_to_a_non_result(game)
    with pytest.raises(ValidationError) as refused:
        GameDetail.objects.get(game=game).full_clean()
    assert refused.value.error_dict["__all__"][0].code == "bad_result"


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


def test_a_report_must_name_a_result(started, sixteen):
    from roundrobin.models import ResultReport

    game = play(started, sixteen[0], sixteen[1])
    report = ResultReport(game=game, entry=sixteen[0], result="2-0", at=NOW)
    with pytest.raises(ValidationError) as refused:
        report.full_clean()
    assert refused.value.error_dict["result"][0].code == "bad_result"
    assert violates(report.save)  # the constraint stays as the last line


@pytest.mark.parametrize(("result", "valid"), [("1-0", True), ("1/2-1/2", True), ("2-0", False)])
def test_the_desk_form_checks_a_result_through_the_rules(result, valid):
    from roundrobin.forms import ResultForm

    form = ResultForm({"result": result, "revision": 0})
    assert form.is_valid() is valid
    if not valid:
        assert form.errors.as_data()["result"][0].code in ("bad_result", "invalid_choice")
