"""Every write of a Blokus tournament: one function per organiser action, each in a transaction.

Each function validates through ``blokus.rules``, writes, and bumps the competition's version
(``competition_touch``) so that the players' phones follow. Refusals are ``ServiceError`` with a
message from the constants below.

Decisions where RULES.md section 1 leaves a choice (see also the rules module's docstring):
- Registration is per qualifying session. A player may be registered for one session at a time;
  one who was seated in a session is refused for any other (R-BLK-07); a reserve, a player
  replaced before round 1 or one absent at the roll call never played and may register for a
  later session (A-BLK-04 (3), (4)).
- The roll call is per session, in check-in order; after the session is seated nobody else can
  check in (late arrivals are not seated and not reserves, A-BLK-13).
- A reserve replaces a seated player until round 1 has started; if round 1 was already drawn,
  the reserve takes over the seat (table and colour) of the player they replace. "Round 1 has
  started" means: its clock was started, or any result of the session was entered, or round 2
  was drawn (A-BLK-04 (2), A-BLK-05). A reserve who was seated in another session is refused
  like at the seating (R-BLK-07).
- A session that cannot be played (fewer than four at the roll call, ...) is declared "not
  held" by the organiser, with a reason shown on the desk and the public pages
  (``session_not_held``). Only a session nobody was seated in can be declared not held; it no
  longer holds up the final, which takes the top four of those who played (A-BLK-11). It can
  be undone until the final is seated. Sessions whose roll-call time has passed are *not*
  treated as not held automatically: the organiser may simply be late seating them.
- Withdrawal (the shared desk's "Withdraw" button) of a player seated in a session: the player
  drops out after the round in progress (A-BLK-05); this is applied when the next round is
  drawn (every later game counts as lost). A withdrawn player keeps their place in the
  qualification but is not seated at the final: the next qualifier moves up. Withdrawn
  players are never seated at a roll call.
- A drop-out (A-BLK-05) is recorded as "out after the round in progress" (the last round drawn,
  0 before round 1). In every later game the player scores as having all 89 squares left and is
  ranked last (``qualifying_points_with_dropouts``).
- A result can be corrected at the desk until the next round is drawn; after that the desk asks
  for an explicit confirmation, because later groupings used the old result (the admin can
  always change it). The same confirmation is asked for a qualifying result once the final is
  seated: the finalists stay as seated, and the pages show the players actually at the final
  as the finalists.
- The final is seated once every qualifying session has played all its rounds; the
  qualification lot (§22) is drawn then, once, and recorded. The competition is finished when
  the final's result is saved; a correction of the final stays possible.
- Seeds: every draw uses ``random.Random(seed)`` with a fresh 62-bit seed stored on the Round
  (or on the QualificationLot); ``seed=`` lets the demo and tests fix it.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from blokus import rules
from blokus.models import Hand, QualificationLot, SessionNotHeld, SessionPlayer
from events.models import Competition, Entry, Game, Round, Seat, Session
from events.services import ServiceError, competition_touch
from events.services import refuse as _refuse

NOT_BLOKUS = _("This competition is not a Blokus tournament.")
COMPETITION_FINISHED = _("The tournament is finished.")
SESSIONS_PLAYED = _("Session %(session)s has already been seated; its time cannot be removed.")
OTHER_COMPETITION = _("%(player)s is not registered in this competition.")
ENTRY_WITHDRAWN = _("%(player)s has withdrawn from the tournament.")
ALREADY_IN_SESSION = _("%(player)s is already registered for %(session)s.")
ALREADY_PLAYED = _(
    "%(player)s has already played in %(session)s; a player takes part in only one "
    "qualifying session."
)
REGISTERED_ELSEWHERE = _(
    "%(player)s is registered for %(session)s. Take them off that session first."
)
SESSION_ALREADY_SEATED = _("%(session)s has already been seated.")
SESSION_NOT_SEATED = _("%(session)s has not been seated yet.")
NOT_REGISTERED_HERE = _("%(player)s is not registered for this session.")
ALREADY_CHECKED_IN = _("%(player)s is already checked in.")
NOT_CHECKED_IN = _("%(player)s is not checked in.")
LATE_FOR_ROLL_CALL = _(
    "%(session)s has been seated; a player arriving after the roll call cannot play in it."
)
TOO_FEW_PRESENT = _(
    "Only %(count)s checked in: a session needs at least four players. It cannot start."
)
NOT_SEATED_PLAYER = _("%(player)s is not playing in this session.")
NOT_A_RESERVE = _("%(player)s is not a reserve in this session.")
ROUND_ONE_STARTED = _(
    "Round 1 has started (its clock ran, a result was entered or a later round was drawn); "
    "a reserve can no longer replace a player (A-BLK-05: no substitutes)."
)
NOT_HELD = _("%(session)s was declared not held: %(reason)s")
NOT_HELD_ALREADY = _("%(session)s is already declared not held.")
NOT_HELD_NOT = _("%(session)s is not declared not held.")
NOT_HELD_NEEDS_REASON = _("Say why the session is not held.")
NOT_HELD_PLAYED = _("%(session)s has been seated; it was held.")
NOT_HELD_FINAL = _("The final is seated; the sessions can no longer change.")
INVALID_STATE = _("This cannot be done: %(error)s")
ALL_ROUNDS_DRAWN = _("All %(rounds)s rounds of %(session)s have been drawn.")
ROUND_NOT_FINISHED = _("Round %(round)s still has games without a result.")
CLOCK_RUNNING = _("The clock of round %(round)s was already started.")
FINAL_HAS_NO_CLOCK = _("The final has no time limit (§24).")
ALREADY_DROPPED = _("%(player)s has already dropped out.")
NOT_DROPPED = _("%(player)s has not dropped out.")
DROP_OUT_USED = _(
    "A later round was drawn with %(player)s as a drop-out; the drop-out can no longer be undone."
)
STALE_RESULT = _(
    "Someone else changed this table's result in the meantime. The current result is shown; "
    "check it and save again if needed."
)
LATER_ROUND_DRAWN = _(
    "Round %(round)s was already drawn using this result. Confirm the correction: the later "
    "groupings stay as they are, but the standings will change."
)
FINAL_SEATED_CONFIRM = _(
    "The final was seated from the earlier standings; the finalists stay as seated. Confirm the "
    "correction: the qualification standings will change."
)
SEATS_MISMATCH = _("Enter a result for each of the four players at this table.")
DROPPED_SQUARES = _("%(player)s dropped out: they have all 89 squares left.")
INVALID_HAND = _("%(player)s: %(error)s")
FINAL_EXISTS = _("The final has already been seated.")
QUALIFYING_UNFINISHED = _(
    "The final can be seated when every qualifying session has played all its rounds; "
    "%(session)s has not. A session that cannot be held can be declared not held on its desk "
    "page."
)
TOO_FEW_QUALIFIERS = _("Fewer than four players took part: there is no final (A-BLK-11).")


def new_seed() -> int:
    return secrets.randbits(62)


def settings_of(competition: Competition) -> dict:
    values = competition.settings or {}
    return {
        "qualifying_sessions": int(values.get("qualifying_sessions", rules.QUALIFYING_SESSIONS)),
        "capacity": int(values.get("capacity", rules.DEFAULT_CAPACITY)),
        "rounds_per_session": int(values.get("rounds_per_session", rules.ROUNDS_PER_SESSION)),
        "round_minutes": int(values.get("round_minutes", rules.ROUND_MINUTES)),
        "official_bonus": bool(values.get("official_bonus", False)),
    }


def to_decimal(points: Fraction) -> Decimal:
    return Decimal(points.numerator) / Decimal(points.denominator)


def _ensure_blokus(competition: Competition) -> None:
    if competition.format != "blokus":
        raise _refuse(NOT_BLOKUS)


def _ensure_open(competition: Competition) -> None:
    _ensure_blokus(competition)
    if competition.is_finished:
        raise _refuse(COMPETITION_FINISHED)


def _locked_session(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("competition").get(pk=session.pk)


def _is_seated(session: Session) -> bool:
    return SessionPlayer.objects.filter(session=session, role=SessionPlayer.Role.SEATED).exists()


def _ensure_held(session: Session) -> None:
    not_held = SessionNotHeld.objects.filter(session=session).first()
    if not_held is not None:
        raise _refuse(NOT_HELD, session=session, reason=not_held.reason)


def _invalid(exc: rules.InvalidResult) -> ServiceError:
    """A rules refusal the desk did not foresee (e.g. after an admin edit): a message, not a 500."""
    return _refuse(INVALID_STATE, error=exc)


# --- set-up -----------------------------------------------------------------------------------


@transaction.atomic
def sessions_set_up(
    *, competition: Competition, roll_calls: Sequence[dt.datetime | None]
) -> list[Session]:
    """Create or update the qualifying sessions, one per roll-call time (R-BLK-01, R-BLK-08)."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    _ensure_open(competition)
    existing = {
        s.number: s
        for s in Session.objects.filter(competition=competition, kind=Session.Kind.QUALIFYING)
    }
    sessions = []
    for number, starts_at in enumerate(roll_calls, start=1):
        session = existing.pop(number, None)
        if session is None:
            session = Session.objects.create(
                competition=competition,
                number=number,
                kind=Session.Kind.QUALIFYING,
                starts_at=starts_at,
            )
        elif session.starts_at != starts_at:
            session.starts_at = starts_at
            session.save(update_fields=["starts_at"])
        sessions.append(session)
    for session in existing.values():  # fewer sessions than before: drop the unused ones
        if session.rounds.exists() or _is_seated(session):
            raise _refuse(SESSIONS_PLAYED, session=session)
        session.delete()
    competition_touch(competition)
    return sessions


# --- registration and roll call -------------------------------------------------------------


@transaction.atomic
def session_register(*, session: Session, entry: Entry) -> SessionPlayer:
    """Register an entry for one qualifying session (R-BLK-07, A-BLK-04)."""
    session = _locked_session(session)
    competition = session.competition
    _ensure_open(competition)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    player = entry.player
    if entry.competition_id != competition.pk:
        raise _refuse(OTHER_COMPETITION, player=player)
    if entry.withdrawn_at:
        raise _refuse(ENTRY_WITHDRAWN, player=player)
    _ensure_held(session)
    if _is_seated(session):
        raise _refuse(LATE_FOR_ROLL_CALL, session=session)
    for other in SessionPlayer.objects.filter(entry=entry).select_related(
        "session__blokus_not_held"
    ):
        if other.session_id == session.pk:
            raise _refuse(ALREADY_IN_SESSION, player=player, session=session)
        if other.role in (SessionPlayer.Role.SEATED,):
            raise _refuse(ALREADY_PLAYED, player=player, session=other.session)
        if (
            other.role == SessionPlayer.Role.REGISTERED
            and not hasattr(other.session, "blokus_not_held")
            and not _is_seated(other.session)
        ):
            raise _refuse(REGISTERED_ELSEWHERE, player=player, session=other.session)
    try:
        with transaction.atomic():
            session_player = SessionPlayer.objects.create(session=session, entry=entry)
    except IntegrityError as exc:
        raise _refuse(ALREADY_IN_SESSION, player=player, session=session) from exc
    competition_touch(competition)
    return session_player


def _locked_session_player(session_player: SessionPlayer) -> SessionPlayer:
    return (
        SessionPlayer.objects.select_for_update()
        .select_related("session__competition", "entry__player")
        .get(pk=session_player.pk)
    )


@transaction.atomic
def session_unregister(*, session_player: SessionPlayer) -> None:
    sp = _locked_session_player(session_player)
    _ensure_open(sp.session.competition)
    if _is_seated(sp.session):
        raise _refuse(SESSION_ALREADY_SEATED, session=sp.session)
    sp.delete()
    competition_touch(sp.session.competition)


@transaction.atomic
def session_check_in(*, session_player: SessionPlayer, at: dt.datetime | None = None) -> None:
    """The roll call: check in a registered player; the order of check-ins is kept."""
    sp = _locked_session_player(session_player)
    session = _locked_session(sp.session)
    _ensure_open(session.competition)
    _ensure_held(session)
    if _is_seated(session):
        raise _refuse(LATE_FOR_ROLL_CALL, session=session)
    if sp.checked_in_at:
        raise _refuse(ALREADY_CHECKED_IN, player=sp.entry.player)
    last = SessionPlayer.objects.filter(session=session).aggregate(m=Max("roll_call"))["m"] or 0
    sp.checked_in_at = at or timezone.now()
    sp.roll_call = last + 1
    sp.save(update_fields=["checked_in_at", "roll_call"])
    competition_touch(session.competition)


@transaction.atomic
def session_undo_check_in(*, session_player: SessionPlayer) -> None:
    sp = _locked_session_player(session_player)
    _ensure_open(sp.session.competition)
    if _is_seated(sp.session):
        raise _refuse(SESSION_ALREADY_SEATED, session=sp.session)
    if not sp.checked_in_at:
        raise _refuse(NOT_CHECKED_IN, player=sp.entry.player)
    sp.checked_in_at = None
    sp.roll_call = None
    sp.save(update_fields=["checked_in_at", "roll_call"])
    competition_touch(sp.session.competition)


@dataclass(frozen=True)
class SeatingPlan:
    players: list[SessionPlayer]
    reserves: list[SessionPlayer]
    refused: list[tuple[SessionPlayer, str]] = field(default_factory=list)

    @property
    def can_start(self) -> bool:
        return len(self.players) >= rules.PLAYERS_PER_GAME


def seating_plan(session: Session, session_players: Sequence[SessionPlayer]) -> SeatingPlan:
    """Who would play and who would be reserve if the session were seated now (R-BLK-09)."""
    capacity = settings_of(session.competition)["capacity"]
    present = sorted(
        (
            sp
            for sp in session_players
            if sp.checked_in_at and sp.roll_call and not sp.entry.withdrawn_at
        ),
        key=lambda sp: sp.roll_call,
    )
    try:
        players, reserves = rules.seat_session(present, capacity)
    except rules.InvalidResult as exc:
        raise _invalid(exc) from exc
    return SeatingPlan(players=players, reserves=reserves)


@transaction.atomic
def session_seat(*, session: Session) -> SeatingPlan:
    """Seat the session: the first multiple of four in roll-call order play, the rest reserve."""
    session = _locked_session(session)
    competition = session.competition
    _ensure_open(competition)
    if session.kind != Session.Kind.QUALIFYING:
        raise _refuse(NOT_BLOKUS)
    _ensure_held(session)
    if _is_seated(session):
        raise _refuse(SESSION_ALREADY_SEATED, session=session)
    session_players = list(
        SessionPlayer.objects.filter(session=session).select_related("entry__player")
    )
    plan = seating_plan(session, session_players)
    if not plan.can_start:
        present = sum(1 for sp in session_players if sp.checked_in_at and not sp.entry.withdrawn_at)
        raise _refuse(TOO_FEW_PRESENT, count=present)
    played = set(
        SessionPlayer.objects.filter(
            entry__in=[sp.entry_id for sp in plan.players], role=SessionPlayer.Role.SEATED
        )
        .exclude(session=session)
        .values_list("entry_id", flat=True)
    )
    try:
        rules.check_session_eligibility([sp.entry_id for sp in plan.players], played)
    except rules.InvalidResult as exc:
        names = [str(sp.entry.player) for sp in plan.players if sp.entry_id in played]
        raise _refuse(rules.ALREADY_PLAYED.format(", ".join(names))) from exc
    for sp in plan.players:
        sp.role = SessionPlayer.Role.SEATED
    for sp in plan.reserves:
        sp.role = SessionPlayer.Role.RESERVE
    SessionPlayer.objects.bulk_update(plan.players + plan.reserves, ["role"])
    if competition.status == Competition.Status.REGISTRATION:
        competition.status = Competition.Status.RUNNING
        competition.save(update_fields=["status"])
    competition_touch(competition)
    return plan


@transaction.atomic
def session_replace(*, seated: SessionPlayer, reserve: SessionPlayer) -> None:
    """A reserve takes the place of a seated player who leaves before round 1 starts."""
    out = _locked_session_player(seated)
    sub = _locked_session_player(reserve)
    session = _locked_session(out.session)
    _ensure_open(session.competition)
    if out.session_id != session.pk or out.role != SessionPlayer.Role.SEATED:
        raise _refuse(NOT_SEATED_PLAYER, player=out.entry.player)
    if sub.session_id != session.pk or sub.role != SessionPlayer.Role.RESERVE:
        raise _refuse(NOT_A_RESERVE, player=sub.entry.player)
    if sub.entry.withdrawn_at:
        raise _refuse(ENTRY_WITHDRAWN, player=sub.entry.player)
    first = Round.objects.filter(session=session, number=1).first()
    if first and (
        first.started_at
        or Round.objects.filter(session=session, number__gt=1).exists()
        or Game.objects.filter(round__session=session).exclude(status=Game.Status.PENDING).exists()
    ):
        raise _refuse(ROUND_ONE_STARTED)
    elsewhere = (
        SessionPlayer.objects.filter(entry_id=sub.entry_id, role=SessionPlayer.Role.SEATED)
        .exclude(session=session)
        .select_related("session")
        .first()
    )
    try:
        rules.check_session_eligibility(
            [sub.entry_id], {elsewhere.entry_id} if elsewhere is not None else set()
        )
    except rules.InvalidResult as exc:
        raise _refuse(ALREADY_PLAYED, player=sub.entry.player, session=elsewhere.session) from exc
    if first:
        Seat.objects.filter(game__round=first, entry=out.entry).update(entry=sub.entry)
        Game.objects.filter(round=first).update(revision=F("revision") + 1)
    out.role = SessionPlayer.Role.REPLACED
    out.dropped_after_round = None
    sub.role = SessionPlayer.Role.SEATED
    SessionPlayer.objects.bulk_update([out, sub], ["role", "dropped_after_round"])
    competition_touch(session.competition)


@transaction.atomic
def session_drop_out(*, session_player: SessionPlayer) -> None:
    """A seated player leaves during the session (A-BLK-05): later games count as lost."""
    sp = _locked_session_player(session_player)
    session = _locked_session(sp.session)
    _ensure_open(session.competition)
    if sp.role != SessionPlayer.Role.SEATED:
        raise _refuse(NOT_SEATED_PLAYER, player=sp.entry.player)
    if sp.dropped_after_round is not None:
        raise _refuse(ALREADY_DROPPED, player=sp.entry.player)
    last = Round.objects.filter(session=session).aggregate(m=Max("number"))["m"] or 0
    sp.dropped_after_round = last
    sp.save(update_fields=["dropped_after_round"])
    competition_touch(session.competition)


@transaction.atomic
def session_drop_out_undo(*, session_player: SessionPlayer) -> None:
    sp = _locked_session_player(session_player)
    session = _locked_session(sp.session)
    _ensure_open(session.competition)
    if sp.dropped_after_round is None:
        raise _refuse(NOT_DROPPED, player=sp.entry.player)
    if Round.objects.filter(session=session, number__gt=sp.dropped_after_round).exists():
        raise _refuse(DROP_OUT_USED, player=sp.entry.player)
    sp.dropped_after_round = None
    sp.save(update_fields=["dropped_after_round"])
    competition_touch(session.competition)


# --- rounds -------------------------------------------------------------------------------------


def _session_totals(session: Session) -> dict[int, tuple[Fraction, int]]:
    """entry id -> (points, total score) over the session's finished games."""
    totals: dict[int, tuple[Fraction, int]] = {}
    seats = Seat.objects.filter(
        game__round__session=session, game__status=Game.Status.FINISHED
    ).values_list("entry_id", "points", "score")
    for entry_id, points, score in seats:
        p, s = totals.get(entry_id, (Fraction(0), 0))
        totals[entry_id] = (p + Fraction(points or 0), s + (score or 0))
    return totals


def _create_games(round_: Round, tables: list[list[Entry]], rng: random.Random) -> list[Game]:
    games = []
    for number, table in enumerate(tables, start=1):
        game = Game.objects.create(round=round_, number=number)
        try:
            colours = rules.draw_colours(table, rng)
        except rules.InvalidResult as exc:
            raise _invalid(exc) from exc
        Seat.objects.bulk_create(
            Seat(game=game, entry=entry, position=position, colour=colour)
            for position, (entry, colour) in enumerate(colours.items(), start=1)
        )
        games.append(game)
    return games


@transaction.atomic
def round_draw(*, session: Session, seed: int | None = None) -> Round:
    """Draw the next round: round 1 by lot, later ones by points, total score, lot (§15, §16)."""
    session = _locked_session(session)
    competition = session.competition
    _ensure_open(competition)
    if session.kind != Session.Kind.QUALIFYING:
        raise _refuse(NOT_BLOKUS)
    rounds_per_session = settings_of(competition)["rounds_per_session"]
    seated = list(
        SessionPlayer.objects.filter(session=session, role=SessionPlayer.Role.SEATED)
        .select_related("entry")
        .order_by("roll_call", "pk")
    )
    if not seated:
        raise _refuse(SESSION_NOT_SEATED, session=session)
    last = Round.objects.filter(session=session).order_by("-number").first()
    number = (last.number if last else 0) + 1
    if number > rounds_per_session:
        raise _refuse(ALL_ROUNDS_DRAWN, rounds=rounds_per_session, session=session)
    if last and last.games.exclude(status=Game.Status.FINISHED).exists():
        raise _refuse(ROUND_NOT_FINISHED, round=last.number)
    # Players withdrawn at the shared desk drop out after the round in progress (A-BLK-05).
    withdrawn = [sp for sp in seated if sp.entry.withdrawn_at and sp.dropped_after_round is None]
    for sp in withdrawn:
        sp.dropped_after_round = number - 1
    SessionPlayer.objects.bulk_update(withdrawn, ["dropped_after_round"])
    totals = _session_totals(session)
    standings = [(sp.entry, *totals.get(sp.entry_id, (Fraction(0), 0))) for sp in seated]
    seed = new_seed() if seed is None else seed
    rng = random.Random(seed)
    try:
        tables = rules.group_round(standings, rng)
    except rules.InvalidResult as exc:
        raise _invalid(exc) from exc
    round_ = Round.objects.create(session=session, number=number, seed=seed)
    _create_games(round_, tables, rng)
    competition_touch(competition)
    return round_


@transaction.atomic
def round_start_clock(*, round: Round, now: dt.datetime | None = None) -> Round:  # noqa: A002
    """Start the round's clock for every board at once (A-BLK-03); the final has none."""
    round_ = (
        Round.objects.select_for_update().select_related("session__competition").get(pk=round.pk)
    )
    _ensure_open(round_.session.competition)
    if round_.session.kind == Session.Kind.FINAL:
        raise _refuse(FINAL_HAS_NO_CLOCK)
    if round_.started_at:
        raise _refuse(CLOCK_RUNNING, round=round_.number)
    round_.started_at = now or timezone.now()
    round_.save(update_fields=["started_at"])
    Game.objects.filter(round=round_, status=Game.Status.PENDING).update(status=Game.Status.PLAYING)
    competition_touch(round_.session.competition)
    return round_


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandInput:
    seat_id: int
    squares_left: int
    monomino_last: bool = False
    pieces: tuple[str, ...] = ()


def dropped_entries(session: Session, round_number: int) -> set[int]:
    """Entries of ``session`` who dropped out before round ``round_number``."""
    return set(
        SessionPlayer.objects.filter(
            session=session, dropped_after_round__lt=round_number
        ).values_list("entry_id", flat=True)
    )


def score_hands(
    hands: Sequence[tuple[int, bool]], dropped: Sequence[bool], *, official_bonus: bool
) -> tuple[list[int], list[Fraction]]:
    """(squares left, monomino last) per seat -> game scores and points (R-BLK-19..24)."""
    scores = [
        rules.game_score(squares, mono, official_bonus=official_bonus) for squares, mono in hands
    ]
    points = rules.qualifying_points_with_dropouts(scores, list(dropped))
    return scores, points


@transaction.atomic
def game_result_record(
    *,
    game: Game,
    revision: int,
    hands: Sequence[HandInput],
    confirm_later_round: bool = False,
) -> Game:
    """Save (or correct) one table's result: every seat's hand, score and points."""
    game = (
        Game.objects.select_for_update()
        .select_related("round__session__competition")
        .get(pk=game.pk)
    )
    session = game.round.session
    competition = session.competition
    _ensure_blokus(competition)
    if competition.is_finished and session.kind != Session.Kind.FINAL:
        raise _refuse(COMPETITION_FINISHED)
    if revision != game.revision:
        raise _refuse(STALE_RESULT)
    later = (
        Round.objects.filter(session=session, number__gt=game.round.number)
        .order_by("number")
        .first()
    )
    if later and not confirm_later_round:
        raise _refuse(LATER_ROUND_DRAWN, round=later.number)
    if (
        session.kind == Session.Kind.QUALIFYING
        and not confirm_later_round
        and Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists()
    ):
        raise _refuse(FINAL_SEATED_CONFIRM)
    seats = list(game.seats.select_related("entry__player").order_by("position"))
    by_seat = {hand.seat_id: hand for hand in hands}
    if len(by_seat) != len(hands) or set(by_seat) != {seat.pk for seat in seats}:
        raise _refuse(SEATS_MISMATCH)
    dropped = (
        dropped_entries(session, game.round.number)
        if session.kind == Session.Kind.QUALIFYING
        else set()
    )
    flags = []
    for seat in seats:
        hand = by_seat[seat.pk]
        gone = seat.entry_id in dropped
        if gone and (hand.squares_left != rules.TOTAL_SQUARES or hand.monomino_last):
            raise _refuse(DROPPED_SQUARES, player=seat.entry.player)
        try:
            rules.game_score(hand.squares_left, hand.monomino_last)
            if hand.pieces and rules.squares_of(hand.pieces) != hand.squares_left:
                raise rules.InvalidResult(_("The pieces left do not add up to the squares left."))
        except rules.InvalidResult as exc:
            raise _refuse(INVALID_HAND, player=seat.entry.player, error=exc) from exc
        flags.append(gone)
    official = settings_of(competition)["official_bonus"]
    try:
        scores, points = score_hands(
            [(by_seat[s.pk].squares_left, by_seat[s.pk].monomino_last) for s in seats],
            flags,
            official_bonus=official,
        )
    except rules.InvalidResult as exc:
        raise _invalid(exc) from exc
    for seat, score, pts in zip(seats, scores, points, strict=True):
        hand = by_seat[seat.pk]
        seat.score = score
        seat.points = to_decimal(pts)
        Hand.objects.update_or_create(
            seat=seat,
            defaults={
                "squares_left": hand.squares_left,
                "monomino_last": hand.monomino_last,
                "pieces": sorted(hand.pieces, key=list(rules.PIECE_SIZES).index),
            },
        )
    Seat.objects.bulk_update(seats, ["score", "points"])
    game.status = Game.Status.FINISHED
    game.revision += 1
    game.save(update_fields=["status", "revision", "updated_at"])
    if session.kind == Session.Kind.FINAL and competition.status != Competition.Status.FINISHED:
        competition.status = Competition.Status.FINISHED
        competition.save(update_fields=["status"])
    competition_touch(competition)
    return game


# --- qualification and final ------------------------------------------------------------------


def qualifying_complete(competition: Competition) -> Session | None:
    """The first qualifying session that has not played all its rounds, or None (one query).

    A session declared not held (``session_not_held``) does not count: nobody played in it.
    """
    rounds_per_session = settings_of(competition)["rounds_per_session"]
    sessions = (
        Session.objects.filter(
            competition=competition, kind=Session.Kind.QUALIFYING, blokus_not_held__isnull=True
        )
        .annotate(
            drawn=Count("rounds", distinct=True),
            open_games=Count(
                "rounds__games",
                filter=Q(rounds__games__status__in=[Game.Status.PENDING, Game.Status.PLAYING]),
                distinct=True,
            ),
        )
        .order_by("number")
    )
    for session in sessions:
        if session.drawn < rounds_per_session or session.open_games:
            return session
    return None


@transaction.atomic
def final_seat(
    *, competition: Competition, seed: int | None = None, lot_seed: int | None = None
) -> Session:
    """Record the qualification lot, seat the top four at the final with drawn colours."""
    from blokus.selectors import qualification_rows

    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    _ensure_open(competition)
    if Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists():
        raise _refuse(FINAL_EXISTS)
    unfinished = qualifying_complete(competition)
    if unfinished is not None:
        raise _refuse(QUALIFYING_UNFINISHED, session=unfinished)
    if not QualificationLot.objects.filter(competition=competition).exists():
        lot_seed = new_seed() if lot_seed is None else lot_seed
        entry_ids = sorted(
            SessionPlayer.objects.filter(
                session__competition=competition, role=SessionPlayer.Role.SEATED
            ).values_list("entry_id", flat=True)
        )
        order = rules.lot_order(entry_ids, random.Random(lot_seed))
        QualificationLot.objects.create(competition=competition, seed=lot_seed, order=order)
    rows = qualification_rows(competition)
    # A withdrawn player is not seated at the final: the next qualifier moves up.
    try:
        top = rules.finalists([row.entry.pk for row in rows if not row.entry.withdrawn_at])
    except rules.InvalidResult as exc:
        raise _invalid(exc) from exc
    if not top:
        raise _refuse(TOO_FEW_QUALIFIERS)
    entries = {row.entry.pk: row.entry for row in rows}
    number = (
        Session.objects.filter(competition=competition).aggregate(m=Max("number"))["m"] or 0
    ) + 1
    final = Session.objects.create(
        competition=competition, number=number, kind=Session.Kind.FINAL, name=str(_("Final"))
    )
    seed = new_seed() if seed is None else seed
    round_ = Round.objects.create(session=final, number=1, seed=seed)
    _create_games(round_, [[entries[pk] for pk in top]], random.Random(seed))
    competition_touch(competition)
    return final


@transaction.atomic
def session_not_held(*, session: Session, reason: str) -> SessionNotHeld:
    """Declare a qualifying session not held (nobody seated): it no longer holds up the final."""
    session = _locked_session(session)
    competition = session.competition
    _ensure_open(competition)
    if session.kind != Session.Kind.QUALIFYING:
        raise _refuse(NOT_BLOKUS)
    reason = (reason or "").strip()
    if not reason:
        raise _refuse(NOT_HELD_NEEDS_REASON)
    if Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists():
        raise _refuse(NOT_HELD_FINAL)
    if _is_seated(session) or Round.objects.filter(session=session).exists():
        raise _refuse(NOT_HELD_PLAYED, session=session)
    if SessionNotHeld.objects.filter(session=session).exists():
        raise _refuse(NOT_HELD_ALREADY, session=session)
    record = SessionNotHeld.objects.create(session=session, reason=reason[:200])
    competition_touch(competition)
    return record


@transaction.atomic
def session_not_held_undo(*, session: Session) -> None:
    """The session will be held after all (until the final is seated)."""
    session = _locked_session(session)
    competition = session.competition
    _ensure_open(competition)
    if Session.objects.filter(competition=competition, kind=Session.Kind.FINAL).exists():
        raise _refuse(NOT_HELD_FINAL)
    deleted, _rows = SessionNotHeld.objects.filter(session=session).delete()
    if not deleted:
        raise _refuse(NOT_HELD_NOT, session=session)
    competition_touch(competition)
