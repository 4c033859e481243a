"""What the Blokus print items read (``blokus.printing``): the rounds that have tables, the
tables of a round, a session or the final with their seats, the hosting club's logo, and each
player's rating change over the competition. Each read is one query, whatever the field's size.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from blokus import rules
from blokus.models import RatingStep
from blokus.selectors.tables import GameRow, seat_rows, seats_query
from events.models import Competition, Entry, HostClub, Round, Session


@dataclass(frozen=True)
class PrintedRound:
    """A drawn round: ``session`` is the qualifying session's number, 0 for the final."""

    session: int
    number: int
    tables: int

    @property
    def is_final(self) -> bool:
        return self.session == 0


def printed_rounds(competition: Competition) -> list[PrintedRound]:
    """Every round with tables, qualifying sessions first (by number), the final last."""
    rows = (
        Round.objects.filter(session__competition=competition)
        .annotate(tables=Count("games"))
        .filter(tables__gt=0)
        .values_list("session__kind", "session__number", "number", "tables")
    )
    rounds = [
        PrintedRound(0 if kind == Session.Kind.FINAL else session, number, tables)
        for kind, session, number, tables in rows
    ]
    # The final (0) after every qualifying session.
    return sorted(rounds, key=lambda r: (r.is_final, r.session, r.number))


def printed_games(
    competition: Competition, *, session: int, round_number: int | None = None
) -> list[GameRow]:
    """The tables of one round (``round_number``) or of every drawn round of a session
    (``session`` 0: the final), round by round and table by table, seats in their order."""
    seats = seats_query().select_related("game__round__session")
    seats = seats.filter(game__round__session__competition=competition)
    if session == 0:
        seats = seats.filter(game__round__session__kind=Session.Kind.FINAL)
    else:
        seats = seats.filter(
            game__round__session__kind=Session.Kind.QUALIFYING, game__round__session__number=session
        )
    if round_number is not None:
        seats = seats.filter(game__round__number=round_number)
    listed = list(seats)
    by_game = seat_rows(listed, {})
    games = {seat.game_id: seat.game for seat in listed}
    return [GameRow(game=game, seats=by_game[pk]) for pk, game in games.items()]


def club_logo(competition: Competition) -> bytes:
    """The hosting club's logo (a checked PNG), or b"" when it has none."""
    logo = (
        HostClub.objects.filter(pk=competition.event.host_id).values_list("logo", flat=True).first()
    )
    return bytes(logo or b"")


def rating_changes(competition: Competition) -> dict[int, tuple[float, float]]:
    """Entry id -> (rating before its first game, after its last) over this competition's
    rated games, for the players who have any."""
    steps = (
        RatingStep.objects.filter(game__round__session__competition=competition)
        .order_by("order_key", "pk")
        .values_list("player_id", "mu_before", "sigma_before", "conservative_after")
    )
    spans: dict[int, list[float]] = defaultdict(list)
    for player_id, mu, sigma, after in steps:
        span = spans[player_id]
        if not span:
            span.append(rules.conservative(mu, sigma))
            span.append(after)
        span[1] = after
    entries = Entry.objects.filter(competition=competition, player_id__in=spans).values_list(
        "pk", "player_id"
    )
    return {pk: (spans[player][0], spans[player][1]) for pk, player in entries}
