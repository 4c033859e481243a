"""Recording a game (``shuffleboard.services.turns``): the derived score and the refusals."""

from __future__ import annotations

import pytest

from events.errors import Conflict, Invalid, Refused
from events.models import Competition
from events.services import entry_withdraw
from shuffleboard import rules, selectors, services
from shuffleboard.models import Turn
from tests.support.factories import EntryFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, competition_version


def test_it_records_a_game_with_the_derived_score_and_starts_the_competition(playing, organiser):
    entry = playing[0]
    before = competition_version(entry.competition)
    turn = services.turn_record(
        entry=entry, number=1, counts=(5, 9, 5, 7), board=1, entered_by=organiser
    )
    assert turn.score == 116
    assert (turn.c1, turn.c2, turn.c3, turn.c4) == (5, 9, 5, 7)
    assert turn.entered_by == organiser
    assert turn.revision == 1
    entry.competition.refresh_from_db()
    assert entry.competition.status == Competition.Status.RUNNING
    assert competition_version(entry.competition) == before + 1


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
