"""One board plan for the rota, the next game and the standings (``shuffleboard.selectors
.boards``): the plain rota with seating apart off, ``seat_in_order`` with it on, clubs and groups
folded, the same seed giving the same plan, a later player moving nobody."""

from __future__ import annotations

import pytest

from shuffleboard import rules
from shuffleboard.format import SjoelenSettings
from shuffleboard.selectors.boards import apart, boards_of


def test_off_is_the_plain_rota_one_board_on_per_game():
    plan = boards_of([("", "")] * 5, 2, 3, apart=False, seed=1)
    rota = rules.board_rota(range(5), 2, 3)
    assert plan == [[1, 2, 1], [2, 1, 2], [1, 2, 1], [2, 1, 2], [1, 2, 1]]
    for game, at_board in enumerate(rota):
        for board, players in enumerate(at_board, start=1):
            assert all(plan[p][game] == board for p in players)


def test_on_parts_a_club_however_it_is_written_and_a_family():
    wishes = [("Tartu", ""), (" tartu", ""), ("", "Sööt"), ("", "SÖÖT "), ("", ""), ("", "")]
    plan = boards_of(wishes, 3, 4, apart=True, seed=7)
    for game in range(4):
        assert plan[0][game] != plan[1][game] and plan[2][game] != plan[3][game]
        assert sorted(plan[p][game] for p in range(6)) == [1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("seed", [1, 2, 99])
def test_on_a_later_player_moves_nobody_and_the_seed_decides(seed):
    wishes = [("Uppsala" if i % 3 == 0 else "", "") for i in range(9)]
    plan = boards_of(wishes, 4, 5, apart=True, seed=seed)
    assert boards_of(wishes[:6], 4, 5, apart=True, seed=seed) == plan[:6]
    assert boards_of(wishes, 4, 5, apart=True, seed=seed) == plan


def test_apart_reads_the_setting():
    assert not apart(SjoelenSettings())
    assert apart(SjoelenSettings(seating_apart="every_round"))
    assert not apart(SjoelenSettings(seating_apart="first_round"))  # not a sjoelen mode
