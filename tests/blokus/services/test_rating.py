"""The Blokus rating's writer: every result write recomputes the rating from its game
on, a correction changes the later steps exactly as a recompute from scratch would, and every
table with a result is rated (three-handed, the final and its replays); real database."""

from __future__ import annotations

import datetime as dt
import functools
import os

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blokus import rules, services
from blokus.models import RatingStep, SessionPlayer
from blokus.services.rating import game_order_key
from events.models import Competition, Game, Round, Session
from tests.support.blokus import played, record, seated_round, snapshot
from tests.support.factories import CompetitionFactory, EventFactory
from tests.support.races import postgres_only, run_together

SETTINGS = {
    "qualifying_sessions": 1,
    "capacity": 12,
    "rounds_per_session": 3,
    "round_minutes": 15,
    "official_bonus": False,
}


def blokus(event, slug="rated", **settings) -> Competition:
    competition = CompetitionFactory(event=event, slug=slug, settings={**SETTINGS, **settings})
    services.sessions_set_up(
        competition=competition, roll_calls=[None] * competition.options.qualifying_sessions
    )
    return competition


def first_game(competition) -> Game:
    return Game.objects.get(round__session__competition=competition, round__number=1, number=1)


def test_every_result_rates_its_table_in_order(event):
    competition = played(event, players=8, rounds=3)
    steps = snapshot()
    assert len(steps) == 8 * 3  # every player, every round
    keys = [step[2] for step in steps]
    assert keys == sorted(keys)
    by_player: dict[int, list[tuple]] = {}
    for step in steps:
        by_player.setdefault(step[0], []).append(step)
    for chain in by_player.values():
        assert chain[0][3:5] == rules.DEFAULT_RATING
        for earlier, later in zip(chain, chain[1:], strict=False):
            assert later[3:5] == earlier[5:7]  # each game starts where the last one ended
        assert all(s[7] == pytest.approx(rules.conservative(s[5], s[6])) for s in chain)
    game = first_game(competition)
    assert RatingStep.objects.filter(game=game).count() == 4


def test_a_correction_in_an_early_game_recomputes_the_later_steps(event):
    competition = played(event, players=8, rounds=3)
    before = snapshot()
    game = first_game(competition)
    later = RatingStep.objects.filter(game__round__number=3).values_list("mu_after", flat=True)
    later_before = sorted(later.all())
    seats = list(game.seats.order_by("position"))
    current = {s.pk: s.score for s in seats}
    reversed_squares = (
        [0, 5, 10, 20] if current[seats[0].pk] <= current[seats[3].pk] else [20, 10, 5, 0]
    )
    record(game, reversed_squares, confirm_later_round=True)
    after = snapshot()
    assert len(after) == len(before)
    assert after != before
    assert sorted(later.all()) != later_before  # round 3 followed the correction of round 1
    # the incremental recompute equals a recompute from scratch
    RatingStep.objects.all().delete()
    assert services.rating_recompute() == len(after)
    assert snapshot() == after


def test_recompute_is_idempotent(event):
    competition = played(event, players=8, rounds=2)
    steps = snapshot()
    assert services.rating_recompute() == len(steps)
    assert snapshot() == steps
    assert services.rating_recompute(from_game=first_game(competition)) == len(steps)
    assert snapshot() == steps
    last = Game.objects.filter(round__number=2).order_by("number").last()
    assert services.rating_recompute(from_game=last) == 4
    assert snapshot() == steps


def test_a_recompute_that_changes_nothing_bumps_no_version(event):
    competition = played(event, players=8, rounds=2)
    version = Competition.objects.get(pk=competition.pk).version
    services.rating_recompute()
    assert Competition.objects.get(pk=competition.pk).version == version


def test_a_result_that_moves_a_later_events_ratings_bumps_that_event(organiser):
    """The later event's pages draw its players' ratings (the rating charts): an earlier
    event's result entered afterwards changes them, so their cached pages must go."""
    autumn_event = EventFactory(
        slug="au", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 9, 2)
    )
    spring_event = EventFactory(
        slug="sp", starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2)
    )
    autumn = played(autumn_event, players=4, rounds=1, slug="autumn")
    spring = blokus(spring_event, slug="spring", rounds_per_session=1)
    other = played(spring_event, players=4, rounds=1, slug="other")  # nobody of autumn plays
    session = spring.sessions.get()
    for entry in autumn.entries.order_by("pk"):
        sp = services.session_register(
            session=session, entry=spring.entries.create(player=entry.player)
        )
        services.session_check_in(session_player=sp)
    services.session_seat(session=session)
    game = services.round_draw(session=session, seed=3).games.get()
    versions = dict(Competition.objects.values_list("pk", "version"))
    record(game, [0, 1, 2, 3])
    after = dict(Competition.objects.values_list("pk", "version"))
    assert after[autumn.pk] > versions[autumn.pk]
    assert after[other.pk] == versions[other.pk]  # its steps are the same rows as before


def test_a_three_handed_table_is_rated_and_a_drop_out_is_not(event):
    competition = blokus(event, rounds_per_session=2, three_handed_after_dropout=True)
    session = competition.sessions.get()
    for game in seated_round(competition, session, 8).games.all():
        record(game, [0, 1, 2, 3])
    gone = SessionPlayer.objects.filter(session=session, role="seated").first()
    services.session_drop_out(session_player=gone)
    second = services.round_draw(session=session, seed=2)
    three = second.games.get(number=2)
    assert three.seats.count() == 3
    record(three, [0, 4, 9])
    steps = {s.player_id: s for s in RatingStep.objects.filter(game=three)}
    assert len(steps) == 3
    winner, *_ = sorted(three.seats.all(), key=lambda s: -s.score)
    assert steps[winner.entry.player_id].mu_after > steps[winner.entry.player_id].mu_before
    assert not RatingStep.objects.filter(game__round=second, player=gone.entry.player).exists()


def test_a_drop_out_at_a_full_table_is_left_out_of_its_rating(event):
    competition = blokus(event, rounds_per_session=2)
    session = competition.sessions.get()
    for game in seated_round(competition, session, 8).games.all():
        record(game, [0, 1, 2, 3])
    gone = SessionPlayer.objects.filter(session=session, role="seated").first()
    services.session_drop_out(session_player=gone)
    second = services.round_draw(session=session, seed=2)
    table = second.games.get(seats__entry=gone.entry)
    squares = [
        89 if s.entry_id == gone.entry_id else n
        for s, n in zip(table.seats.order_by("position"), [0, 1, 2, 3], strict=True)
    ]
    record(table, squares)
    assert RatingStep.objects.filter(game=table).count() == 3
    assert not RatingStep.objects.filter(game=table, player=gone.entry.player).exists()


def test_the_final_and_its_replay_are_rated_and_a_tie_shares_a_rank(event):
    competition = blokus(event, rounds_per_session=1, final_replays=1)
    session = competition.sessions.get()
    record(seated_round(competition, session, 4).games.get(), [0, 1, 2, 3])
    final = Game.objects.get(round__session=services.final_seat(competition=competition, seed=5))
    record(final, [3, 3, 5, 7])
    tied = [s.entry.player_id for s in final.seats.order_by("position")[:2]]
    steps = {s.player_id: s for s in RatingStep.objects.filter(game=final)}
    assert len(steps) == 4
    a, b = (steps[p] for p in tied)
    assert (a.mu_after - a.mu_before) == pytest.approx(b.mu_after - b.mu_before, abs=2.0)
    replay = Game.objects.get(round__session__kind=Session.Kind.FINAL, round__number=2)
    record(replay, [9, 2])
    assert RatingStep.objects.filter(game=replay).count() == 2
    assert RatingStep.objects.count() == 4 + 4 + 2


def test_games_are_ordered_by_the_event_day_not_by_when_they_were_entered(organiser):
    later = EventFactory(slug="later", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 9, 2))
    earlier = EventFactory(
        slug="earlier", starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2)
    )
    autumn = played(later, players=4, rounds=1, slug="autumn")
    spring = blokus(earlier, slug="spring", rounds_per_session=1)
    session = spring.sessions.get()
    # the same four players, entered in spring after the autumn results were in
    entries = [e for e in autumn.entries.order_by("pk")]
    for entry in entries:
        spring_entry = spring.entries.create(player=entry.player)
        sp = services.session_register(session=session, entry=spring_entry)
        services.session_check_in(session_player=sp)
    services.session_seat(session=session)
    autumn_game = first_game(autumn)
    autumn_steps = dict(
        RatingStep.objects.filter(game=autumn_game).values_list("player_id", "mu_before")
    )
    assert set(autumn_steps.values()) == {rules.DEFAULT_RATING.mu}
    spring_game = services.round_draw(session=session, seed=3).games.get()
    record(spring_game, [0, 1, 2, 3])
    assert game_order_key(dt.date(2026, 3, 1), spring.pk, 1, 1, 1) < game_order_key(
        dt.date(2026, 9, 1), autumn.pk, 1, 1, 1
    )
    spring_after = dict(
        RatingStep.objects.filter(game=spring_game).values_list("player_id", "mu_after")
    )
    autumn_before = dict(
        RatingStep.objects.filter(game=autumn_game).values_list("player_id", "mu_before")
    )
    assert autumn_before == spring_after  # autumn now follows spring


def test_a_recompute_from_a_game_takes_the_same_queries_for_1_or_20_later_games(event):
    competition = played(event, players=12, rounds=1, slug="short")
    game = first_game(competition)
    with CaptureQueriesContext(connection) as short:
        services.rating_recompute(from_game=game)
    longer = played(
        EventFactory(slug="long", starts_on=dt.date(2026, 4, 1), ends_on=dt.date(2026, 4, 2)),
        players=12,
        rounds=7,
        slug="long",
    )
    assert RatingStep.objects.filter(game__round__session__competition=longer).count() == 84
    game = first_game(longer)
    with CaptureQueriesContext(connection) as long:
        services.rating_recompute(from_game=game)
    # seven reads and writes, one insert, the savepoint's two (and PostgreSQL's lock)
    assert len(long.captured_queries) == len(short.captured_queries) <= 11


def test_deleting_a_game_deletes_its_steps(event):
    competition = played(event, players=4, rounds=1)
    game = first_game(competition)
    Round.objects.filter(pk=game.round_id).delete()
    assert not RatingStep.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_corrections_at_once_in_two_events_leave_the_rating_of_a_full_recompute():
    """Two desks correct a table at the same moment, each in its own event, with the same
    players: each result write recomputes the rating under the lock (the later event's
    steps are rewritten by the earlier event's recompute while the other desk holds its game),
    and what is left equals a recompute from scratch."""
    for trial in range(int(os.environ.get("RACE_TRIALS", "3"))):
        spring_event = EventFactory(
            slug=f"spring-{trial}", starts_on=dt.date(2026, 3, 1), ends_on=dt.date(2026, 3, 2)
        )
        spring = played(spring_event, players=8, rounds=2, slug=f"spring-{trial}")
        autumn = blokus(
            EventFactory(
                slug=f"autumn-{trial}", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 9, 2)
            ),
            slug=f"autumn-{trial}",
            rounds_per_session=1,
        )
        session = autumn.sessions.get()
        for entry in spring.entries.order_by("pk"):
            sp = services.session_register(
                session=session, entry=autumn.entries.create(player=entry.player)
            )
            services.session_check_in(session_player=sp)
        services.session_seat(session=session)
        for game in services.round_draw(session=session, seed=trial).games.all():
            record(game, [0, 1, 2, 3])
        early, late = first_game(spring), first_game(autumn)
        results = run_together(
            functools.partial(record, early, [20, 10, 5, 0], confirm_later_round=True),
            functools.partial(record, late, [7, 5, 3, 0]),
        )
        assert not any(isinstance(result, BaseException) for result in results), results
        after = snapshot()
        services.rating_recompute()
        assert snapshot() == after


def test_moving_an_event_earlier_at_the_desk_recomputes_the_rating_after_commit(
    organiser, django_capture_on_commit_callbacks
):
    """Autumn was played first (the only rated games); spring's games, entered later, come
    after autumn in the order while spring's event lies in October. Moving spring's event to
    March puts its games first: every autumn step must then start from spring's ratings."""
    from events.services import editing

    autumn_event = EventFactory(
        slug="autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 9, 1)
    )
    spring_event = EventFactory(
        slug="spring",
        starts_on=dt.date(2026, 10, 1),
        ends_on=dt.date(2026, 10, 1),
        organisers=[organiser],
    )
    autumn = played(autumn_event, players=4, rounds=1, slug="autumn")
    spring = played(spring_event, players=4, rounds=1, slug="spring", seed=9)
    # the same people play both: spring's players take autumn's
    for old, new in zip(spring.entries.order_by("pk"), autumn.entries.order_by("pk"), strict=True):
        old.player_id = new.player_id
        old.save(update_fields=["player"])
    services.rating_recompute()
    autumn_game = first_game(autumn)
    assert set(RatingStep.objects.filter(game=autumn_game).values_list("mu_before", flat=True)) == {
        rules.DEFAULT_RATING.mu
    }

    values = {"starts_on": dt.date(2026, 3, 1), "ends_on": dt.date(2026, 3, 1)}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        editing.event_edit(
            event=spring_event,
            expected=editing.signature(spring_event, editing.EVENT_FIELDS),
            values=values,
        )
    assert [c.__name__ for c in callbacks].count("rating_recompute") == 1
    spring_after = dict(
        RatingStep.objects.filter(game=first_game(spring)).values_list("player_id", "mu_after")
    )
    autumn_before = dict(
        RatingStep.objects.filter(game=autumn_game).values_list("player_id", "mu_before")
    )
    assert autumn_before == spring_after  # autumn now follows spring
    stored = snapshot()
    services.rating_recompute()
    assert snapshot() == stored  # what a recompute from scratch gives


def test_an_edit_that_leaves_the_first_day_or_holds_no_rated_table_recomputes_nothing(
    organiser, django_capture_on_commit_callbacks
):
    from events.services import editing

    rated = EventFactory(slug="rated-night", organisers=[organiser])
    played(rated, players=4, rounds=1)
    empty = EventFactory(slug="nothing-played", organisers=[organiser])
    blokus(empty, slug="unplayed")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        editing.event_edit(
            event=rated,
            expected=editing.signature(rated, editing.EVENT_FIELDS),
            values={"venue": "Another hall"},
        )
        editing.event_edit(
            event=empty,
            expected=editing.signature(empty, editing.EVENT_FIELDS),
            values={"starts_on": empty.starts_on - dt.timedelta(days=30)},
        )
    assert "rating_recompute" not in [c.__name__ for c in callbacks]


def test_an_imported_event_is_rated_in_its_place(event, django_capture_on_commit_callbacks):
    from events.exchange import document

    competition = played(event, players=4, rounds=2)
    exported = document.export_event(competition.event)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        copy = document.import_event(exported, slug="imported-copy").event
    assert [c.__name__ for c in callbacks].count("rating_recompute") == 1
    imported = Competition.objects.get(event=copy)
    games = Game.objects.filter(round__session__competition=imported)
    rated = RatingStep.objects.filter(game__in=games).count()
    assert rated == 4 * 2  # every imported table is rated
    stored = snapshot()
    services.rating_recompute()
    assert snapshot() == stored
