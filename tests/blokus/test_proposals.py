"""Blokus's part of results sent from the players' phones (``blokus.proposals``): the payload's
hands, who may send, the result applied through the desk's service, and the trail's words."""

from __future__ import annotations

import pytest

from blokus import proposals
from blokus.services import HandInput
from events.errors import Forbidden, Invalid
from events.models import Game, ResultProposal
from events.services import proposals as shared
from tests.support.blokus import seated_round, small
from tests.support.factories import EntryFactory


@pytest.fixture
def table(event):
    """A table of four in a competition that takes results from the players."""
    competition = small(event, results_from_players=True)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    return competition, game


def hands(game, squares=(0, 1, 2, 3)):
    seats = game.seats.order_by("position").values_list("pk", flat=True)
    return {"hands": [[pk, n, int(n == 0)] for pk, n in zip(seats, squares, strict=True)]}


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"hands": "all"},
        {"hands": [[1, 0, 0]] * 3},
        {"hands": [[1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 0]]},
        {"hands": [[1, 0, 0], [2, 0, 0], [3, 0, 0], [4, "5", 0]]},
        {"hands": [[1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 90, 0]]},
    ],
)
def test_anything_but_four_hands_of_whole_numbers_is_refused(payload):
    with pytest.raises(Invalid) as refused:
        proposals.hands_of(payload)
    assert refused.value.code == "bad_payload"


def test_hands_travel_as_a_payload_and_back():
    given = [HandInput(11, 0, True), HandInput(12, 5, False)]
    payload = proposals.payload_of(given)
    assert payload == {"hands": [[11, 0, 1], [12, 5, 0]]}
    assert proposals.hands_of({"hands": payload["hands"] * 2})[:2] == given


def test_two_players_agreeing_enter_the_result_with_its_scores(table):
    competition, game = table
    first, second = (s.entry for s in game.seats.order_by("position")[:2])
    sent = shared.proposal_submit(
        game=game, entry=first, code=shared.table_code(game), payload=hands(game)
    )
    assert sent.status == ResultProposal.Status.PROPOSED
    shared.proposal_submit(
        game=game, entry=second, code=shared.table_code(game), payload=hands(game)
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert list(game.seats.order_by("position").values_list("score", flat=True)) == [5, -1, -2, -3]
    assert proposals.result_text(game, hands(game)) == "+5 / -1 / -2 / -3"


def test_only_a_player_at_the_table_may_send(table):
    competition, game = table
    stranger = EntryFactory(competition=competition)
    with pytest.raises(Forbidden) as refused:
        shared.proposal_submit(
            game=game, entry=stranger, code=shared.table_code(game), payload=hands(game)
        )
    assert refused.value.code == "not_at_table"


def test_a_hand_the_rules_refuse_is_refused_with_the_desks_check(table):
    competition, game = table
    first = game.seats.get(position=1).entry
    payload = hands(game, squares=(3, 1, 2, 3))
    payload["hands"][0][2] = 1  # monomino last with 3 squares left
    with pytest.raises(Invalid):
        shared.proposal_submit(
            game=game, entry=first, code=shared.table_code(game), payload=payload
        )
    assert not ResultProposal.objects.exists()


def test_the_trail_names_the_session_round_and_table(table):
    competition, game = table
    assert proposals.game_label(game) == "Qualifying session 1, round 1, Table 1"
