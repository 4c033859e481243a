from __future__ import annotations

from blokus import demo, selectors
from events import services as event_services
from events.models import Game, Session


def test_the_demo_is_a_tournament_half_played(competition):
    for n in range(24):
        entry = event_services.player_register_new(competition=competition, name=f"Spelare {n}")
        if n < 14:
            event_services.entry_check_in(entry=entry)
    demo.load(competition)
    first, second = Session.objects.filter(competition=competition).order_by("number")
    view = selectors.session_view(first)
    assert len(view.seated_players) == 12 and len(view.reserves) == 2
    assert view.complete
    assert not Game.objects.filter(round__session=first).exclude(status="finished").exists()
    later = selectors.session_view(second)
    assert len(later.players) == 12 and not later.seated
    assert len(selectors.qualification_rows(competition)) == 12
