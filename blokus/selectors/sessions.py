"""A qualifying session: seating, standings, rounds; the session list; the desk's candidates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404

from blokus import rules
from blokus.format import BlokusSettings
from blokus.models import SessionNotHeld, SessionPlayer
from blokus.selectors.corrections import corrected_games, session_corrections
from blokus.selectors.tables import GameRow, RoundRow, seat_rows
from events.models import Competition, Correction, Entry, Game, Round, Seat, Session


@dataclass(frozen=True)
class SeatingPlan:
    players: list[SessionPlayer]
    reserves: list[SessionPlayer]

    @property
    def can_start(self) -> bool:
        return len(self.players) >= rules.PLAYERS_PER_GAME


def seating_plan(session: Session, session_players: Sequence[SessionPlayer]) -> SeatingPlan:
    """Who would play and who would be reserve if the session were seated now (R-BLK-09).

    ``rules.InvalidResult`` for settings the rules refuse (a capacity edited in admin)."""
    present = sorted(
        (
            sp
            for sp in session_players
            if sp.checked_in_at and sp.roll_call and not sp.entry.withdrawn_at
        ),
        key=lambda sp: sp.roll_call or 0,
    )
    players, reserves = rules.seat_session(present, session.competition.options.capacity)
    return SeatingPlan(players=players, reserves=reserves)


def session_totals(session: Session) -> dict[int, tuple[Fraction, int]]:
    """entry id -> (points, total score) over the session's finished games."""
    totals: dict[int, tuple[Fraction, int]] = {}
    seats = Seat.objects.filter(
        game__round__session=session, game__status=Game.Status.FINISHED
    ).values_list("entry_id", "points", "score")
    for entry_id, points, score in seats:
        p, s = totals.get(entry_id, (Fraction(0), 0))
        totals[entry_id] = (p + Fraction(points or 0), s + (score or 0))
    return totals


def dropped_entries(session: Session, round_number: int) -> set[int]:
    """Entries of ``session`` who dropped out before round ``round_number``."""
    return set(
        SessionPlayer.objects.filter(session=session, dropped_after_round__lt=round_number)
        .exclude(back_from_round__lte=round_number)  # reinstated: back from that round
        .values_list("entry_id", flat=True)
    )


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
    settings: BlokusSettings
    plan: SeatingPlan | None = None
    seated: bool = False
    not_held: SessionNotHeld | None = None
    corrections: list[Correction] = field(default_factory=list)

    @property
    def corrected(self) -> set[int]:
        """The games a correction touched (a "corrected" note beside each)."""
        return corrected_games(self.corrections)

    @property
    def attention(self) -> list[GameRow]:
        """Stored tables that cannot be right (a raw SQL fix, an old backup): the desk says so."""
        return [g for r in self.rounds for g in r.games if g.needs_attention]

    @property
    def current(self) -> RoundRow | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def checked_in(self) -> list[SessionPlayer]:
        return sorted((p for p in self.players if p.checked_in_at), key=lambda p: p.roll_call or 0)

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
            len(self.rounds) >= self.settings.rounds_per_session
            and self.current is not None
            and self.current.is_finished
        )

    @property
    def can_draw(self) -> bool:
        return (
            self.seated
            and len(self.rounds) < self.settings.rounds_per_session
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


def _session_seats(
    session: Session, rounds: list[Round], players: list[SessionPlayer]
) -> list[Seat]:
    """The session's seats in round, table and seat order, each with its game (and round) and
    entry (and player) attached: one object per game and per player shared by their seats,
    reused from ``rounds`` and ``players``, rather than a copy per seat from a join (two
    queries; a third only for an entry that is not a session player, which no service makes).
    The first render of a 64-player session builds half as many model instances."""
    round_by_id = {r.pk: r for r in rounds}
    games = {}
    for game in Game.objects.filter(round__session=session):
        game._state.fields_cache["round"] = round_by_id[game.round_id]
        games[game.pk] = game
    seats = list(
        Seat.objects.filter(game__round__session=session)
        .select_related("blokus_hand")
        .order_by("game__round__number", "game__number", "position")
    )
    entries = {p.entry_id: p.entry for p in players}
    missing = {seat.entry_id for seat in seats} - entries.keys()
    if missing:
        entries.update(Entry.objects.select_related("player").in_bulk(missing))
    for seat in seats:
        seat._state.fields_cache["game"] = games[seat.game_id]
        seat._state.fields_cache["entry"] = entries[seat.entry_id]
    return seats


def session_view(session: Session) -> SessionView:
    """A qualifying session: players, rounds with tables and results, standings, corrections
    (5 queries)."""
    competition = session.competition
    settings = competition.options
    players = list(
        SessionPlayer.objects.filter(session=session)
        .select_related("entry__player")
        .order_by("roll_call", "entry__player__name", "pk")
    )
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    seats = _session_seats(session, rounds, players)
    games: dict[int, Game] = {}
    for seat in seats:
        games.setdefault(seat.game_id, seat.game)
    dropped_after = {p.entry_id: p.out_span for p in players if p.dropped_after_round is not None}
    rows_by_game = seat_rows(seats, dropped_after)
    games_by_round: dict[int, list[GameRow]] = defaultdict(list)
    for game_id, game in sorted(games.items(), key=lambda item: item[1].number):
        games_by_round[game.round_id].append(GameRow(game=game, seats=rows_by_game[game_id]))
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
        except rules.InvalidResult:  # impossible settings (admin edit): the seat action says why
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
        corrections=session_corrections(session) if rounds else [],
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


def round_of(competition: Competition, round_id: int) -> Round:
    """A round of this competition, with its session; 404 for another's."""
    return get_object_or_404(
        Round.objects.select_related("session"), pk=round_id, session__competition=competition
    )


def session_player_of(session: Session, session_player_id: int) -> SessionPlayer:
    """A player's place in this session; 404 for another session's."""
    return get_object_or_404(SessionPlayer, pk=session_player_id, session=session)


def sessions_of_entry(entry: Entry) -> list[SessionPlayer]:
    """The sessions a player was registered for, with their role there (one query)."""
    return list(SessionPlayer.objects.filter(entry=entry).select_related("session"))


@dataclass
class Candidates:
    """Who the session desk offers to register, and how many it cannot (R-BLK-07)."""

    offered: list[tuple[Entry, SessionPlayer | None]]  # with their place in another session
    played_elsewhere: list[Entry]


def registration_candidates(competition: Competition, session: Session) -> Candidates:
    """The competition's active entries not registered here (two queries)."""
    registered = set(
        SessionPlayer.objects.filter(session=session).values_list("entry_id", flat=True)
    )
    others = {
        sp.entry_id: sp
        for sp in SessionPlayer.objects.filter(session__competition=competition)
        .exclude(session=session)
        .select_related("session")
    }
    candidates = Candidates(offered=[], played_elsewhere=[])
    for entry in (
        Entry.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("player__name", "pk")
    ):
        if entry.pk in registered:
            continue
        elsewhere = others.get(entry.pk)
        if elsewhere and elsewhere.role == SessionPlayer.Role.SEATED:
            candidates.played_elsewhere.append(entry)  # took part in another session
        else:
            candidates.offered.append((entry, elsewhere))
    return candidates
