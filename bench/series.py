"""Series across events and the Blokus rating under ``make bench`` (``bench/run.py``).

Seeds, in the database Django is set up with (imported after ``django.setup()``, as
``seed.py``), each part in one transaction:

- two sjoelen seasons of 40 nights, each night an event with one sjoelen competition of 40
  players (drawn from one pool of 48, so that players miss some nights) and 10 games each,
  the turns bulk inserted as ``seed.sjoelen``; a series per season (``series_create``: the
  season average, best 30 nights, ranked from 10, classes A/B/C) joined to its nights
  (``series_join``). Events and series through the services, the heavy rows in bulk;
- 80 Blokus qualifying sessions (20 events of four sessions of 16, drawn from a pool of 96,
  on dates before everything else): four rounds of four tables of four each, played (scores
  and points from ``score_hands``), the rounds, tables and seats bulk inserted; then the
  whole rating computed once (``rating_recompute()``).

Then ``timed`` measures, in this process, before gunicorn starts:

- the full recompute of both seasons' standings (``series_table`` of each series: members,
  the format's ``series_results``, the formula): median of 5, target < 1000 ms;
- the rating recompute after a correction at the first table of the first of the 80
  sessions (a seat's score changed, then ``rating_recompute(from_game=that table)``, which
  replays every later Blokus game): median of 3; timed, with no target.

``pages`` gives season 1's public series page (``/series/<slug>/``) with one of its nights as
the competition: a write to that night (``competition_touch``) bumps the series' version, so
``run.py``'s wrk lines (304, cached 200, full page) and first render after a write apply to
it; that first render's target is 50 ms (``run.py``'s ``FIRST_RENDER_MS``).
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import time
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from scratch import log
from seed import Page, _players

from events import services as event_services
from events.models import Competition, Entry, Game, Seat, Session
from events.series.models import Series

SEASONS = 2
NIGHTS = 40  # a season
NIGHT_PLAYERS = 40
POOL = 48  # the club: each night 40 of them
GAMES = 10  # a night
BLOKUS_EVENTS = 20
BLOKUS_SESSIONS = 4  # an event: 80 sessions in all
SESSION_PLAYERS = 16  # four tables of four
BLOKUS_ROUNDS = 4
BLOKUS_POOL = 96
SERIES_RECOMPUTES = 5
RATING_RECOMPUTES = 3
SERIES_RECOMPUTE_MS = 1000.0  # both seasons' full recompute under 1 s
TIME_ZONE = "Europe/Stockholm"


@dataclass
class SeriesSeeded:
    """What ``seed`` made: the pages to load, the series and the table to correct."""

    pages: list[Page]
    seasons: list[Series]
    first_table: Game
    rating_steps: int
    rating_ms: float  # the first full computation (shown in the rating row's note)


def _organiser():
    return get_user_model().objects.get_or_create(username="bench")[0]


def _club_id() -> int:
    """The bench organiser's club (made with their first event): its register holds the pools."""
    from events.services.hosts import host_for_new

    return host_for_new(_organiser()).pk


def _event(name: str, day: dt.date):
    return event_services.event_create(
        name=name, starts_on=day, ends_on=day, time_zone=TIME_ZONE, organiser=_organiser()
    )


def _turns(entry: Entry, miss: int, rng: random.Random) -> list:
    from shuffleboard import rules
    from shuffleboard.models import Turn

    turns = []
    for number in range(1, GAMES + 1):
        counts = [0, 0, 0, 0]
        for landed in rng.choices([None, 1, 2, 3, 4], weights=[miss, 22, 24, 25, 21], k=30):
            if landed:
                counts[landed - 1] += 1
        c1, c2, c3, c4 = counts
        turns.append(
            Turn(
                entry=entry,
                number=number,
                c1=c1,
                c2=c2,
                c3=c3,
                c4=c4,
                score=rules.turn_score(counts),
            )
        )
    return turns


@transaction.atomic
def seasons(first_day: dt.date) -> list[Series]:
    """Two seasons of 40 weekly sjoelen nights, a series each (see the module's docstring)."""
    from events.series.services import series_create, series_join
    from shuffleboard.format import SJOELEN
    from shuffleboard.models import Turn

    rng = random.Random(30)
    organiser = _organiser()
    pool = _players("Season", POOL, rng, _club_id())
    # A player's skill: how many of the 30 discs (by weight) miss the board.
    misses = {player.pk: rng.randint(2, 14) for player in pool}
    now = timezone.now()
    made, entries = [], []
    for season in range(1, SEASONS + 1):
        series = series_create(
            by=organiser,
            name=f"Bench sjoelen season {season}",
            format_key=SJOELEN.key,
            kind="average",
            best=30,
            min_events=10,
            class_a=112,
            class_b=106,
        )
        for night in range(NIGHTS):
            day = first_day + dt.timedelta(weeks=(season - 1) * NIGHTS + night)
            event = _event(f"Bench season {season} night {night + 1:02d}", day)
            competition = event_services.competition_create(
                event=event,
                name="Sjoelen",
                format=SJOELEN.key,
                settings={"games": GAMES, "boards": 10, "bonus_disc": False},
            )
            entries += [
                Entry(competition=competition, player=player, checked_in_at=now)
                for player in rng.sample(pool, NIGHT_PLAYERS)
            ]
            series_join(series=series, competition_id=competition.pk, by=organiser)
        made.append(series)
    entries = Entry.objects.bulk_create(entries, batch_size=1000)
    turns = [turn for entry in entries for turn in _turns(entry, misses[entry.player_id], rng)]
    Turn.objects.bulk_create(turns, batch_size=2000)
    return made


@transaction.atomic
def blokus_sessions(first_day: dt.date) -> Game:
    """80 played Blokus qualifying sessions (see the module's docstring); returns the first
    table of the first session."""
    from blokus.format import BLOKUS
    from blokus.models import SessionPlayer
    from blokus.rules.constants import COLOURS
    from blokus.services import sessions_set_up
    from blokus.services.results import score_hands
    from events.models import Round

    rng = random.Random(80)
    pool = _players("Rated", BLOKUS_POOL, rng, _club_id())
    now = timezone.now()
    per_event = BLOKUS_SESSIONS * SESSION_PLAYERS
    groups: list[tuple[Session, list[Entry]]] = []  # (session, its entries)
    seated: list[SessionPlayer] = []
    for number in range(BLOKUS_EVENTS):
        event = _event(f"Bench Blokus cup {number + 1:02d}", first_day + dt.timedelta(weeks=number))
        competition = event_services.competition_create(
            event=event, name="Blokus", format=BLOKUS.key, settings={"capacity": per_event}
        )
        sessions = sessions_set_up(competition=competition, roll_calls=[None] * BLOKUS_SESSIONS)
        entries = Entry.objects.bulk_create(
            Entry(competition=competition, player=player, checked_in_at=now)
            for player in rng.sample(pool, per_event)
        )
        for index, session in enumerate(sessions):
            group = entries[index * SESSION_PLAYERS : (index + 1) * SESSION_PLAYERS]
            groups.append((session, group))
            seated += [
                SessionPlayer(
                    session=session,
                    entry=entry,
                    role=SessionPlayer.Role.SEATED,
                    checked_in_at=now,
                    roll_call=call,
                )
                for call, entry in enumerate(group, start=1)
            ]
    SessionPlayer.objects.bulk_create(seated, batch_size=1000)
    rounds = Round.objects.bulk_create(
        Round(session=session, number=n, seed=rng.randrange(2**40), started_at=now)
        for session, _group in groups
        for n in range(1, BLOKUS_ROUNDS + 1)
    )
    players_of = {session.pk: group for session, group in groups}
    tables: list[tuple[Game, list[Entry]]] = []
    for round_ in rounds:
        group = list(players_of[round_.session_id])
        rng.shuffle(group)
        for table in range(SESSION_PLAYERS // 4):
            game = Game(round=round_, number=table + 1, status=Game.Status.FINISHED, revision=1)
            tables.append((game, group[table * 4 : table * 4 + 4]))
    Game.objects.bulk_create([game for game, _entries in tables], batch_size=1000)
    seats = []
    for game, at_table in tables:
        hands = [(rng.choice([0, 2, 5, 9, 14, 20, 31]), False) for _ in at_table]
        scores, points = score_hands(hands, [False] * len(hands), official_bonus=False)
        seats += [
            Seat(
                game=game,
                entry=entry,
                position=position,
                colour=COLOURS[position - 1],
                score=score,
                points=Decimal(str(round(float(pts), 2))),
            )
            for position, (entry, score, pts) in enumerate(
                zip(at_table, scores, points, strict=True), start=1
            )
        ]
    Seat.objects.bulk_create(seats, batch_size=2000)
    return tables[0][0]


def seed() -> SeriesSeeded:
    """The seasons, their series and the 80 Blokus sessions; the rating computed once."""
    from blokus.services.rating import rating_recompute

    today = timezone.localdate()
    # Before everything else: the Blokus cups, then the sjoelen seasons, then seed.py's data.
    blokus_day = today - dt.timedelta(weeks=SEASONS * NIGHTS + BLOKUS_EVENTS + 2)
    started = time.perf_counter()
    made = seasons(today - dt.timedelta(weeks=SEASONS * NIGHTS + 1))
    first_table = blokus_sessions(blokus_day)
    log(f"series seasons and Blokus sessions seeded in {time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    steps = rating_recompute()
    rating_ms = (time.perf_counter() - started) * 1000
    night = Competition.objects.filter(series_memberships__series=made[0]).order_by("pk").last()
    page = Page(
        f"series page, {NIGHTS} nights of {NIGHT_PLAYERS}", made[0].get_absolute_url(), night
    )
    return SeriesSeeded([page], made, first_table, steps, rating_ms)


def _ms(run) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def timed(seeded: SeriesSeeded, Row) -> list:  # noqa: N803 - bench/run.py's Row class
    """The two recomputes, as rows of run.py's table (kind "recompute", ``bound`` the target
    p50 in ms or None)."""
    from django.core.cache import cache

    from blokus.services.rating import rating_recompute
    from events.series.selectors import series_table

    def standings() -> None:
        # A full recompute: every competition's results read again, none from the cache
        # (competition_results keeps each one's under its version).
        cache.clear()
        for series in seeded.seasons:
            series_table(series)

    series_times = [_ms(standings) for _ in range(SERIES_RECOMPUTES)]

    seat = Seat.objects.filter(game=seeded.first_table).order_by("position").first()
    original = seat.score
    rating_times = []
    for turn in range(RATING_RECOMPUTES):
        # The correction (as a result's service writes it, then recomputes): the first seat's
        # score another valid one (-1 or -2 squares), then back, and so on.
        seat.score = (-2 if original == -1 else -1) if turn % 2 == 0 else original
        seat.save(update_fields=["score"])
        rating_times.append(_ms(lambda: rating_recompute(from_game=seeded.first_table)))
    sessions = BLOKUS_EVENTS * BLOKUS_SESSIONS
    log(
        f"series recomputes (both seasons) {', '.join(f'{ms:.0f}' for ms in series_times)} ms; "
        f"rating: {seeded.rating_steps} steps, first full computation {seeded.rating_ms:.0f} ms, "
        f"recomputes from session 1 {', '.join(f'{ms:.0f}' for ms in rating_times)} ms"
    )
    rows = []
    for label, times, bound, note in (
        (
            f"series recompute, {SEASONS} seasons x {NIGHTS} nights x {NIGHT_PLAYERS}",
            series_times,
            SERIES_RECOMPUTE_MS,
            f"in-process, median of {SERIES_RECOMPUTES}",
        ),
        (
            f"rating recompute, correction in session 1 of {sessions}",
            rating_times,
            None,
            f"in-process, median of {RATING_RECOMPUTES}; {seeded.rating_steps} steps, "
            f"first full run {seeded.rating_ms:.0f} ms",
        ),
    ):
        median = statistics.median(times)
        rows.append(
            Row(label, 1000 / median, median, max(times), 0, "recompute", note, bound=bound)
        )
    return rows
