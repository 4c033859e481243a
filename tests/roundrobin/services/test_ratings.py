"""Tests of roundrobin/services/ratings.py: the competition's rating log."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from hypothesis import HealthCheck, given, settings, strategies as st

from events.models import Competition, Game, Player, Seat
from roundrobin import rules, selectors, services
from roundrobin.models import GameDetail, RatingChange, RatingSnapshot
from tests.support.roundrobin import (
    HOUR,
    START,
    enter_players,
    make_competition,
    play,
    started_duel,
)


def test_an_unrated_competition_changes_no_rating(event):
    duel = started_duel(event, "friendly", rated=False)
    competition, (a, b) = duel.competition, duel.entries
    play(competition, b, a)
    assert not RatingChange.objects.exists()
    assert Player.objects.get(pk=a.player_id).rating == 2000


def test_a_correction_recomputes_later_rating_changes(started, sixteen):
    a, b, c = sixteen[:3]
    first = play(started, a, b, at=START + HOUR)
    play(started, b, c, at=START + 2 * HOUR)
    play(started, a, c, at=START + 3 * HOUR)
    # The first result was wrong: b won.
    first.refresh_from_db()
    white = Seat.objects.get(game=first, position=1).entry_id
    services.game_result_record(
        competition=started,
        game_id=first.pk,
        result="0-1" if white == a.pk else "1-0",
        revision=first.revision,
        now=START + 5 * HOUR,
        confirmed=True,
    )
    # The same chain computed by hand from the snapshot, in finish order.
    r = {a.pk: 2000, b.pk: 1980, c.pk: 1960}

    def apply(x, y, score):
        dx, dy = rules.rating_changes(r[x], r[y], score, 20, 20)
        r[x] += dx
        r[y] += dy

    apply(b.pk, a.pk, 1)
    apply(b.pk, c.pk, 1)
    apply(a.pk, c.pk, 1)
    for entry in (a, b, c):
        assert Player.objects.get(pk=entry.player_id).rating == r[entry.pk]
        assert Player.objects.get(pk=entry.player_id).rated_games == 42
    assert GameDetail.objects.get(game=first).ended_at == START + HOUR
    assert RatingChange.objects.filter(competition=started).count() == 6


def test_rated_games_count_each_game_once_after_corrections(started, sixteen):
    a, b = sixteen[:2]
    game = play(started, a, b)
    for revision, result in ((1, "0-1"), (2, "1/2-1/2"), (3, "1-0")):
        services.game_result_record(
            competition=started, game_id=game.pk, result=result, revision=revision, confirmed=True
        )
    assert Player.objects.get(pk=a.player_id).rated_games == 41
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_rating_change_bumps_the_other_competitions_of_those_players(event):
    from tests.support.factories import EntryFactory

    duel = started_duel(event, "here", seed=3)
    here, (a, b) = duel.competition, duel.entries
    elsewhere = make_competition(event, slug="elsewhere")
    EntryFactory(competition=elsewhere, player=a.player)
    unrelated = make_competition(event, slug="unrelated")
    enter_players(unrelated, 2)
    before = {c.slug: c.version for c in Competition.objects.all()}
    play(here, a, b)
    after = {c.slug: c.version for c in Competition.objects.all()}
    assert after["elsewhere"] > before["elsewhere"]
    assert after["unrelated"] == before["unrelated"]


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
