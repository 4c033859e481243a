"""Starting a round robin: rating snapshots, tables, every game with its colours and clock."""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, refuse
from events.models import Competition, CompetitionStatus, Entry, Game, Round, Session
from events.outbox import webhooks
from events.services import competition_touch
from events.services.play import games_create
from roundrobin import rules, selectors
from roundrobin.format import COLOURS_BERGER
from roundrobin.models import GameDetail, RatingSnapshot, Turn
from roundrobin.rules import turns as turn_rules
from roundrobin.services.base import (
    locked_competition,
    now_or,
    options,
    schedule_turns,
    turn_hours,
)
from roundrobin.services.mail import tokens_create

ALREADY_STARTED = _("The competition has already started.")
REGISTRATION_CLOSED = _(
    "%(competition)s has started: its tables were drawn from the players checked in at the "
    "start and every game is under way, so no one can join or check in now."
)


def entries_check(competition: Competition) -> None:
    """The format's ``entry_check``: once the tables are drawn a round robin takes no new
    entry or check-in (nobody could give the player a table), refused in words."""
    if competition.status != CompetitionStatus.REGISTRATION:
        raise refuse(REGISTRATION_CLOSED, code="registration_closed", competition=competition.name)


CANNOT_START = _("The competition cannot start: %(reason)s")


def create_games(
    *,
    round_: Round,
    pairs: list[tuple[int, int]],
    hours: int,
    start_number: int = 1,
    turns: str = turn_rules.SIMULTANEOUS,
) -> list[Game]:
    """The games of ``pairs`` (white, black entry ids) in ``round_``, each with its turn 1."""
    games = games_create(
        round_,
        [list(zip(pair, rules.COLOURS, strict=True)) for pair in pairs],
        status=Game.Status.PLAYING,
        start_number=start_number,
    )
    GameDetail.objects.bulk_create(GameDetail(game=game) for game in games)
    # R-RR-05, R-RR-10: turn 1 of every game opens when the game starts.
    opened = round_.started_at
    if opened is None:
        raise ValueError("A round of a round robin starts when it is created.")
    first = Turn.objects.bulk_create(
        Turn(
            game=game,
            number=1,
            opened_at=opened,
            deadline=rules.turn_deadline(opened, hours),
            mover=turn_rules.turn_mover(turns, 1),  # N-RR-30: White first when alternating
        )
        for game in games
    )
    schedule_turns(round_.session.competition, first)
    return games


def _snapshot_ratings(entries: list[Entry], tables: list[list[int]], now: datetime) -> None:
    table_of = {pk: number for number, table in enumerate(tables, start=1) for pk in table}
    RatingSnapshot.objects.bulk_create(
        RatingSnapshot(
            entry=entry,
            rating=entry.player.rating,
            rated_games=entry.player.rated_games,
            provisional=rules.is_provisional(entry.player.rated_games),
            seed=index,
            table=table_of[entry.pk],
            taken_at=now,
        )
        for index, entry in enumerate(entries, start=1)
    )


def _create_tables(
    competition: Competition, tables: list[list[int]], seed: int, now: datetime
) -> list[Session]:
    balanced = options(competition).colours == COLOURS_BERGER
    master = random.Random(seed)
    sessions = Session.objects.bulk_create(
        Session(
            competition=competition,
            number=number,
            kind=Session.Kind.TABLE,
            name=str(_("Table %(number)s") % {"number": number}),
            starts_at=now,
        )
        for number in range(1, len(tables) + 1)
    )
    rounds = Round.objects.bulk_create(
        Round(session=session, number=1, seed=master.getrandbits(62), started_at=now)
        for session in sessions
    )
    hours = turn_hours(competition)
    for round_, table in zip(rounds, tables, strict=True):
        pairs = rules.pairs_with_colours(table, random.Random(round_.seed), balanced=balanced)
        create_games(round_=round_, pairs=pairs, hours=hours, turns=options(competition).turns)
    return sessions


@transaction.atomic
def competition_start(
    *, competition: Competition, seed: int | None = None, now: datetime | None = None
) -> list[Session]:
    """Snapshot the ratings, split the checked-in players into tables and create every game
    of every table at once with its colours (R-RR-01..06, R-RR-26). The start time is every
    game's clock start."""
    competition = locked_competition(competition)
    if competition.status != CompetitionStatus.REGISTRATION:
        raise refuse(ALREADY_STARTED, error_class=Conflict, code="already_started")
    now = now_or(now)
    entries = selectors.start_candidates(competition)
    try:
        tables = rules.split_into_tables(
            [e.pk for e in entries], options(competition).max_table_size
        )
    except rules.InvalidResult as exc:
        raise refuse(CANNOT_START, code="cannot_start", reason=str(exc)) from exc
    _snapshot_ratings(entries, tables, now)
    sessions = _create_tables(
        competition, tables, secrets.randbits(62) if seed is None else seed, now
    )
    tokens_create(entries=entries, now=now)
    competition.status = CompetitionStatus.RUNNING
    competition.save(update_fields=["status"])
    competition_touch(competition)
    webhooks.announce(  # the tables are drawn ("round.seated")
        webhooks.WebhookTopic.ROUND,
        competition,
        subject="tables",
        data={"sessions": [session.pk for session in sessions]},
        now=now,
    )
    return sessions
