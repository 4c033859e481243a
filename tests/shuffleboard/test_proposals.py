"""Sjoelen games entered by players at the board: shuffleboard/proposals.py through
the shared events/services/proposals.py, and the board page and the desk's list through real
requests."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.errors import Conflict, Forbidden, NotFound, Refused
from events.models import Correction, ResultProposal
from events.services import AlreadySubmitted, proposals as shared
from shuffleboard import proposals
from shuffleboard.models import Turn
from tests.support.shuffleboard import (
    ProposalStatus,
    proposal_payload,
    submit_proposal,
    turn_on,
)


def test_the_board_code_differs_per_board_and_competition(board):
    competition, _ = board
    code = proposals.board_code(competition, 1)
    assert len(code) == 5 and set(code) <= set(shared.CODE_ALPHABET)
    assert code != proposals.board_code(competition, 2)
    assert code != proposals.board_code(competition.pk + 1, 1)


def test_a_game_proposed_then_confirmed_by_another_player_is_entered(board):
    competition, (a, b, *_rest) = board
    proposal = submit_proposal(competition, a, proposal_payload(a))
    assert proposal.status == ProposalStatus.PROPOSED
    assert not Turn.objects.exists()
    with pytest.raises(Refused):
        shared.proposal_confirm(
            proposal=proposal, entry=a, code=proposals.board_code(competition, 1), revision=0
        )
    done = shared.proposal_confirm(
        proposal=proposal, entry=b, code=proposals.board_code(competition, 1), revision=0
    )
    assert done.status == ProposalStatus.ACCEPTED and done.confirmed_by == b
    turn = Turn.objects.get(entry=a, number=1)
    assert turn.score == 116 and turn.board == 1
    trail = Correction.objects.filter(competition=competition, entry=a)
    assert any("confirmed by" in c.note for c in trail)


def test_a_different_version_is_a_conflict_for_the_desk(board, organiser):
    competition, (a, b, *_rest) = board
    first = submit_proposal(competition, a, proposal_payload(a))
    second = submit_proposal(competition, b, proposal_payload(a, counts=(7, 7, 7, 9)))
    first.refresh_from_db()
    assert first.status == second.status == ProposalStatus.CONFLICT
    shared.proposal_reject(proposal=first, revision=first.revision, by=organiser)
    second.refresh_from_db()
    assert second.status == ProposalStatus.PROPOSED
    shared.proposal_accept(proposal=second, revision=second.revision, by=organiser)
    assert Turn.objects.get(entry=a, number=1).score == 148


def test_wrong_board_code_and_strangers_are_refused(board):
    competition, (a, b, *_rest) = board
    with pytest.raises(Forbidden):
        submit_proposal(competition, a, proposal_payload(a), code="XXXXX")
    with pytest.raises(Forbidden):  # another player cannot start someone's game
        submit_proposal(competition, b, proposal_payload(a))
    assert not ResultProposal.objects.exists()


def test_setting_off_and_games_entered_are_refused(board):
    competition, (a, *_rest) = board
    submit_proposal(competition, a, proposal_payload(a, number=2))
    Turn.objects.create(entry=a, number=1, c1=0, c2=0, c3=0, c4=0, score=0)
    with pytest.raises(Conflict):
        submit_proposal(competition, a, proposal_payload(a))
    turn_on(competition, False)
    with pytest.raises(NotFound):
        submit_proposal(competition, a, proposal_payload(a, number=3))


def test_a_replayed_submission_key_creates_nothing(board):
    competition, (a, *_rest) = board
    submit_proposal(competition, a, proposal_payload(a), submission="k" * 32)
    with pytest.raises(AlreadySubmitted):
        submit_proposal(
            competition, a, proposal_payload(a, counts=(1, 1, 1, 1)), submission="k" * 32
        )
    assert ResultProposal.objects.count() == 1


def test_the_desk_accepts_an_edited_game(board, desk_client):
    competition, (a, *_rest) = board
    proposal = submit_proposal(competition, a, proposal_payload(a))
    response = desk_client.post(
        reverse(
            "events:proposal_accept", args=[competition.event.slug, competition.slug, proposal.pk]
        ),
        {
            "revision": proposal.revision,
            "edit": "1",
            "edit-gate1": 7,
            "edit-gate2": 7,
            "edit-gate3": 7,
            "edit-gate4": 9,
        },
    )
    assert response.status_code == 302
    assert Turn.objects.get(entry=a, number=1).score == 148


def test_a_conflict_reaches_the_desk_side_by_side(board, desk_client):
    competition, (a, b, *_rest) = board
    first = submit_proposal(competition, a, proposal_payload(a))
    second = submit_proposal(competition, b, proposal_payload(a, counts=(7, 7, 7, 9)))
    other = submit_proposal(
        competition, b, proposal_payload(b, number=2)
    )  # another game: not part of it
    page = desk_client.get(
        reverse("events:proposals", args=[competition.event.slug, competition.slug])
    ).content.decode()
    conflicts = page.split('id="conflicts"')[1].split('id="waiting"')[0]
    assert f"proposal-{first.pk}" in conflicts and f"proposal-{second.pk}" in conflicts
    assert f"proposal-{other.pk}" not in conflicts and "<mark>" in conflicts
