"""The demo leaves a correspondence league in progress: 16 Dutch players, three tables."""

from __future__ import annotations

from django.utils import timezone

from events import services as event_services
from events.models import Competition
from roundrobin import demo, selectors
from roundrobin.demo import DUTCH
from roundrobin.models import GameDetail, PlayerToken, RatingChange, Turn
from tests.support.roundrobin import make_competition


def test_the_demo_starts_the_league_and_enters_part_of_the_results(event):
    competition = make_competition(event)
    for name, club, rating in DUTCH:
        entry = event_services.player_register_new(
            competition=competition, name=name, club=club, rating=rating
        )
        event_services.entry_check_in(entry=entry)
    demo.load(competition)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    tables = selectors.tables_for_competition(competition)
    assert [len(t.rows) for t in tables] == [6, 5, 5]
    assert [t.rows[0].entry.player.name for t in tables][0] in {n for n, _, _ in DUTCH[:6]}
    finished = GameDetail.objects.exclude(ending="").count()
    assert 24 <= finished < GameDetail.objects.count()
    assert RatingChange.objects.filter(competition=competition).exists()
    # The clock ran for five days: every running game has its current turn open, not expired,
    # a double timeout and a time loss happened, and every player has a private link.
    open_games = GameDetail.objects.filter(ending="").count()
    open_turns = Turn.objects.filter(closed_at__isnull=True)
    assert open_turns.count() == open_games
    assert not open_turns.filter(deadline__lt=timezone.now()).exists()
    assert Turn.objects.filter(first_missed=True, second_missed=True).exists()
    assert GameDetail.objects.filter(ending__endswith="lost_on_time").exists()
    assert PlayerToken.objects.filter(entry__competition=competition).count() == 16
