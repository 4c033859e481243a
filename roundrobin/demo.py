"""Demo data for this format, called by `manage.py load_demo` after the players are registered.

The 16 Dutch players are checked in with their ratings; this starts the competition (three
tables: 6, 5 and 5) five days ago with a fixed seed and replays those five days through the
services, in time order: part of the results are entered at the desk (table 2 finished, tables 1
and 3 half way), and the other games are played move by move on the correspondence clock, with
``process_deadlines`` sweeps in between. Most players move in time; the first open game has a
single missed turn, the second a double timeout, and the third a player who stops moving and
loses on time. Every game still running has its current turn open.
"""

from __future__ import annotations

import datetime as dt
import random

from django.utils import timezone

from events.demo import competition_with_players
from events.errors import ServiceError
from events.models import Competition, Entry, Game, Seat
from roundrobin import rules, services
from roundrobin.models import Turn

DUTCH = [
    ("Daan de Vries", "Schaakclub Utrecht", 2105),
    ("Sanne Jansen", "Schaakclub Utrecht", 1980),
    ("Bram van Dijk", "Dammen Leiden", 1875),
    ("Eva Bakker", "Dammen Leiden", 1820),
    ("Jeroen Visser", "", 1760),
    ("Lotte Smit", "CC Groningen", 1745),
    ("Thijs Meijer", "CC Groningen", 1690),
    ("Femke de Boer", "", 1655),
    ("Ruben Mulder", "Schaakclub Utrecht", 1610),
    ("Iris de Groot", "Dammen Leiden", 1580),
    ("Sven Bos", "", 1540),
    ("Noor Vos", "CC Groningen", 1500),
    ("Lars Peters", "", 1500),
    ("Anouk Hendriks", "Schaakclub Utrecht", 1470),
    ("Joris van Leeuwen", "", 1430),
    ("Fleur Dekker", "Dammen Leiden", 1395),
]


SEED = 2026
# Per table: how many of its games have a result so far.
RESULTS_ENTERED = {1: 9, 2: 10, 3: 5}
DAYS = 5
STEP = dt.timedelta(hours=3)
MOVES = ["e4", "d4", "c4", "Nf3", "g3", "b3", "f4", "Nc3", "e3", "d3"]


def _results_plan(competition: Competition, start: dt.datetime, rng: random.Random) -> dict:
    """game id -> (when, result) for the games whose result the organiser enters."""
    games = (
        Game.objects.filter(round__session__competition=competition, round__number=1)
        .select_related("round__session")
        .order_by("round__session__number", "number")
    )
    plan: dict[int, tuple[dt.datetime, str]] = {}
    entered: dict[int, int] = {}
    moment = start
    for game in games:
        table = game.round.session.number
        if entered.get(table, 0) >= RESULTS_ENTERED.get(table, 0):
            continue
        entered[table] = entered.get(table, 0) + 1
        white, black = (
            seat.entry.player.rating
            for seat in Seat.objects.filter(game=game)
            .select_related("entry__player")
            .order_by("position")
        )
        expected = rules.expected_score(white, black)
        roll = rng.random()
        result = "1-0" if roll < expected - 0.08 else "1/2-1/2" if roll < expected + 0.08 else "0-1"
        moment += dt.timedelta(hours=rng.randint(2, 6))
        plan[game.pk] = (moment, result)
    return plan


def _moves_for(turn: Turn, script: str, rng: random.Random) -> list[tuple[int, dt.timedelta]]:
    """Which seats move in this turn, and how long after it opened."""
    length = turn.deadline - turn.opened_at
    if script == "single-miss" and turn.number == 2:
        seats = [1]
    elif script == "double-timeout" and turn.number == 2:
        seats = []
    elif script == "time-loss" and turn.number >= 2:
        seats = [1]
    else:
        seats = [seat for seat in (1, 2) if rng.random() < 0.97]
    return [(seat, length * rng.uniform(0.1, 0.8)) for seat in seats]


Planned = dict[int, list[tuple[dt.datetime, int]]]  # turn id -> [(when, seat)]
Entries = dict[tuple[int, int], Entry]  # (game id, seat position) -> entry


def _enter_due_results(
    competition: Competition, results: dict[int, tuple[dt.datetime, str]], moment: dt.datetime
) -> None:
    for game_id, (when, result) in sorted(results.items(), key=lambda item: item[1][0]):
        if when > moment:
            continue
        game = Game.objects.get(pk=game_id)
        del results[game_id]
        if game.status == Game.Status.FINISHED:  # lost on time before the result came
            continue
        services.game_result_record(
            competition=competition,
            game_id=game_id,
            result=result,
            revision=game.revision,
            now=when,
        )


def _due_moves(
    competition: Competition,
    planned: Planned,
    scripts: dict[int, str],
    rng: random.Random,
    moment: dt.datetime,
) -> list[tuple[dt.datetime, int, Turn]]:
    """The moves planned up to ``moment`` in the open turns (planning new turns' moves)."""
    due = []
    open_turns = Turn.objects.filter(
        game__round__session__competition=competition, closed_at__isnull=True
    )
    for turn in open_turns:
        if turn.pk not in planned:
            script = scripts.get(turn.game_id, "")
            planned[turn.pk] = [
                (turn.opened_at + delay, seat) for seat, delay in _moves_for(turn, script, rng)
            ]
        due += [(when, seat, turn) for when, seat in planned[turn.pk] if when <= moment]
        planned[turn.pk] = [(w, s) for w, s in planned[turn.pk] if w > moment]
    return due


def _send_moves(
    due: list[tuple[dt.datetime, int, Turn]], entries: Entries, rng: random.Random
) -> None:
    for when, seat, turn in sorted(due, key=lambda item: (item[0], item[2].pk, item[1])):
        if (turn.game_id, seat) not in entries:  # a tiebreak game created since
            entries[(turn.game_id, seat)] = (
                Seat.objects.select_related("entry__competition")
                .get(game_id=turn.game_id, position=seat)
                .entry
            )
        try:
            services.move_submit(
                entry=entries[(turn.game_id, seat)],
                game_id=turn.game_id,
                turn=turn.number,
                text=rng.choice(MOVES),
                now=when,
            )
        except ServiceError:  # the game ended or the turn closed in the meantime
            continue


def load(competition: Competition) -> None:
    now = timezone.now().replace(microsecond=0)
    start = now - dt.timedelta(days=DAYS)
    services.competition_start(competition=competition, seed=SEED, now=start)
    rng = random.Random(SEED)
    results = _results_plan(competition, start, rng)
    entries: Entries = {
        (seat.game_id, seat.position): seat.entry
        for seat in Seat.objects.filter(
            game__round__session__competition=competition
        ).select_related("entry__competition")
    }
    scripted = ["single-miss", "double-timeout", "time-loss"]
    unplanned = sorted(pk for pk in {g for g, _p in entries} if pk not in results)
    scripts = dict(zip(unplanned, scripted, strict=False))
    planned: Planned = {}
    moment = start
    while moment < now:
        moment = min(moment + STEP, now)
        _enter_due_results(competition, results, moment)
        _send_moves(_due_moves(competition, planned, scripts, rng, moment), entries, rng)
        services.deadlines_process(now=moment)


def create(organiser) -> Competition:
    """The demo event of this format, its players, and part of the competition played."""
    competition = competition_with_players(
        organiser=organiser,
        event={
            "name": "Correspondence league 2026",
            "venue": "Online",
            "time_zone": "Europe/Amsterdam",
        },
        days=120,
        name="Open round robin",
        format_key="roundrobin",
        people=DUTCH,
        checked_in=16,
    )
    load(competition)
    return competition
