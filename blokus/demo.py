"""Demo data for this format, called by `manage.py load_demo` after the competition is made.

A tournament half played, built through the services with a fixed random seed: two qualifying
sessions (roll calls today and tomorrow at 10:00, event time); session 1 seated from the 14
players checked in (12 play, 2 reserves) and all four rounds played; session 2 registered with
the ten other players and session 1's two reserves (who never played, A-BLK-04), awaiting its
roll call.
"""

from __future__ import annotations

import datetime as dt
import random
from zoneinfo import ZoneInfo

from blokus import services
from blokus.format import BLOKUS
from events.demo import competition_with_players
from events.models import Competition, Entry

SWEDISH = [
    ("Anna Lindqvist", "Linköpings Spelförening"),
    ("Erik Johansson", "Linköpings Spelförening"),
    ("Maja Åkesson", "LinCon"),
    ("Oskar Nyström", "LinCon"),
    ("Linnea Öberg", "Norrköping BK"),
    ("Karl Svensson", "Norrköping BK"),
    ("Ebba Håkansson", ""),
    ("Viktor Ek", "Uppsala Spelklubb"),
    ("Sara Björk", "Uppsala Spelklubb"),
    ("Johan Lundgren", ""),
    ("Elin Sjöberg", "LinCon"),
    ("Gustav Dahl", "Linköpings Spelförening"),
    ("Ida Forsberg", "Göteborgs Brädspelare"),
    ("Nils Wallin", "Göteborgs Brädspelare"),
    ("Astrid Berg", ""),
    ("Felix Holm", "LinCon"),
    ("Wilma Strand", "Norrköping BK"),
    ("Hugo Sandberg", ""),
    ("Alva Ekström", "Uppsala Spelklubb"),
    ("Leo Nordin", "LinCon"),
    ("Freja Lund", ""),
    ("Axel Engström", "Linköpings Spelförening"),
    ("Klara Falk", "Göteborgs Brädspelare"),
    ("Albin Hedlund", ""),
]


SEED = 2026
# Squares left at the end of a game, weighted towards a good game.
SQUARES = [0, 0, 0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 17, 19, 22, 26, 31]


def _hands(game, rng: random.Random) -> list[services.HandInput]:
    hands = []
    for seat in game.seats.order_by("position"):
        squares = rng.choice(SQUARES)
        hands.append(services.HandInput(seat.pk, squares, squares == 0 and rng.random() < 0.4))
    return hands


def load(competition: Competition) -> None:
    rng = random.Random(SEED)
    tz = ZoneInfo(competition.event.time_zone)
    day = competition.event.starts_on
    roll_calls = [
        dt.datetime.combine(day + dt.timedelta(days=n), dt.time(10, 0), tzinfo=tz)
        for n in range(competition.options.qualifying_sessions)
    ]
    first, second = services.sessions_set_up(competition=competition, roll_calls=roll_calls)[:2]
    entries = list(Entry.objects.filter(competition=competition).order_by("registered_at", "pk"))
    present = [e for e in entries if e.checked_in_at]
    for entry in present:
        sp = services.session_register(session=first, entry=entry)
        services.session_check_in(session_player=sp)
    plan = services.session_seat(session=first)
    for _ in range(competition.options.rounds_per_session):
        round_ = services.round_draw(session=first, seed=rng.randrange(2**40))
        services.round_start_clock(round=round_)
        for game in round_.games.order_by("number"):
            services.game_result_record(game=game, revision=game.revision, hands=_hands(game, rng))
    for entry in [e for e in entries if not e.checked_in_at] + [sp.entry for sp in plan.reserves]:
        services.session_register(session=second, entry=entry)


def create(organiser) -> Competition:
    """The demo event of this format, its players, and part of the competition played."""
    competition = competition_with_players(
        organiser=organiser,
        event={
            "name": "LinCon 2026",
            "venue": "Linköping, Campus Valla",
            "info": "Registration in room P42.",
            "time_zone": "Europe/Stockholm",
        },
        days=3,
        name="Blokus tournament",
        format_key=BLOKUS.key,
        people=[(name, club, None) for name, club in SWEDISH],
        checked_in=14,
    )
    load(competition)
    return competition
