"""Results from players (``events.models.proposals``): a proposal is open until the desk or its
player decides it."""

from __future__ import annotations

from events.models import ResultProposal
from events.models.proposals import PROPOSALS_OPEN, ProposalStatus


def test_a_proposal_is_open_until_it_is_decided():
    opened = {status for status in ProposalStatus.values if ResultProposal(status=status).is_open}
    assert opened == {"proposed", "conflict", "confirmed"} == set(PROPOSALS_OPEN)
