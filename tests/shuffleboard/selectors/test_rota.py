"""The board rota (``shuffleboard.selectors.rota``): check-in order, the queue, the next game and
the settings' defaults."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from events.models import Entry
from events.services import entry_check_in, entry_withdraw
from shuffleboard import selectors, services
from shuffleboard.models import Turn
from shuffleboard.selectors import rota_for_competition
from tests.support.factories import EntryFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, TurnFactory


def test_the_rota_follows_check_in_order_and_late_comers_move_nobody(sjoelen, playing):
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
    services.turn_record(entry=playing[0], number=1, counts=(0, 0, 0, 0))
    rota = rota_for_competition(sjoelen)
    assert rota.current_game == 1
    # board 2: the second player's game 1 comes before the first player's game 2
    assert [(p.entry, p.next_number) for p in rota.queue(2)] == [(playing[1], 1), (playing[0], 2)]
    assert rota.by_entry(playing[0].pk).next_board == 2
    for entry in playing[1:]:
        services.turn_record(entry=entry, number=1, counts=(0, 0, 0, 0))
    assert rota_for_competition(sjoelen).current_game == 2


@pytest.mark.parametrize("stored", [{}, {"games": 3}])
def test_missing_settings_take_the_one_set_of_defaults(sjoelen, stored):
    sjoelen.settings = stored
    rota = rota_for_competition(sjoelen, with_turns=False)
    assert (rota.games, rota.boards) == (stored.get("games", 10), 4)


@pytest.mark.django_db
@hsettings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    players=st.integers(1, 7),
    boards=st.integers(1, 5),
    entered=st.lists(st.tuples(st.integers(0, 6), st.integers(1, 4)), max_size=12),
    apart=st.booleans(),
    clubs=st.lists(st.sampled_from(["", "Tartu", "tartu ", "Uppsala"]), min_size=7, max_size=7),
)
def test_the_next_game_is_the_rotas(players, boards, entered, apart, clubs):
    """For any players, boards, clubs and games entered, boards kept apart or not:
    ``next_game`` (computed without the whole rota) and the standings' next games are the
    rota's next game and board for every player."""
    with transaction.atomic():
        point = transaction.savepoint()
        mode = "every_round" if apart else "off"
        competition = SjoelenFactory(
            settings={"games": 4, "boards": boards, "bonus_disc": False, "seating_apart": mode}
        )
        start = timezone.now()
        entries = [
            PlayingEntryFactory(
                competition=competition,
                checked_in_at=start + dt.timedelta(seconds=i // 2),  # some at the same moment
                player__club=clubs[i],
            )
            for i in range(players)
        ]
        for index, number in entered:
            if index < players:
                if not Turn.objects.filter(entry=entries[index], number=number).exists():
                    TurnFactory(entry=entries[index], number=number)
        rota = selectors.rota_for_competition(competition)
        for entry in Entry.objects.filter(competition=competition).select_related("competition"):
            player = rota.by_entry(entry.pk)
            expected = (
                None if player.next_number is None else (player.next_number, player.next_board)
            )
            assert selectors.next_game(entry) == expected
            assert (
                selectors.standings_for_competition(competition).next_games.get(entry.pk)
                == expected
            )
        transaction.savepoint_rollback(point)


def test_boards_kept_apart_part_clubs_and_a_late_comer_moves_nobody(sjoelen):
    sjoelen.settings = {**sjoelen.settings, "games": 5, "boards": 3, "seating_apart": "every_round"}
    sjoelen.save(update_fields=["settings"])
    start = timezone.now() - dt.timedelta(hours=1)
    clubs = ["Tartu", "Tartu", "Tartu", "Uppsala", "uppsala ", "Uppsala", "", ""]
    entries = [
        PlayingEntryFactory(
            competition=sjoelen,
            checked_in_at=start + dt.timedelta(seconds=i),
            player__club=club,
        )
        for i, club in enumerate(clubs)
    ]
    rota = rota_for_competition(sjoelen)
    for number in rota.game_numbers:
        for players in rota.table(number):
            seated = [p.entry.player.club.strip().lower() for p in players]
            assert all(seated.count(c) == 1 for c in seated if c)  # no club twice at a board
    before = {p.entry.pk: p.boards for p in rota.players}
    late = EntryFactory(competition=sjoelen, player__club="Tartu")
    entry_check_in(entry=late)
    after = rota_for_competition(sjoelen)
    assert {p.entry.pk: p.boards for p in after.players if p.entry != late} == before
    assert len(after.by_entry(late.pk).boards) == 5
    assert entries[0].pk in before
