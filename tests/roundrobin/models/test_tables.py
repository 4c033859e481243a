"""Tests of roundrobin/models/tables.py: what the models and the database refuse."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from events.models import Game, Round, Seat
from roundrobin.models import GameDetail, RatingChange, RatingSnapshot, TiebreakStage, Withdrawal
from tests.support.roundrobin import NOW, play, swap_to_a_non_result


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


def test_seat_points_that_are_no_result_are_refused_by_the_model(started, sixteen):
    game = play(started, sixteen[0], sixteen[1])
    swap_to_a_non_result(game)
    with pytest.raises(ValidationError) as refused:
        GameDetail.objects.get(game=game).full_clean()
    assert refused.value.error_dict["__all__"][0].code == "bad_result"


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


@pytest.mark.parametrize("key", ["purple", "74;75", "7475", "1,", ",1,2", "1, 2", "２,３"])
def test_the_database_refuses_a_players_key_that_is_not_ids(started, key):
    assert violates(_stage(started, key).save)


def test_the_model_wants_the_tables_own_players_in_order(started):
    ids = _table_players(started)
    with pytest.raises(ValidationError, match="ascending"):
        _stage(started, f"{ids[1]},{ids[0]}").full_clean()
    with pytest.raises(ValidationError, match="plays at its table"):
        _stage(started, f"{ids[0]},999999").full_clean()
    _stage(started, f"{ids[0]},{ids[1]}").full_clean()


def test_adjudicated_or_struck_needs_a_game_that_is_over(started):
    detail = GameDetail.objects.filter(game__round__session__competition=started).first()
    assert not detail.is_over
    for field in ("adjudicated", "struck"):
        setattr(detail, field, True)
        with pytest.raises(ValidationError, match=r"ended|cancels"):
            detail.full_clean()
        assert violates(detail.save)
        setattr(detail, field, False)
