"""What a correction changes (``blokus.selectors.corrections``): the impact on each player's
session totals, the words the desk and the admin show, and the session's correction trail."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from blokus import selectors, services
from tests.support.blokus import record, seated_round, small


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "–"),
        (3, "3"),
        (Decimal("2.5"), "2½"),
        (Fraction(1, 2), "½"),
        (Decimal("0"), "0"),
    ],
)
def test_points_read_as_people_write_them(value, text):
    assert selectors.qp_text(value) == text


def test_scores_carry_their_sign():
    assert [selectors.signed_text(v) for v in (5, 0, -3, None)] == ["+5", "0", "-3", "–"]


@pytest.fixture
def two_rounds(event):
    """Round 1's table played (0 + monomino, 1, 2, 3 squares left), round 2 drawn."""
    competition = small(event, rounds=2)
    session = competition.sessions.get()
    game = seated_round(competition, session, 4).games.get()
    record(game, [0, 1, 2, 3])
    services.round_draw(session=session, seed=2)
    game.refresh_from_db()
    return session, game


def test_the_impact_names_who_moves_and_the_round_drawn_from_the_result(two_rounds):
    session, game = two_rounds
    first, second, third, fourth = game.seats.select_related("entry__player").order_by("position")
    # The last two swap: 3 squares left becomes 2 and 2 becomes 3.
    new = {third.pk: (-3, Fraction(0)), fourth.pk: (-2, Fraction(1))}
    impact = selectors.correction_impact(game, new, is_correction=True)
    assert impact.later_round == 2 and not impact.final_seated and impact.needs_confirmation
    moved = {c.entry.pk: (c.total_before, c.total_after) for c in impact.changes}
    assert moved == {
        third.entry_id: (Fraction(1), Fraction(0)),
        fourth.entry_id: (Fraction(0), Fraction(1)),
    }
    text = impact.text
    assert text.startswith("Round 2 was grouped from this result; ")
    assert f"{fourth.entry.player.name} moves from 0 to 1 qualifying points" in text
    assert "total score from -3 to -2" in text
    assert text.endswith("the groups already drawn stay as they are.")


def test_an_unchanged_result_moves_nobody_and_a_first_entry_needs_no_confirmation(two_rounds):
    session, game = two_rounds
    seats = list(game.seats.order_by("position"))
    same = {s.pk: (s.score, Fraction(s.points)) for s in seats}
    impact = selectors.correction_impact(game, same, is_correction=True)
    assert impact.changes == [] and "nobody's points change" in impact.text
    first_time = selectors.correction_impact(game, same, is_correction=False)
    assert not first_time.needs_confirmation


def test_the_trail_lists_the_sessions_corrections_and_the_games_they_touched(two_rounds, organiser):
    session, game = two_rounds
    assert selectors.session_corrections(session) == []
    record(game, [0, 1, 3, 2], confirm_later_round=True, by=organiser)
    third, fourth = game.seats.order_by("position")[2:]
    corrections = selectors.session_corrections(session)
    # One line per player whose result moved, neither undone.
    assert {c.entry_id for c in corrections} == {third.entry_id, fourth.entry_id}
    assert not any(c.is_undone for c in corrections)
    assert selectors.corrected_games(corrections) == {game.pk}
