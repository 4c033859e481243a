"""The desk's link to the players' results (``blokus.templatetags.blokus_proposals``)."""

from __future__ import annotations

from blokus.templatetags import blokus_proposals
from events.services import proposals as shared
from tests.support.blokus import seated_round, small


def test_the_table_code_is_the_one_the_service_checks(event):
    competition = small(event)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    assert (
        blokus_proposals.table_code(game) == shared.table_code(game) == shared.table_code(game.pk)
    )


def test_the_link_counts_what_waits_and_is_off_without_the_setting(event):
    off = small(event, slug="off")
    assert blokus_proposals.proposals_link(off)["enabled"] is False
    competition = small(event, results_from_players=True)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    first = game.seats.get(position=1).entry
    seats = list(game.seats.order_by("position").values_list("pk", flat=True))
    payload = {"hands": [[pk, n, int(n == 0)] for pk, n in zip(seats, [0, 1, 2, 3], strict=True)]}
    shared.proposal_submit(game=game, entry=first, code=shared.table_code(game), payload=payload)
    link = blokus_proposals.proposals_link(competition)
    assert link["enabled"] is True
    assert (link["proposed"], link["conflict"], link["confirmed"]) == (1, 0, 0)
