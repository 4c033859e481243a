"""Every read the Blokus pages need, each in a constant number of queries.

Rows are fetched in a few joined queries and grouped in Python; rankings come from
``blokus.rules``. Nothing here writes.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from blokus import rules
from blokus.models import QualificationLot, SessionNotHeld, SessionPlayer
from blokus.services import SeatingPlan, seating_plan, settings_of
from events.models import Competition, Entry, Game, Round, Seat, Session
from events.services import ServiceError


def ensure_blokus(competition: Competition) -> Competition:
    if competition.format != "blokus":
        raise Http404
    return competition


# --- tables -------------------------------------------------------------------------------------


@dataclass
class SeatRow:
    seat: Seat
    entry: Entry
    colour: str
    score: int | None
    points: Decimal | None
    squares_left: int | None
    monomino_last: bool
    pieces: list[str]
    dropped: bool = False


@dataclass
class GameRow:
    game: Game
    seats: list[SeatRow]

    @property
    def is_finished(self) -> bool:
        return self.game.is_finished


@dataclass
class RoundRow:
    round: Round
    games: list[GameRow]

    @property
    def is_finished(self) -> bool:
        return bool(self.games) and all(g.is_finished for g in self.games)

    @property
    def finished_count(self) -> int:
        return sum(1 for g in self.games if g.is_finished)


def _seat_rows(seats: list[Seat], dropped_after: dict[int, int]) -> dict[int, list[SeatRow]]:
    by_game: dict[int, list[SeatRow]] = defaultdict(list)
    for seat in seats:
        hand = getattr(seat, "blokus_hand", None)
        cut = dropped_after.get(seat.entry_id)
        by_game[seat.game_id].append(
            SeatRow(
                seat=seat,
                entry=seat.entry,
                colour=seat.colour,
                score=seat.score,
                points=seat.points,
                squares_left=hand.squares_left if hand else None,
                monomino_last=hand.monomino_last if hand else False,
                pieces=list(hand.pieces) if hand else [],
                dropped=cut is not None and seat.game.round.number > cut,
            )
        )
    return by_game


def _seats_query():
    return Seat.objects.select_related("game__round", "entry__player", "blokus_hand").order_by(
        "game__round__number", "game__number", "position"
    )


# --- the clock ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    session: Session
    round: Round
    ends_at: dt.datetime
    remaining: int  # whole seconds, 0 when time is up

    @property
    def expired(self) -> bool:
        return self.remaining <= 0


def clock_of(round_: Round | None, minutes: int, now: dt.datetime | None = None) -> Clock | None:
    if round_ is None or round_.started_at is None:
        return None
    ends_at = round_.started_at + dt.timedelta(minutes=minutes)
    now = now or timezone.now()
    remaining = max(0, int((ends_at - now).total_seconds() + 0.999))
    return Clock(session=round_.session, round=round_, ends_at=ends_at, remaining=remaining)


def running_clock(competition: Competition, now: dt.datetime | None = None) -> Clock | None:
    """The clock of the qualifying round being played, if any (one query)."""
    round_ = (
        Round.objects.filter(
            session__competition=competition,
            session__kind=Session.Kind.QUALIFYING,
            started_at__isnull=False,
            games__status__in=[Game.Status.PENDING, Game.Status.PLAYING],
        )
        .select_related("session")
        .order_by("-started_at")
        .first()
    )
    return clock_of(round_, settings_of(competition)["round_minutes"], now)


# --- a session ----------------------------------------------------------------------------------


@dataclass
class StandingRow:
    place: int
    entry: Entry
    points: Fraction
    total: int
    games: int
    dropped: bool = False


def _place(rows: list, key) -> None:
    """Competition ranking (1, 1, 3) on ``key``, rows already sorted best first."""
    previous = None
    for index, row in enumerate(rows, start=1):
        k = key(row)
        if k != previous:
            row.place = index
            previous = k
        else:
            row.place = rows[index - 2].place


@dataclass
class SessionView:
    session: Session
    competition: Competition
    players: list[SessionPlayer]
    rounds: list[RoundRow]
    standings: list[StandingRow]
    settings: dict
    plan: SeatingPlan | None = None
    seated: bool = False
    not_held: SessionNotHeld | None = None

    @property
    def current(self) -> RoundRow | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def checked_in(self) -> list[SessionPlayer]:
        return sorted((p for p in self.players if p.checked_in_at), key=lambda p: p.roll_call)

    @property
    def not_checked_in(self) -> list[SessionPlayer]:
        return [p for p in self.players if not p.checked_in_at]

    @property
    def seated_players(self) -> list[SessionPlayer]:
        return [p for p in self.players if p.role == SessionPlayer.Role.SEATED]

    @property
    def reserves(self) -> list[SessionPlayer]:
        return [p for p in self.players if p.role == SessionPlayer.Role.RESERVE]

    @property
    def complete(self) -> bool:
        return (
            len(self.rounds) >= self.settings["rounds_per_session"]
            and self.current is not None
            and self.current.is_finished
        )

    @property
    def can_draw(self) -> bool:
        return (
            self.seated
            and len(self.rounds) < self.settings["rounds_per_session"]
            and (self.current is None or self.current.is_finished)
        )

    @property
    def can_replace(self) -> bool:
        """Until round 1 has started: clock, any result or round 2 (as the service decides)."""
        if not (self.seated and self.reserves):
            return False
        if not self.rounds:
            return True
        first = self.rounds[0]
        return (
            len(self.rounds) == 1
            and not first.round.started_at
            and all(g.game.status == Game.Status.PENDING for g in first.games)
        )

    @property
    def next_round_number(self) -> int:
        return len(self.rounds) + 1


def session_by_number(competition: Competition, number: str | int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("competition__event", "blokus_not_held"),
        competition=competition,
        kind=Session.Kind.QUALIFYING,
        number=number,
    )


def session_view(session: Session) -> SessionView:
    """A qualifying session: players, rounds with tables and results, standings (3 queries)."""
    competition = session.competition
    settings = settings_of(competition)
    players = list(
        SessionPlayer.objects.filter(session=session)
        .select_related("entry__player")
        .order_by("roll_call", "entry__player__name", "pk")
    )
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    seats = list(_seats_query().filter(game__round__session=session))
    games = {}
    for seat in seats:
        games.setdefault(seat.game_id, seat.game)
    dropped_after = {
        p.entry_id: p.dropped_after_round for p in players if p.dropped_after_round is not None
    }
    seat_rows = _seat_rows(seats, dropped_after)
    games_by_round: dict[int, list[GameRow]] = defaultdict(list)
    for game_id, game in sorted(games.items(), key=lambda item: item[1].number):
        games_by_round[game.round_id].append(GameRow(game=game, seats=seat_rows[game_id]))
    round_rows = [RoundRow(round=r, games=games_by_round[r.pk]) for r in rounds]

    seated = any(p.role == SessionPlayer.Role.SEATED for p in players)
    standings = []
    if seated:
        totals: dict[int, list] = {}
        for seat in seats:
            if seat.game.is_finished:
                t = totals.setdefault(seat.entry_id, [Fraction(0), 0, 0])
                t[0] += Fraction(seat.points or 0)
                t[1] += seat.score or 0
                t[2] += 1
        for p in players:
            if p.role == SessionPlayer.Role.SEATED:
                points, total, count = totals.get(p.entry_id, (Fraction(0), 0, 0))
                standings.append(StandingRow(0, p.entry, points, total, count, p.has_dropped_out))
        standings.sort(key=lambda r: (-r.points, -r.total, r.entry.player.name))
        _place(standings, lambda r: (r.points, r.total))
    plan = None
    if not seated:
        try:
            plan = seating_plan(session, players)
        except ServiceError:  # impossible settings (admin edit): the seat action says why
            plan = None
    return SessionView(
        session=session,
        competition=competition,
        players=players,
        rounds=round_rows,
        standings=standings,
        settings=settings,
        plan=plan,
        seated=seated,
        not_held=getattr(session, "blokus_not_held", None),
    )


@dataclass
class SessionSummary:
    session: Session
    registered: int
    checked_in: int
    seated: int
    rounds: int
    not_held: SessionNotHeld | None = None

    @property
    def is_final(self) -> bool:
        return self.session.kind == Session.Kind.FINAL


def session_summaries(competition: Competition) -> list[SessionSummary]:
    """The competition's sessions with their players and rounds counted (one query)."""
    players = "blokus_players"
    sessions = (
        Session.objects.filter(competition=competition)
        .annotate(
            registered=Count(players, distinct=True),
            checked_in=Count(
                players, filter=Q(blokus_players__checked_in_at__isnull=False), distinct=True
            ),
            seated=Count(
                players, filter=Q(blokus_players__role=SessionPlayer.Role.SEATED), distinct=True
            ),
            round_count=Count("rounds", distinct=True),
        )
        .select_related("blokus_not_held")
        .order_by("number")
    )
    return [
        SessionSummary(
            s,
            s.registered,
            s.checked_in,
            s.seated,
            s.round_count,
            getattr(s, "blokus_not_held", None),
        )
        for s in sessions
    ]


# --- qualification ------------------------------------------------------------------------------


@dataclass
class QualificationRow:
    place: int
    entry: Entry
    session_number: int
    points: Fraction
    total: int
    games: int
    tied: bool = False  # equal on points and total with a neighbour: the lot decides
    finalist: bool = False


def qualification_rows(
    competition: Competition, lot: QualificationLot | None | bool = False
) -> list[QualificationRow]:
    """Everyone seated in a qualifying session, best first: points, total score, lot (§20-22).

    Three queries. Before the lot is recorded, exact ties keep the order of registration and
    are marked ``tied`` (the lot is drawn when the final is seated).
    """
    if lot is False:
        lot = QualificationLot.objects.filter(competition=competition).first()
    players = list(
        SessionPlayer.objects.filter(
            session__competition=competition,
            session__kind=Session.Kind.QUALIFYING,
            role=SessionPlayer.Role.SEATED,
        )
        .select_related("entry__player", "session")
        .order_by("entry_id")
    )
    seats = Seat.objects.filter(
        Q(game__round__session__kind=Session.Kind.QUALIFYING, game__status=Game.Status.FINISHED)
        | Q(game__round__session__kind=Session.Kind.FINAL),
        game__round__session__competition=competition,
    ).values_list("entry_id", "points", "score", "game__round__session__kind")
    totals: dict[int, list] = {}
    at_final: set[int] = set()
    for entry_id, points, score, kind in seats:
        if kind == Session.Kind.FINAL:
            at_final.add(entry_id)
            continue
        t = totals.setdefault(entry_id, [Fraction(0), 0, 0])
        t[0] += Fraction(points or 0)
        t[1] += score or 0
        t[2] += 1
    rows = {}
    for p in players:
        points, total, count = totals.get(p.entry_id, (Fraction(0), 0, 0))
        rows[p.entry_id] = QualificationRow(0, p.entry, p.session.number, points, total, count)
    order = list(lot.order) if lot else []
    known = set(order)
    order += [pk for pk in sorted(rows) if pk not in known]
    ranked = rules.rank_standings(
        [(pk, row.points, row.total) for pk, row in rows.items()],
        [pk for pk in order if pk in rows],
    )
    result = [rows[pk] for pk in ranked]
    for index, row in enumerate(result, start=1):
        row.place = index
        key = (row.points, row.total)
        neighbours = result[max(0, index - 2) : index - 1] + result[index : index + 1]
        row.tied = any((n.points, n.total) == key for n in neighbours)
    if at_final:  # once the final is seated, its players are the finalists (whatever changed)
        for row in result:
            row.finalist = row.entry.pk in at_final
    else:  # the top four; a withdrawn player is skipped and the next one moves up
        top = set(rules.finalists([row.entry.pk for row in result if not row.entry.withdrawn_at]))
        for row in result:
            row.finalist = row.entry.pk in top
    return result


# --- the final ----------------------------------------------------------------------------------


@dataclass
class FinalView:
    session: Session
    game: GameRow
    placed: list[tuple[int, SeatRow]] = field(default_factory=list)  # winner first, when played

    @property
    def games(self) -> list[GameRow]:
        return [self.game]


def final_view(competition: Competition, qualification: list[QualificationRow]) -> FinalView | None:
    """The final's table and, once played, its places (2 queries)."""
    final = (
        Session.objects.filter(competition=competition, kind=Session.Kind.FINAL)
        .order_by("number")
        .first()
    )
    if final is None:
        return None
    seats = list(_seats_query().filter(game__round__session=final))
    if not seats:
        return None
    game = GameRow(game=seats[0].game, seats=_seat_rows(seats, {})[seats[0].game_id])
    view = FinalView(session=final, game=game)
    if game.is_finished:
        # A finalist missing from the qualification (an admin edit) ranks after the others.
        order = [row.entry.pk for row in qualification]
        known = set(order)
        order += sorted(s.entry.pk for s in game.seats if s.entry.pk not in known)
        by_entry = {s.entry.pk: s for s in game.seats}
        try:
            ranked = rules.final_order({s.entry.pk: s.score or 0 for s in game.seats}, order)
        except rules.InvalidResult:
            ranked = []  # not a scorable final (admin edit): show the table without places
        view.placed = [(i, by_entry[pk]) for i, pk in enumerate(ranked, start=1)]
    return view


# --- a player ------------------------------------------------------------------------------------


@dataclass
class PlayerGame:
    session: Session
    round: Round
    game: GameRow
    mine: SeatRow

    @property
    def games(self) -> list[GameRow]:
        return [self.game]


def player_games(competition: Competition, entry: Entry) -> list[PlayerGame]:
    """Every game of one player with all four seats (2 queries)."""
    mine = list(
        Seat.objects.filter(entry=entry, game__round__session__competition=competition)
        .select_related("game__round__session")
        .values_list("game_id", flat=True)
    )
    seats = list(
        _seats_query()
        .select_related("game__round__session")
        .filter(game_id__in=mine)
        .order_by("game__round__session__number", "game__round__number", "position")
    )
    dropped = {
        p.entry_id: p.dropped_after_round
        for p in SessionPlayer.objects.filter(entry=entry, dropped_after_round__isnull=False)
    }
    rows = _seat_rows(seats, dropped)
    result = []
    seen = set()
    for seat in seats:
        if seat.game_id in seen:
            continue
        seen.add(seat.game_id)
        game_rows = rows[seat.game_id]
        me = next(r for r in game_rows if r.entry.pk == entry.pk)
        result.append(
            PlayerGame(
                session=seat.game.round.session,
                round=seat.game.round,
                game=GameRow(game=seat.game, seats=game_rows),
                mine=me,
            )
        )
    return result


def entry_of(competition: Competition, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), competition=competition, pk=entry_id
    )


def game_for_competition(competition: Competition, game_id: int) -> tuple[Game, list[SeatRow]]:
    """A game of this competition with its seats (2 queries); 404 for another's game."""
    game = get_object_or_404(
        Game.objects.select_related("round__session"),
        pk=game_id,
        round__session__competition=competition,
    )
    seats = list(_seats_query().filter(game=game))
    dropped: dict[int, int] = {}
    if game.round.session.kind == Session.Kind.QUALIFYING:
        dropped = dict(
            SessionPlayer.objects.filter(
                session=game.round.session, dropped_after_round__isnull=False
            ).values_list("entry_id", "dropped_after_round")
        )
    return game, _seat_rows(seats, dropped)[game.pk]


def final_seated_after(game: Game) -> bool:
    """A qualifying game whose correction comes after the final was seated."""
    return (
        game.round.session.kind == Session.Kind.QUALIFYING
        and Session.objects.filter(
            competition_id=game.round.session.competition_id, kind=Session.Kind.FINAL
        ).exists()
    )


def later_round_drawn(game: Game) -> bool:
    return Round.objects.filter(
        session=game.round.session_id, number__gt=game.round.number
    ).exists()
