"""Properties of the services under random play: results, corrections and a withdrawal in any
order leave table points and the rating log consistent, and the incremental rating updates
equal a full recomputation from the snapshot."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from hypothesis import HealthCheck, given, settings, strategies as st

from events.models import Game, Player
from roundrobin import selectors, services
from roundrobin.models import RatingChange, RatingSnapshot
from tests.support.roundrobin import START, enter_players, make_competition

RESULTS = ["1-0", "1/2-1/2", "0-1"]
counter = iter(range(10**6))


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    size=st.integers(min_value=3, max_value=6),
    moves=st.lists(
        st.tuples(st.integers(min_value=0, max_value=40), st.sampled_from(RESULTS)),
        min_size=1,
        max_size=25,
    ),
    withdraw=st.one_of(st.none(), st.tuples(st.integers(0, 5), st.integers(0, 25))),
)
def test_random_play_keeps_points_and_ratings_consistent(event, size, moves, withdraw):
    competition = make_competition(event, slug=f"p{next(counter)}")
    entries = enter_players(competition, size, first_rating=1700, step=37)
    services.competition_start(competition=competition, seed=size, now=START)
    for step, (index, result) in enumerate(moves):
        competition.refresh_from_db(fields=["status"])
        if withdraw and withdraw[1] == step and competition.status == "running":
            services.entry_withdraw(
                entry=entries[withdraw[0] % size], now=START + dt.timedelta(hours=step, minutes=30)
            )
        games = list(
            Game.objects.filter(round__session__competition=competition)
            .select_related("rr_detail")
            .order_by("round__number", "number")
        )
        game = games[index % len(games)]
        if game.rr_detail.ending in ("withdrawal_forfeit", "cancelled"):
            continue
        services.game_result_record(
            competition=competition,
            game_id=game.pk,
            result=result,
            revision=game.revision,
            now=START + dt.timedelta(hours=step + 1),
            confirmed=True,
        )

    table = selectors.tables_for_competition(competition)[0]
    counted = [g for g in table.games if g.has_result and not g.detail.struck]
    assert sum(table.points.values()) == len(counted)

    ratings = {e.pk: Player.objects.get(pk=e.player_id).rating for e in entries}
    games = {e.pk: Player.objects.get(pk=e.player_id).rated_games for e in entries}
    changes = defaultdict(list)
    for change in RatingChange.objects.filter(competition=competition):
        changes[change.entry_id].append(change.change)
    for snapshot in RatingSnapshot.objects.filter(entry__competition=competition):
        assert ratings[snapshot.entry_id] == snapshot.rating + sum(changes[snapshot.entry_id])
        assert games[snapshot.entry_id] == snapshot.rated_games + len(changes[snapshot.entry_id])

    services.competition_recompute(competition=competition)
    assert ratings == {e.pk: Player.objects.get(pk=e.player_id).rating for e in entries}
    assert games == {e.pk: Player.objects.get(pk=e.player_id).rated_games for e in entries}
