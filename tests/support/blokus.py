"""A Blokus tournament at any stage, built through the services; the desk's addresses and
the codes of its refusals."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS
from django.urls import reverse
from hypothesis import strategies as st

from blokus import selectors, services
from blokus.models import Hand, RatingStep, SessionPlayer
from events.errors import ServiceError
from events.models import Competition, Game, Round, Seat, Session
from tests.support import totp
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

HTMX = {"HX-Request": "true"}


ROLL_CALLS = [
    dt.datetime(2026, 5, 6, 10, 0, tzinfo=dt.UTC),
    dt.datetime(2026, 5, 7, 10, 0, tzinfo=dt.UTC),
]


def url(name: str, competition, *args) -> str:
    return reverse(f"blokus:{name}", args=[competition.event.slug, competition.slug, *args])


def set_up(competition) -> list[Session]:
    return services.sessions_set_up(competition=competition, roll_calls=ROLL_CALLS)


def register(competition, session, count: int, *, check_in: int | None = None, prefix="P"):
    """Register ``count`` new players for ``session`` and check in the first ``check_in``."""
    players = []
    for n in range(count):
        entry = EntryFactory(
            competition=competition,
            player=PlayerFactory(name=f"{prefix}{session.number}-{n + 1:02d}"),
        )
        players.append(services.session_register(session=session, entry=entry))
    for sp in players[: count if check_in is None else check_in]:
        services.session_check_in(session_player=sp)
    return players


def seat_players(competition, session, count: int, *, prefix="P") -> list[SessionPlayer]:
    """``count`` new players registered and checked in for ``session``, and the session seated
    (12 at most play, the rest wait as reserves)."""
    players = register(competition, session, count, prefix=prefix)
    services.session_seat(session=session)
    return players


def seated_round(competition, session, count: int, *, seed=1, prefix="P") -> Round:
    """A seated Blokus round: ``seat_players``, then the session's next round drawn with
    ``seed`` (not started)."""
    seat_players(competition, session, count, prefix=prefix)
    return services.round_draw(session=session, seed=seed)


def hands_for(game: Game, rng: random.Random) -> list[services.HandInput]:
    seats = list(game.seats.order_by("position"))
    dropped = selectors.dropped_entries(game.round.session, game.round.number)
    hands = []
    for seat in seats:
        if seat.entry_id in dropped:
            hands.append(services.HandInput(seat.pk, 89))
            continue
        squares = rng.choice([0, 0, 1, 3, 5, 8, 9, 12, 15])
        hands.append(services.HandInput(seat.pk, squares, squares == 0 and rng.random() < 0.5))
    return hands


def play_round(round_: Round, rng: random.Random) -> None:
    for game in round_.games.order_by("number"):
        services.game_result_record(game=game, revision=game.revision, hands=hands_for(game, rng))


def play_session(session: Session, rng: random.Random, rounds: int = 4) -> None:
    for _ in range(rounds):
        round_ = services.round_draw(session=session, seed=rng.randrange(2**40))
        services.round_start_clock(round=round_)
        play_round(round_, rng)


def seated(session) -> list[SessionPlayer]:
    return list(
        SessionPlayer.objects.filter(session=session, role="seated").select_related("entry__player")
    )


@contextmanager
def refused(code: str, error_class: type[ServiceError] = ServiceError) -> Iterator[None]:
    """The block is refused with ``error_class`` and this ``code`` (never matched on words)."""
    with pytest.raises(error_class) as exc:
        yield
    assert exc.value.code == code, f"refused with {exc.value.code!r}, not {code!r}"


def error_codes(response, field: str = NON_FIELD_ERRORS) -> set[str]:
    """The codes of the errors the page's form shows for ``field`` (the desk's result form, or
    the admin's change form)."""
    context = response.context
    form = context["adminform"].form if "adminform" in context else context["form"]
    return {error.code for error in form.errors.as_data().get(field, [])}


def flashed_codes(response) -> set[str]:
    """The codes of the refusals flashed on a page reached after a redirect."""
    return {tag for message in response.context["messages"] for tag in message.extra_tags.split()}


def small(event, *, sessions=1, rounds=1, slug="small", **settings) -> Competition:
    """A Blokus competition of ``sessions`` sessions of up to 12, ``rounds`` 15-minute rounds
    each, no official bonus (``settings`` over these), its sessions set up without roll calls."""
    competition = CompetitionFactory(
        event=event,
        slug=slug,
        settings={
            "qualifying_sessions": sessions,
            "capacity": 12,
            "rounds_per_session": rounds,
            "round_minutes": 15,
            "official_bonus": False,
            **settings,
        },
    )
    services.sessions_set_up(competition=competition, roll_calls=[None] * sessions)
    return competition


def record(game: Game, squares: list, **kw) -> None:
    """Save ``game`` with squares per seat in position order; 0 means monomino last."""
    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    services.game_result_record(
        game=game,
        revision=game.revision,
        hands=[services.HandInput(s.pk, n, n == 0) for s, n in zip(seats, squares, strict=True)],
        **kw,
    )


def entries_of(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("entry_id", flat=True))


def admin_client(client):
    user = get_user_model().objects.create_superuser("root", "", "pw-for-tests-only")
    totp.turn_on(user)  # site staff open the admin with two-factor login only
    client.force_login(user)
    return client


def eight_played(event) -> tuple[Competition, Session, list[int], list[int]]:
    """One session, one round, 8 players, two games with known results:
    game 1 (A1..A4) and game 2 (B1..B4) both 0+mono, 1, 2, 3 -> QP 3, 2, 1, 0."""
    competition = small(event)
    session = competition.sessions.get()
    round_ = seated_round(competition, session, 8)
    a, b = round_.games.order_by("number")
    record(a, [0, 1, 2, 3])
    record(b, [0, 1, 2, 3])
    return competition, session, entries_of(a), entries_of(b)


# A field of ``players`` in play, for the projector screen's constant-queries test
# (tests/test_projector_screens.py builds every format's field through this name).
def screen_field(event, players: int):
    competition = CompetitionFactory(
        event=event,
        slug=f"blokus-{players}",
        settings={
            "qualifying_sessions": 1,
            "capacity": players,
            "rounds_per_session": 2,
            "round_minutes": 15,
            "official_bonus": False,
        },
    )
    [session] = services.sessions_set_up(competition=competition, roll_calls=[None])
    seat_players(competition, session, players)
    rng = random.Random(players)
    first = services.round_draw(session=session, seed=1)
    services.round_start_clock(round=first)
    play_round(first, rng)
    second = services.round_draw(session=session, seed=2)
    services.round_start_clock(round=second)
    return competition


# A competition of ``players`` for the read API's tests of every format
# (tests.support.api builds every format's through this name).
def api_world(event, players: int):
    """A Blokus competition: ``players`` registered and checked in for session 1, seated (12
    at most play), two rounds played."""
    competition = CompetitionFactory(event=event, name="Blokus", slug="blokus", format="blokus")
    session = set_up(competition)[0]
    seat_players(competition, session, players)
    play_session(session, random.Random(7), rounds=2)
    return competition


def result_data(game, squares, monomino=()):
    """The desk's result form for ``game``: squares per seat, monomino-last by seat index."""
    data = {"revision": game.revision}
    for index, (seat, n) in enumerate(zip(game.seats.order_by("position"), squares, strict=True)):
        data[f"squares_{seat.pk}"] = n
        if index in monomino:
            data[f"monomino_{seat.pk}"] = "on"
    return data


def post_result(desk_client, competition, game, squares, monomino=()):
    """The desk saves ``game``'s result through the page (a redirect, no form errors)."""
    game.refresh_from_db()
    response = desk_client.post(
        url("game_result", competition, game.pk), result_data(game, squares, monomino)
    )
    assert response.status_code == 302, response.context["form"].errors


def qualified(event, **settings):
    """A final seated after one qualifying table of four (positions 1-4): the competition and
    the final's game."""
    competition = small(event, slug="options", **settings)
    session = competition.sessions.get()
    round_ = seated_round(competition, session, 4)
    record(round_.games.get(), [0, 1, 2, 3])  # qualification: positions 1, 2, 3, 4
    final = services.final_seat(competition=competition, seed=5, lot_seed=6)
    return competition, Game.objects.get(round__session=final)


def played(event, players=8, rounds=3, slug="rated", seed=7) -> Competition:
    """A session of ``players`` with ``rounds`` rounds, every table's result entered."""
    competition = small(event, slug=slug, rounds=rounds)
    session = competition.sessions.get()
    seat_players(competition, session, players, prefix=slug)
    rng = random.Random(seed)
    for _ in range(rounds):
        play_round(services.round_draw(session=session, seed=rng.randrange(2**40)), rng)
    return competition


def snapshot() -> list[tuple]:
    """Every rating step, in order."""
    return list(
        RatingStep.objects.order_by("order_key", "player_id").values_list(
            "player_id",
            "game_id",
            "order_key",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "conservative_after",
        )
    )


# Hypothesis strategies for the pure rules: a game score that can occur, and a seed for a lot.
game_scores = st.one_of(st.integers(-89, -1), st.sampled_from([0, 5]))
seeds = st.integers(0, 2**32)


def big_tournament(competition, sessions, size):
    competition.settings = {**competition.settings, "capacity": 64}
    competition.save()
    register(competition, sessions[0], size)
    services.session_seat(session=sessions[0])
    rng = random.Random(size)
    play_session(sessions[0], rng, rounds=2)
    services.round_draw(session=sessions[0], seed=3)


def result_fields(game, squares, **extra):
    data = {"revision": game.revision}
    for seat, n in zip(game.seats.order_by("position"), squares, strict=True):
        data[f"squares_{seat.pk}"] = n
    data.update(extra)
    return data


# A player who chose to be shown by first name and initial: the full name and the public one.
FULL, SHORT = "Åsa Öberg", "Åsa Ö."


def win_table(game: Game, entry_id: int) -> None:
    """``entry_id`` places every piece, monomino last; the others 5, 6, 7 squares left."""
    seats = list(game.seats.order_by("position"))
    squares = [5, 6, 7]
    record(game, [0 if s.entry_id == entry_id else squares.pop(0) for s in seats])


def play_won_by(round_, winner_id: int) -> None:
    for game in round_.games.order_by("number"):
        if game.seats.filter(entry_id=winner_id).exists():
            win_table(game, winner_id)
        else:
            record(game, [1, 5, 6, 7])


def shows_short(html: str, where: str) -> None:
    assert SHORT in html, where
    assert "Öberg" not in html, where


OPTION_SETTINGS = {
    "qualifying_sessions": 1,
    "capacity": 12,
    "rounds_per_session": 1,
    "round_minutes": 15,
    "official_bonus": False,
}


def with_options(event, slug="options", **settings) -> Competition:
    competition = CompetitionFactory(
        event=event, slug=slug, settings={**OPTION_SETTINGS, **settings}
    )
    services.sessions_set_up(
        competition=competition, roll_calls=[None] * competition.options.qualifying_sessions
    )
    return competition


def by_position(game) -> list[Seat]:
    return list(game.seats.order_by("position").select_related("entry__player"))


# The round clock: when a round's clock starts, the default round length, a moment after the start.
T = dt.datetime(2026, 5, 6, 10, 30, tzinfo=dt.UTC)
MINUTES = 15  # the default round length


def at(seconds: float) -> dt.datetime:
    return T + dt.timedelta(seconds=seconds)


def last_hand(game: Game) -> Hand:
    return Hand.objects.select_related("seat__entry__player").get(seat__game=game, seat__position=4)
