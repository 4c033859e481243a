"""The sjoelen reads: the board rota, the entry queue, the standings and their settings."""

from __future__ import annotations

import pytest

from events.services import competition_touch, entry_check_in, entry_withdraw
from shuffleboard import services
from shuffleboard.selectors import rota_for_competition, standings_for_competition
from tests.support.factories import EntryFactory


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


def test_the_standings_read_the_typed_settings(sjoelen, playing):
    services.turn_record(entry=playing[0], number=1, counts=(1, 1, 1, 1))
    services.turn_record(entry=playing[0], number=2, counts=(0, 0, 0, 0))
    services.turn_record(entry=playing[1], number=1, counts=(0, 0, 0, 4))
    by_total = standings_for_competition(sjoelen)
    assert [(r.place, r.name) for r in by_total.rows[:2]] == [(1, "Õie Sööt"), (2, "Jüri Tamm")]
    sjoelen.settings = {**sjoelen.settings, "ranking": "average", "tiebreaks": "none"}
    sjoelen.save()
    competition_touch(sjoelen)
    by_average = standings_for_competition(sjoelen)
    assert [(r.place, r.name) for r in by_average.rows[:2]] == [(1, "Jüri Tamm"), (2, "Õie Sööt")]


@pytest.mark.parametrize("stored", [{}, {"games": 3}])
def test_missing_settings_take_the_one_set_of_defaults(sjoelen, stored):
    sjoelen.settings = stored
    rota = rota_for_competition(sjoelen, with_turns=False)
    assert (rota.games, rota.boards) == (stored.get("games", 10), 4)
