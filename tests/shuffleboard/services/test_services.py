from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from events.errors import Conflict, Invalid, Refused, Stale
from events.models import Competition
from events.services import entry_withdraw
from shuffleboard import rules, selectors, services
from shuffleboard.models import Turn
from tests.support.factories import EntryFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory


def version(competition):
    return Competition.objects.values_list("version", flat=True).get(pk=competition.pk)


def test_it_records_a_game_with_the_derived_score_and_starts_the_competition(playing, organiser):
    entry = playing[0]
    before = version(entry.competition)
    turn = services.turn_record(
        entry=entry, number=1, counts=(5, 9, 5, 7), board=1, entered_by=organiser
    )
    assert turn.score == 116
    assert (turn.c1, turn.c2, turn.c3, turn.c4) == (5, 9, 5, 7)
    assert turn.entered_by == organiser
    assert turn.revision == 1
    entry.competition.refresh_from_db()
    assert entry.competition.status == Competition.Status.RUNNING
    assert version(entry.competition) == before + 1


@pytest.mark.parametrize(
    ("counts", "code"),
    [
        ((7, 8, 8, 8), "too_many_discs"),
        ((0, -1, 0, 0), "count_negative"),
        ((0, 1.5, 0, 0), "count_not_whole"),
        ((1, 2, 3), "wrong_number_of_counts"),
    ],
)
def test_it_refuses_invalid_counts(playing, counts, code):
    with pytest.raises(Invalid) as info:
        services.turn_record(entry=playing[0], number=1, counts=counts)
    assert info.value.code == code
    assert not Turn.objects.exists()


def test_it_refuses_a_game_number_out_of_range(playing):
    for number in (0, 11, -3):
        with pytest.raises(Invalid) as info:
            services.turn_record(entry=playing[0], number=number, counts=(0, 0, 0, 0))
        assert info.value.code == "game_number"


def test_it_refuses_the_same_game_twice(playing):
    services.turn_record(entry=playing[0], number=1, counts=(1, 1, 1, 1))
    with pytest.raises(Conflict) as info:
        services.turn_record(entry=playing[0], number=1, counts=(2, 2, 2, 2))
    assert info.value.code == "already_entered"
    assert Turn.objects.get().score == 20


def test_it_refuses_players_not_checked_in_or_withdrawn(sjoelen, playing):
    absent = EntryFactory(competition=sjoelen)
    with pytest.raises(Refused) as info:
        services.turn_record(entry=absent, number=1, counts=(0, 0, 0, 0))
    assert info.value.code == "not_checked_in"
    entry_withdraw(entry=playing[1])
    with pytest.raises(Refused) as info:
        services.turn_record(entry=playing[1], number=1, counts=(0, 0, 0, 0))
    assert info.value.code == "withdrawn"


def test_it_refuses_other_formats(competition):
    entry = EntryFactory(competition=competition)  # a Blokus competition
    entry.checked_in_at = entry.registered_at
    entry.save()
    with pytest.raises(Refused) as info:
        services.turn_record(entry=entry, number=1, counts=(0, 0, 0, 0))
    assert info.value.code == "wrong_format"
    for action in (services.competition_finish, services.competition_reopen):
        with pytest.raises(Refused) as info:
            action(competition=competition)
        assert info.value.code == "wrong_format"


def test_it_refuses_scores_once_finished_and_accepts_them_after_reopening(playing):
    competition = services.competition_finish(competition=playing[0].competition)
    with pytest.raises(Refused) as info:
        services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 0))
    assert info.value.code == "finished"
    with pytest.raises(Refused) as info:
        services.competition_finish(competition=competition)
    assert info.value.code == "already_finished"
    services.competition_reopen(competition=competition)
    with pytest.raises(Refused) as info:
        services.competition_reopen(competition=competition)
    assert info.value.code == "not_finished"
    assert services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 30)).score == 120


def test_a_correction_keeps_the_history_and_bumps_the_revision(playing, organiser):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    before = version(playing[0].competition)
    corrected = services.turn_correct(
        turn=turn, revision=1, counts=(7, 7, 7, 9), entered_by=organiser
    )
    assert corrected.score == 148
    assert corrected.revision == 2
    assert [h.score for h in corrected.history.order_by("history_date")] == [116, 148]
    assert version(playing[0].competition) == before + 1


def test_a_stale_correction_is_refused_with_the_current_value(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    services.turn_correct(turn=turn, revision=1, counts=(1, 1, 1, 1))
    with pytest.raises(Stale) as info:
        services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 30))
    assert info.value.code == "stale"
    assert info.value.http_status == 409
    assert "2→1 3→1 4→1 1→1 = 20" in info.value.text  # the current value, to check against
    turn.refresh_from_db()
    assert turn.score == 20


def test_an_invalid_correction_changes_nothing(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    with pytest.raises(Invalid):
        services.turn_correct(turn=turn, revision=1, counts=(10, 10, 10, 10))
    turn.refresh_from_db()
    assert (turn.score, turn.revision) == (116, 1)


def test_it_deletes_a_game_with_the_current_revision_only(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    with pytest.raises(Stale):
        services.turn_delete(turn=turn, revision=7)
    services.turn_delete(turn=turn, revision=1)
    assert not Turn.objects.exists()
    assert Turn.history.filter(history_type="-").count() == 1


def test_bonus_discs_count_only_with_the_bonus_rule(event):
    plain = PlayingEntryFactory(competition=SjoelenFactory(event=event))
    with pytest.raises(Invalid) as info:
        services.turn_record(
            entry=plain, number=1, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=2
        )
    assert info.value.code == "bonus_off"
    bonus = PlayingEntryFactory(
        competition=SjoelenFactory(
            event=event, settings={"games": 5, "boards": 2, "bonus_disc": True}
        )
    )
    turn = services.turn_record(
        entry=bonus, number=1, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=2
    )
    assert turn.score == 152
    with pytest.raises(Invalid) as info:
        services.turn_record(
            entry=bonus, number=2, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 1, 1), max_after=2
        )
    assert info.value.code == "bonus_too_many"
    with pytest.raises(Invalid) as info:
        services.turn_record(
            entry=bonus, number=2, counts=(5, 9, 5, 7), bonus_counts=(0, 0, 0, 1), max_after=1
        )
    assert info.value.code == "bonus_not_earned"


@pytest.mark.parametrize(
    "changes",
    [
        {"c1": 31, "score": 31},  # more than 30 discs
        {"c1": 8, "c2": 8, "c3": 8, "c4": 7, "score": 148},  # 31 discs
        {"score": 117},  # a score that is not the counts' score
        {"number": 0},
        {"b4": 1, "score": 120},  # bonus discs without 148
        {"max_after": 4},
    ],
)
def test_the_database_refuses_what_the_rules_forbid(playing, changes):
    values = {"entry": playing[0], "number": 1, "c1": 5, "c2": 9, "c3": 5, "c4": 7, "score": 116}
    Turn.objects.create(**{**values, "number": 2})  # the valid row passes
    with pytest.raises(IntegrityError), transaction.atomic():
        Turn.objects.create(**{**values, **changes})


def test_the_database_refuses_a_second_row_for_the_same_game(playing):
    values = {"entry": playing[0], "number": 1, "c1": 0, "c2": 0, "c3": 0, "c4": 0, "score": 0}
    Turn.objects.create(**values)
    with pytest.raises(IntegrityError), transaction.atomic():
        Turn.objects.create(**values)


# --- a result checked where it came in, a rota read once --------------------------------------


def test_a_game_checked_by_the_form_is_taken_as_it_is(playing):
    turn = services.turn_record(entry=playing[0], number=1, game=rules.check_game((5, 9, 5, 7)))
    assert (turn.counts, turn.score) == ((5, 9, 5, 7), 116)


def test_a_game_checked_under_another_bonus_rule_is_checked_again(playing):
    """Checked with bonus discs on (the settings were changed meanwhile): this competition plays
    without them, so the service's own check refuses it and nothing is stored."""
    game = rules.check_game((7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=2, bonus=True)
    assert game.score == 152
    with pytest.raises(Invalid) as info:
        services.turn_record(entry=playing[0], number=1, game=game)
    assert info.value.code == "bonus_off"
    assert not Turn.objects.exists()


def test_a_rota_read_before_the_write_answers_as_a_read_now(playing):
    """The desk reads the rota before it saves; another desk may have entered a game of the
    same player in between. The service sets the player's games as stored (under the player's
    lock), so the next game it tells and the panel shows are the true ones."""
    entry = playing[1]
    rota = selectors.rota_for_competition(entry.competition)
    services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), board=2)  # another desk
    services.turn_record(entry=entry, number=2, counts=(1, 1, 1, 1), board=3, rota=rota)
    assert sorted(rota.by_entry(entry.pk).turns) == [1, 2]
    assert rota.next_game(entry.pk) == selectors.next_game(entry) == (3, 4)
    assert rota.next_game(playing[0].pk) == selectors.next_game(playing[0]) == (1, 1)
