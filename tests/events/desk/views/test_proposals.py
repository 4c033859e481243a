"""The desk's page of results from players (events/desk/views/proposals.py): what waits, accept
as sent or as corrected, reject with a note, for the event's scorekeepers; a competition whose
format takes no results from players has no such page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.models import EventRole, ResultProposal
from shuffleboard.models import Turn
from tests.support.factories import CompetitionFactory, UserFactory
from tests.support.shuffleboard import (
    ProposalStatus,
    four_playing,
    proposal_payload,
    sjoelen_in,
    submit_proposal,
    turn_on,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(event):
    """A sjoelen night taking results from players, with one game of the first player sent."""
    competition = sjoelen_in(event)
    turn_on(competition)
    first, *_others = four_playing(competition)
    proposal = submit_proposal(competition, first, proposal_payload(first))
    return competition, first, proposal


def _url(competition, name="proposals", *args):
    return reverse(f"events:{name}", args=[competition.event.slug, competition.slug, *args])


def test_the_page_lists_what_waits(desk_client, waiting):
    competition, _first, proposal = waiting
    page = desk_client.get(_url(competition))
    assert page.status_code == 200
    assert f"proposal-{proposal.pk}" in page.content.decode()


def test_accepting_applies_the_result_and_goes_back_to_the_list(desk_client, waiting):
    competition, first, proposal = waiting
    answer = desk_client.post(
        _url(competition, "proposal_accept", proposal.pk), {"revision": proposal.revision}
    )
    assert answer.status_code == 302 and answer["Location"] == _url(competition)
    assert ResultProposal.objects.get(pk=proposal.pk).status == ProposalStatus.ACCEPTED
    assert Turn.objects.get(entry=first, number=1).score == 116


def test_a_stale_revision_is_refused_on_the_page_and_nothing_applied(desk_client, waiting):
    competition, first, proposal = waiting
    answer = desk_client.post(
        _url(competition, "proposal_accept", proposal.pk), {"revision": proposal.revision + 5}
    )
    assert answer.status_code >= 400
    assert not Turn.objects.filter(entry=first, number=1).exists()


def test_rejecting_keeps_the_note_and_applies_nothing(desk_client, waiting):
    competition, first, proposal = waiting
    answer = desk_client.post(
        _url(competition, "proposal_reject", proposal.pk),
        {"revision": proposal.revision, "note": "Wrong board"},
    )
    assert answer.status_code == 302
    rejected = ResultProposal.objects.get(pk=proposal.pk)
    assert rejected.status == ProposalStatus.REJECTED
    assert not Turn.objects.filter(entry=first, number=1).exists()


def test_unknown_proposals_and_revisions_are_404(desk_client, waiting):
    competition, _first, proposal = waiting
    assert (
        desk_client.post(_url(competition, "proposal_accept", 999_999), {"revision": 1}).status_code
        == 404
    )
    bad = desk_client.post(_url(competition, "proposal_reject", proposal.pk), {"revision": "x"})
    assert bad.status_code == 404


def test_a_scorekeeper_may_decide_and_an_outsider_may_not(client, waiting, outsider):
    competition, _first, proposal = waiting
    keeper = UserFactory(username="keeper")
    EventRole.objects.create(event=competition.event, user=keeper, role="scorekeeper")
    client.force_login(outsider)
    assert client.get(_url(competition)).status_code == 403
    client.force_login(keeper)
    assert client.get(_url(competition)).status_code == 200


def test_a_format_without_results_from_players_has_no_such_page(desk_client, event):
    other = CompetitionFactory(event=event, slug="other", format="roundrobin", settings={})
    assert desk_client.get(_url(other)).status_code == 404
