"""The load benchmark's data (``bench/run.py``), built through the project's services and bulk
inserts in the database Django is set up with: a 200-player sjoelen competition with 20 games
each, a Blokus competition with two sessions of 64 players (four rounds played, the final
seated) and a correspondence round robin of 100 tables of 7 (700 players) with results.
Not a benchmark itself: ``run.py`` imports it after ``django.setup()``.

Each competition is built in one transaction: the services' own transactions become savepoints,
so the database syncs to disk once per competition, not once per registration or result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from events import services as event_services
from events.models import Competition, Entry, Event, Player, fold, person_key


@dataclass
class Page:
    """A live page the benchmark loads: its label, address and competition (for writes)."""

    label: str
    url: str
    competition: Competition


def _event(name: str) -> Event:
    organiser, _ = get_user_model().objects.get_or_create(username="bench")
    today = timezone.localdate()
    return event_services.event_create(
        name=name, starts_on=today, ends_on=today, time_zone="Europe/Stockholm", organiser=organiser
    )


def _players(prefix: str, count: int, rng: random.Random, host_id: int) -> list[Player]:
    return Player.objects.bulk_create(
        Player(
            host_id=host_id,
            name=f"{prefix} {i:04d}",
            club=f"Club {i % 17}",
            search_text=fold(f"{prefix} {i:04d}"),
            person_key=person_key(f"{prefix} {i:04d}", f"Club {i % 17}"),
            rating=rng.randint(1200, 2300),
            rated_games=rng.randint(0, 80),
        )
        for i in range(count)
    )


@transaction.atomic
def sjoelen(players: int = 200, games: int = 20) -> list[Page]:
    """200 players x 20 games (4,000 games), bulk inserted as ``shuffleboard_standings.py``."""
    from shuffleboard import rules
    from shuffleboard.format import SJOELEN
    from shuffleboard.models import Turn

    rng = random.Random(1)
    event = _event("Bench sjoelen")
    competition = event_services.competition_create(
        event=event,
        name="Sjoelen",
        format=SJOELEN.key,
        settings={"games": games, "boards": 10, "bonus_disc": False},
    )
    now = timezone.now()
    entries = Entry.objects.bulk_create(
        Entry(competition=competition, player=p, checked_in_at=now)
        for p in _players("Sjoelen", players, rng, competition.event.host_id)
    )
    turns = []
    for entry in entries:
        for number in range(1, games + 1):
            counts = [0, 0, 0, 0]
            for landed in rng.choices([None, 1, 2, 3, 4], weights=[8, 22, 24, 25, 21], k=30):
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
    Turn.objects.bulk_create(turns, batch_size=1000)
    event_services.competition_touch(competition)
    slugs = [event.slug, competition.slug]
    return [
        Page("event page (sjoelen)", event.get_absolute_url(), competition),
        Page("sjoelen standings 200", reverse("shuffleboard:standings", args=slugs), competition),
    ]


@transaction.atomic
def blokus(players: int = 64) -> list[Page]:
    """Two sessions of 64 through the services (registration, check-in, seating, four rounds
    of results), then the final seated, as ``blokus_session.py``."""
    from blokus import services
    from blokus.format import BLOKUS

    rng = random.Random(1)
    event = _event("Bench Blokus")
    competition = event_services.competition_create(
        event=event, name="Blokus", format=BLOKUS.key, settings={"capacity": players}
    )
    sessions = services.sessions_set_up(competition=competition, roll_calls=[None, None])
    now = timezone.now()
    for session in sessions:
        entries = Entry.objects.bulk_create(
            Entry(competition=competition, player=p, checked_in_at=now)
            for p in _players(f"Blokus {session.number}", players, rng, competition.event.host_id)
        )
        for entry in entries:
            seat = services.session_register(session=session, entry=entry)
            services.session_check_in(session_player=seat)
        services.session_seat(session=session)
        for _ in range(4):
            round_ = services.round_draw(session=session, seed=rng.randrange(2**40))
            for game in round_.games.all():
                hands = [
                    services.HandInput(seat.pk, rng.choice([0, 2, 5, 9, 14]))
                    for seat in game.seats.all()
                ]
                services.game_result_record(game=game, revision=game.revision, hands=hands)
    services.final_seat(competition=competition, seed=1, lot_seed=2)
    slugs = [event.slug, competition.slug]
    return [Page("Blokus session of 64", reverse("blokus:session", args=[*slugs, 1]), competition)]


@transaction.atomic
def roundrobin(tables: int = 100, results: int = 300) -> list[Page]:
    """100 tables of 7 (700 players, 2,100 games) started through the service, ``results``
    results written through the result service's own batch (``game_finish`` gathering its
    follow-up, then ratings, tiebreaks and status applied once, as the deadline sweep does:
    the same end state as one ``game_result_record`` each, without a rating recomputation
    per result)."""
    import datetime as dt
    from fractions import Fraction

    from events.models import Game
    from roundrobin import services
    from roundrobin.models import Ending, GameDetail
    from roundrobin.services.results import FollowUp, game_finish, results_follow_up

    rng = random.Random(5)
    event = _event("Bench round robin")
    competition = event_services.competition_create(event=event, name="League", format="roundrobin")
    now = timezone.now()
    Entry.objects.bulk_create(
        Entry(competition=competition, player=p, checked_in_at=now)
        for p in _players("League", tables * 7, rng, event.host_id)
    )
    services.competition_start(competition=competition, seed=1, now=now)
    competition.refresh_from_db()
    games = list(
        Game.objects.filter(round__session__competition=competition).values_list("pk", flat=True)
    )
    rng.shuffle(games)
    chosen = games[:results]
    loaded = Game.objects.select_related("round__session").in_bulk(chosen)
    details = GameDetail.objects.in_bulk(chosen)
    half = Fraction(1, 2)
    outcomes = [(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (half, half)]
    follow = FollowUp()
    for i, pk in enumerate(chosen):
        game_finish(
            competition=competition,
            game=loaded[pk],
            detail=details[pk],
            points=rng.choice(outcomes),
            ending=Ending.PLAYED,
            now=now + dt.timedelta(seconds=i + 1),
            follow=follow,
        )
    if follow.since is not None:
        results_follow_up(competition, follow.since, follow.tables, now)
    slugs = [event.slug, competition.slug]
    return [Page("round-robin tables 700", reverse("roundrobin:tables", args=slugs), competition)]
