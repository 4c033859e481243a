"""A round-robin competition built through the services, and helpers to play it."""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from typing import NamedTuple

from django.urls import reverse

from events import services as event_services
from events.models import Competition, Entry, Game, Player, Seat
from roundrobin import selectors, services
from roundrobin.models import (
    GameDetail,
    PlayerToken,
    RatingSnapshot,
    Turn,
)
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
SETTINGS = {"max_table_size": 7, "hours_per_move": 24, "rated": True, "colours": "random"}


def make_competition(event, slug="league", **settings):
    return CompetitionFactory(
        event=event,
        name="Correspondence league",
        slug=slug,
        format="roundrobin",
        settings={**SETTINGS, **settings},
    )


def enter_players(competition, count: int, *, first_rating: int = 2000, step: int = 20):
    """``count`` checked-in players, rated first_rating, first_rating - step, ... (p1 strongest)."""
    entries = []
    for index in range(count):
        player = PlayerFactory(
            name=f"P{index + 1:02d} {competition.slug}",
            rating=first_rating - step * index,
            rated_games=40,
        )
        entry = EntryFactory(competition=competition, player=player)
        event_services.entry_check_in(entry=entry)
        entries.append(entry)
    return entries


def game_between(a, b) -> Game:
    return (
        Game.objects.filter(seats__entry=a)
        .filter(seats__entry=b)
        .order_by("round__number", "number")
        .last()
    )


def play(competition, winner, loser, *, draw=False, at=None) -> Game:
    """Record ``winner`` beating ``loser`` (or a draw), whatever their colours."""
    game = game_between(winner, loser)
    white = Seat.objects.get(game=game, position=1).entry_id
    if draw:
        result = "1/2-1/2"
    else:
        result = "1-0" if white == winner.pk else "0-1"
    return services.game_result_record(
        competition=competition, game_id=game.pk, result=result, revision=game.revision, now=at
    )


class Duel(NamedTuple):
    """A started round robin of two: its one game, and the entries by colour."""

    competition: Competition
    game: Game
    white: Entry
    black: Entry

    @property
    def entries(self) -> list[Entry]:
        """The two entries in the order they were entered (the stronger first)."""
        return sorted((self.white, self.black), key=lambda entry: entry.pk)


def started_duel(event, slug="duel", *, seed=1, now=START, **settings) -> Duel:
    """Two checked-in players entered in a round robin of ``event`` (``settings`` over the
    usual ones) and the competition started at ``now``: one game between them."""
    competition = make_competition(event, slug=slug, **settings)
    enter_players(competition, 2)
    services.competition_start(competition=competition, seed=seed, now=now)
    competition.refresh_from_db()
    game = Game.objects.get(round__session__competition=competition)
    white, black = (
        seat.entry
        for seat in Seat.objects.select_related("entry__competition", "entry__player")
        .filter(game=game)
        .order_by("position")
    )
    return Duel(competition, game, white, black)


# A field of ``players`` in play, for the projector screen's constant-queries test
# (tests/test_projector_screens.py builds every format's field through this name).
def screen_field(event, players: int):
    competition = make_competition(event, slug=f"league-{players}")
    enter_players(competition, players)
    services.competition_start(competition=competition, seed=7, now=START)
    return competition


# A competition of ``players`` for the read API's tests of every format
# (tests.support.api builds every format's through this name).
def api_world(event, players: int):
    """A started round robin of ``players`` (tables of seven at most), one game played."""
    competition = make_competition(event)
    entries = enter_players(competition, players)
    services.competition_start(competition=competition, seed=2026, now=START)
    competition.refresh_from_db()
    play(competition, entries[0], entries[1], at=START)
    competition.refresh_from_db()
    return competition


def started_with(event, slug, players):
    """A round robin of ``players`` entered and started at START (seed 3)."""
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    services.competition_start(competition=competition, seed=3, now=START)
    return competition, entries


def token_of(entry):
    """The player's private-link token."""
    return PlayerToken.objects.get(entry=entry).token


def private(client, entry):
    """Open the player's link, as from the e-mail: the token is exchanged for a cookie and the
    answer sends the browser on to the page's own address, which is returned."""
    response = client.get(reverse("roundrobin:private", args=[token_of(entry)]))
    assert response.status_code == 303
    assert token_of(entry) not in response["Location"]
    return response["Location"]


def api(client, method, path, token, body=None):
    """A request to the player's API, the token as Bearer; ``body`` as JSON."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if method == "get":
        return client.get(path, headers=headers)
    data = body if isinstance(body, str | bytes) else json.dumps(body or {})
    return client.post(path, data, content_type="application/json", headers=headers)


def move(entry, game, turn, text="e4", at=None):
    """``entry`` submits ``text`` as move ``turn`` of ``game`` (at ``at``)."""
    return services.move_submit(entry=entry, game_id=game.pk, turn=turn, text=text, now=at)


def open_turn(game):
    """The turn of ``game`` still open."""
    return Turn.objects.get(game=game, closed_at__isnull=True)


HALF = Fraction(1, 2)


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def turns(first: str, second: str) -> list[tuple[bool, bool]]:
    """Two turn logs written as strings of M (moved) and x (missed) -> a game's turns."""
    return [(a == "M", b == "M") for a, b in zip(first, second, strict=True)]


HOUR = dt.timedelta(hours=1)


def tables(competition):
    return {t.number: t for t in selectors.tables_for_competition(competition)}


def seats_of(table_number, competition):
    return [
        s.entry
        for s in RatingSnapshot.objects.filter(
            entry__competition=competition, table=table_number
        ).order_by("seed")
    ]


def detail(game):
    return GameDetail.objects.get(game=game)


def points(game):
    return tuple(
        Seat.objects.filter(game=game).order_by("position").values_list("points", flat=True)
    )


def first_game(entry):
    game = Game.objects.filter(seats__entry=entry).order_by("pk").first()
    return game, Seat.objects.get(game=game, entry=entry).position


HUGE = 99999999999999999999999


FULL = "Åsa Öberg"


SHORT = "Åsa Ö."


SURNAME = "Öberg"


def page(client, address, **headers):
    response = client.get(address, headers=headers)
    assert response.status_code == 200, address
    return response.content.decode()


def shows_short(html):
    return SHORT in html and SURNAME not in html


def asa_table(event, slug, players=3):
    """A started competition of ``players`` at one table, the first one "Åsa Öberg", who chose
    first name and initial before the start; every player has an e-mail address."""
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    asa = entries[0].player
    asa.name, asa.club = FULL, f"Club {slug}"  # one register row per competition
    asa.save()
    Player.objects.filter(pk=asa.pk).update(name_shown=Player.NameShown.SHORT)
    for index, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(email=f"p{index}.{slug}@example.org")
    services.competition_start(competition=competition, seed=5, now=START)
    competition.refresh_from_db()
    for entry in entries:
        entry.refresh_from_db()
        entry.player.refresh_from_db()
    return competition, entries


NOW = dt.datetime(2026, 3, 2, tzinfo=dt.UTC)


def swap_to_a_non_result(game):
    from events.models import Seat

    Seat.objects.filter(game=game).update(points=1)  # 1-1: no such result


def admin_url(model, view, *args):
    return reverse(f"admin:roundrobin_{model._meta.model_name}_{view}", args=args)
