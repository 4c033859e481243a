"""Drawing and starting rounds (``blokus.services.rounds``)."""

from __future__ import annotations

from blokus import services
from blokus.models import SessionPlayer
from tests.support.blokus import (
    record,
    seated_round,
    with_options,
)


def test_without_the_option_a_drop_out_stays_at_a_full_table(desk_client, event):
    competition = with_options(event, rounds_per_session=2)
    session = competition.sessions.get()
    first = seated_round(competition, session, 8)
    for game in first.games.all():
        record(game, [0, 1, 2, 3])
    sp = SessionPlayer.objects.filter(session=session, role="seated").first()
    services.session_drop_out(session_player=sp)
    second = services.round_draw(session=session, seed=2)
    assert [g.seats.count() for g in second.games.all()] == [4, 4]
