from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from events.models import Competition
from events.services import ServiceError, entry_withdraw
from shuffleboard import rules, services
from shuffleboard.models import Turn
from tests.factories import EntryFactory
from tests.shuffleboard.factories import PlayingEntryFactory, SjoelenFactory


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
    ("counts", "message"),
    [
        ((7, 8, 8, 8), rules.TOO_MANY_DISCS.format(discs=30, total=31)),
        ((0, -1, 0, 0), rules.COUNT_NEGATIVE.format(gate=2, value=-1)),
        ((0, 1.5, 0, 0), rules.COUNT_NOT_WHOLE.format(gate=2, value=1.5)),
        ((1, 2, 3), rules.WRONG_NUMBER_OF_COUNTS.format(count=3)),
    ],
)
def test_it_refuses_invalid_counts(playing, counts, message):
    with pytest.raises(ServiceError) as info:
        services.turn_record(entry=playing[0], number=1, counts=counts)
    assert info.value.messages == [message]
    assert not Turn.objects.exists()


def test_it_refuses_a_game_number_out_of_range(playing):
    for number in (0, 11, -3):
        with pytest.raises(ServiceError, match="from 1 to 10"):
            services.turn_record(entry=playing[0], number=number, counts=(0, 0, 0, 0))


def test_it_refuses_the_same_game_twice(playing):
    services.turn_record(entry=playing[0], number=1, counts=(1, 1, 1, 1))
    with pytest.raises(ServiceError) as info:
        services.turn_record(entry=playing[0], number=1, counts=(2, 2, 2, 2))
    assert "already entered (score 20)" in info.value.messages[0]


def test_it_refuses_players_not_checked_in_or_withdrawn(sjoelen, playing):
    absent = EntryFactory(competition=sjoelen)
    with pytest.raises(ServiceError, match="not checked in"):
        services.turn_record(entry=absent, number=1, counts=(0, 0, 0, 0))
    entry_withdraw(entry=playing[1])
    with pytest.raises(ServiceError, match="has withdrawn"):
        services.turn_record(entry=playing[1], number=1, counts=(0, 0, 0, 0))


def test_it_refuses_other_formats(competition):
    entry = EntryFactory(competition=competition)  # a Blokus competition
    entry.checked_in_at = entry.registered_at
    entry.save()
    with pytest.raises(ServiceError, match="not a sjoelen competition"):
        services.turn_record(entry=entry, number=1, counts=(0, 0, 0, 0))


def test_it_refuses_scores_once_finished_and_accepts_them_after_reopening(playing):
    competition = services.competition_finish(competition=playing[0].competition)
    with pytest.raises(ServiceError, match="is finished"):
        services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 0))
    with pytest.raises(ServiceError, match="already finished"):
        services.competition_finish(competition=competition)
    services.competition_reopen(competition=competition)
    with pytest.raises(ServiceError, match="not finished"):
        services.competition_reopen(competition=competition)
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
    with pytest.raises(ServiceError) as info:
        services.turn_correct(turn=turn, revision=1, counts=(0, 0, 0, 30))
    message = info.value.messages[0]
    assert "Someone else changed game 1 of Õie Sööt" in message
    assert "2→1 3→1 4→1 1→1 = 20" in message
    turn.refresh_from_db()
    assert turn.score == 20


def test_an_invalid_correction_changes_nothing(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    with pytest.raises(ServiceError):
        services.turn_correct(turn=turn, revision=1, counts=(10, 10, 10, 10))
    turn.refresh_from_db()
    assert (turn.score, turn.revision) == (116, 1)


def test_it_deletes_a_game_with_the_current_revision_only(playing):
    turn = services.turn_record(entry=playing[0], number=1, counts=(5, 9, 5, 7))
    with pytest.raises(ServiceError, match="Someone else changed"):
        services.turn_delete(turn=turn, revision=7)
    services.turn_delete(turn=turn, revision=1)
    assert not Turn.objects.exists()
    assert Turn.history.filter(history_type="-").count() == 1


def test_bonus_discs_count_only_with_the_bonus_rule(event):
    plain = PlayingEntryFactory(competition=SjoelenFactory(event=event))
    with pytest.raises(ServiceError, match=rules.BONUS_OFF):
        services.turn_record(
            entry=plain, number=1, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=2
        )
    bonus = PlayingEntryFactory(
        competition=SjoelenFactory(
            event=event, settings={"games": 5, "boards": 2, "bonus_disc": True}
        )
    )
    turn = services.turn_record(
        entry=bonus, number=1, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 0, 1), max_after=2
    )
    assert turn.score == 152
    with pytest.raises(ServiceError, match="earned 1 bonus disc"):
        services.turn_record(
            entry=bonus, number=2, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 1, 1), max_after=2
        )
    with pytest.raises(ServiceError, match="Only a score of 148"):
        services.turn_record(
            entry=bonus, number=2, counts=(5, 9, 5, 7), bonus_counts=(0, 0, 0, 1), max_after=1
        )


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


# --- the board rota (selectors) ---------------------------------------------------------------


def test_the_rota_follows_check_in_order_and_late_comers_move_nobody(sjoelen, playing):
    from events.services import entry_check_in
    from shuffleboard.selectors import rota_for_competition

    rota = rota_for_competition(sjoelen)
    assert [p.entry for p in rota.players] == playing
    assert [p.boards[:3] for p in rota.players] == [[1, 2, 3], [2, 3, 4], [3, 4, 1], [4, 1, 2]]
    before = {p.entry.pk: p.boards for p in rota.players}
    late = EntryFactory(competition=sjoelen)
    assert [e.pk for e in rota_for_competition(sjoelen).unplaced] == [late.pk]
    entry_check_in(entry=late)
    entry_withdraw(entry=playing[1])
    rota = rota_for_competition(sjoelen)
    assert {p.entry.pk: p.boards for p in rota.players if p.entry != late} == before
    assert rota.players[-1].entry == late and rota.players[-1].boards[0] == 1
    assert playing[1].pk not in [p.entry.pk for p in rota.active]
    assert [len(board) for board in rota.table(1)] == [2, 0, 1, 1]  # the withdrawn seat stays free


def test_the_queue_offers_the_lowest_game_first(sjoelen, playing):
    from shuffleboard.selectors import rota_for_competition

    services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 0))
    rota = rota_for_competition(sjoelen)
    assert rota.current_game == 1
    # board 2: the second player's game 1 comes before the first player's game 2
    assert [(p.entry, p.next_number) for p in rota.queue(2)] == [(playing[1], 1), (playing[0], 2)]
    assert rota.by_entry(playing[0].pk).next_board == 2
    for entry in playing[1:]:
        services.turn_record(entry=entry, number=1, counts=(0, 0, 0, 0))
    assert rota_for_competition(sjoelen).current_game == 2
