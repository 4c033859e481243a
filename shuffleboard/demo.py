"""Demo data for this format, called by `manage.py load_demo` after the competition is made.

A 40-player, 10-game competition on 5 boards in progress: everyone has played games 1 to 3,
half the room game 4. Built through the services, deterministic (``random.Random(SEED)``).
"""

from __future__ import annotations

import random

from events import services as event_services
from events.demo import competition_with_players
from events.models import Competition, Entry, Player, fold
from shuffleboard import rules, selectors, services
from shuffleboard.format import SJOELEN

ESTONIAN = [
    ("Õie Sööt", "Tallinna Lauamänguklubi"),
    ("Jüri Tamm", "Tallinna Lauamänguklubi"),
    ("Mari Kask", "Tartu Sjoelen"),
    ("Toomas Saar", "Tartu Sjoelen"),
    ("Liis Mägi", ""),
    ("Andres Põld", "Pärnu Mängurid"),
    ("Kadri Lepik", "Pärnu Mängurid"),
    ("Märt Kuusk", ""),
    ("Triin Rebane", "Tallinna Lauamänguklubi"),
    ("Priit Koppel", "Tartu Sjoelen"),
    ("Helen Vaher", ""),
    ("Rein Ilves", "Pärnu Mängurid"),
    ("Kristi Orav", "Tartu Sjoelen"),
    ("Siim Luik", ""),
    ("Anu Kivi", "Tallinna Lauamänguklubi"),
    ("Ülle Järv", "Pärnu Mängurid"),
]


SEED = 2026
PLAYERS = 40
FIRST = ["Kalle", "Epp", "Tõnu", "Maarja", "Urmas", "Külli", "Indrek", "Piret", "Margus", "Ene"]
LAST = ["Raudsepp", "Sepp", "Mölder", "Kõiv", "Pärn", "Saks", "Lõhmus", "Oja", "Kuusik", "Vares"]
CLUBS = ["Tallinna Lauamänguklubi", "Tartu Sjoelen", "Pärnu Mängurid", ""]
# Where a slid disc ends: out of play, or in the gate worth 1, 2, 3 or 4.
LANDING = [None, 1, 2, 3, 4]
WEIGHTS = [8, 22, 24, 25, 21]


def throw(rng: random.Random) -> tuple[int, int, int, int]:
    """One game's counts (gate-value order) of a decent club player."""
    counts = [0, 0, 0, 0]
    for landed in rng.choices(LANDING, weights=WEIGHTS, k=rules.DISCS):
        if landed is not None:
            counts[landed - 1] += 1
    c1, c2, c3, c4 = counts
    return (c1, c2, c3, c4)


def load(competition: Competition) -> None:
    rng = random.Random(SEED)
    competition = event_services.competition_update_settings(
        competition=competition, settings={"games": 10, "boards": 5, "bonus_disc": False}
    )
    existing = Entry.objects.filter(competition=competition).count()
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    rng.shuffle(names)
    for name in names[: max(PLAYERS - existing, 0)]:
        club = rng.choice(CLUBS)
        known = Player.objects.filter(
            host_id=competition.event.host_id, search_text=fold(f"{name} {club}")
        ).first()
        if known:
            event_services.player_register(competition=competition, player=known)
        else:
            event_services.player_register_new(competition=competition, name=name, club=club)
    for entry in Entry.objects.filter(competition=competition, checked_in_at__isnull=True):
        event_services.entry_check_in(entry=entry)
    rota = selectors.rota_for_competition(competition, with_turns=False)
    for number in (1, 2, 3, 4):
        players = rota.active if number < 4 else rota.active[: len(rota.active) // 2]
        for player in players:
            services.turn_record(
                entry=player.entry,
                number=number,
                counts=throw(rng),
                board=player.board_for(number),
            )


def create(organiser) -> Competition:
    """The demo event of this format, its players, and part of the competition played."""
    competition = competition_with_players(
        organiser=organiser,
        event={
            "name": "Sjoelen club night Tallinn",
            "venue": "Tallinn, Kalamaja community hall",
            "time_zone": "Europe/Tallinn",
        },
        days=0,
        name="Sjoelen, 10 games",
        format_key=SJOELEN.key,
        people=[(name, club, None) for name, club in ESTONIAN],
        checked_in=12,
    )
    load(competition)
    return competition
