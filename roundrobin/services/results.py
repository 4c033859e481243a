"""Results: the organiser's entry or correction, players' reports, and what follows from one
(ratings, tiebreaks, the competition's status)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, Forbidden, Gone, Invalid, NotFound, Stale, refuse
from events.models import Competition, CompetitionStatus, Correction, Entry, Game, Seat, Session
from events.outbox import queue, webhooks
from events.seat_checks import seat_writes
from events.services import competition_touch, submission_use
from roundrobin import rules, selectors
from roundrobin.models import Ending, GameDetail, RatingSnapshot, ResultReport, Withdrawal
from roundrobin.services import mail
from roundrobin.services.base import decimal, locked_competition, now_or, options, turns_stop
from roundrobin.services.ratings import ratings_recompute
from roundrobin.services.tiebreaks import tiebreaks_sync_tables
from roundrobin.services.trail import trail_record, trail_state

NOT_RUNNING = _("The competition is not running.")
BAD_RESULT = _("Choose 1-0, ½-½ or 0-1.")
STALE_GAME = _(
    "Someone else changed this game in the meantime: it is now %(result)s. "
    "Check it and enter the result again if it is still wrong."
)
NOT_EDITABLE = _("This game's result comes from a withdrawal and cannot be changed here.")
NOT_IN_COMPETITION = _("This game is not part of this competition.")
NOT_YOUR_GAME = _("This game is not one of yours.")
PLAYER_WITHDRAWN = _("You have withdrawn from this competition.")
RESULT_ALREADY = _(
    "This game is over (%(state)s); its result is already recorded. Ask the organiser if it "
    "is wrong."
)
RESULT_UNKNOWN = _("Report 1-0, ½-½ or 0-1.")
OUTCOME_UNKNOWN = _("Report “I won”, “Draw”, “I lost” or “I resign”.")
CONFIRM_REPLACE = _(
    "This game already has a result (%(old)s). Replacing it with %(new)s needs a confirmation."
)


def _result_label(game: Game) -> str:
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    if len(seats) != 2 or seats[0].points is None or seats[1].points is None:
        return str(_("no result yet"))
    pair = (Fraction(seats[0].points), Fraction(seats[1].points))
    return selectors.RESULT_LABELS.get(pair, "?")


def _points(result: object, message: object) -> tuple[Fraction, Fraction]:
    try:
        return rules.result_points(result)
    except rules.InvalidResult:
        raise refuse(message, error_class=Invalid, code="bad_result") from None


@transaction.atomic
def game_result_record(
    *,
    competition: Competition,
    game_id: int,
    result: str,
    revision: int,
    now: datetime | None = None,
    by: Any = None,
    confirmed: bool = False,
    submission: str = "",
) -> Game:
    """Enter or correct a game's result (1-0, ½-½, 0-1) as the organiser (``by``).

    Refused when the form was drawn from an older revision of the game (someone else changed
    it). A result that replaces a different earlier one is refused (``Conflict``, code
    ``confirm_replace``) unless ``confirmed``: the desk shows old → new first (N-RR-23); the
    revision still refuses a confirmation drawn from an older state. A first result finishes
    the game now; a correction keeps its finish time, so it keeps its place in the rating
    order, and every later rating change is recomputed. ``submission``: the client's key,
    taken once (``AlreadySubmitted`` for a replay, nothing done twice).
    """
    submission_use(submission)
    competition = locked_competition(competition)
    if competition.status == CompetitionStatus.REGISTRATION:
        raise refuse(NOT_RUNNING, code="not_running")
    points = _points(result, BAD_RESULT)
    game = (
        Game.objects.select_for_update(of=("self",))
        .filter(pk=game_id, round__session__competition=competition)
        .select_related("round__session")
        .first()
    )
    if game is None:
        raise refuse(NOT_IN_COMPETITION, error_class=NotFound, code="game_not_in_competition")
    detail = GameDetail.objects.select_for_update().get(game=game)
    if game.revision != revision:
        raise refuse(STALE_GAME, error_class=Stale, code="stale_result", result=_result_label(game))
    if detail.ending in (Ending.FORFEIT, Ending.CANCELLED):
        raise refuse(NOT_EDITABLE, code="result_not_editable")
    if not confirmed and replaces(game, detail, points):
        raise refuse(
            CONFIRM_REPLACE,
            error_class=Conflict,
            code="confirm_replace",
            old=_result_label(game),
            new=selectors.RESULT_LABELS.get(points, "?"),
        )
    game_finish(
        competition=competition,
        game=game,
        detail=detail,
        points=points,
        ending=Ending.PLAYED,
        now=now_or(now),
        by=by,
    )
    return game


def replaces(game: Game, detail: GameDetail, points: tuple[Fraction, Fraction]) -> bool:
    """Whether giving ``game`` the played result ``points`` replaces a different result."""
    if not detail.has_result:
        return False
    stored = tuple(
        None if seat.points is None else Fraction(seat.points)
        for seat in sorted(game.seats.all(), key=lambda seat: seat.position)
    )
    return stored != points or detail.ending != Ending.PLAYED


def game_finish(
    *,
    competition: Competition,
    game: Game,
    detail: GameDetail,
    points: tuple[Fraction, Fraction],
    ending: str,
    now: datetime,
    both_moved: bool = True,
    clock_now: datetime | None = None,
    source: str = Correction.Source.DESK,
    by: Any = None,
    reverts: Correction | None = None,
    follow: FollowUp | None = None,
) -> None:
    """Write a (first, second) result with its ending, then re-apply what follows from it:
    ratings from its finish time on, the table's tiebreaks, the competition's status.

    ``now`` is the game's finish time; ``clock_now`` (default ``now``) is the real current
    time, at which new tiebreak stages start: a time loss found late by ``process_deadlines``
    finishes the game at its old deadline, but a decider it calls for starts at the sweep.

    The one place a game gets its result: the organiser's entry, a player's report and the
    clock (a time loss or a double forfeit passes its ending and ``both_moved``). A game that
    was already over keeps its finish time, so a correction keeps its place in the rating
    order. The caller holds the competition's lock and the game's and detail's rows.

    Replacing a result that was already there writes the correction trail (``source``,
    ``by``, ``reverts`` say where it came from), in this transaction.

    With ``follow``, what follows (ratings, tiebreaks, status, version) is gathered there for
    the caller to apply once with ``results_follow_up`` (the deadline sweep's batches).
    """
    rules.check_result(*points)
    seats = sorted(Seat.objects.select_for_update().filter(game=game), key=lambda s: s.position)
    had = trail_state(detail, seats)
    for seat, value in zip(seats, points, strict=True):
        seat.points = decimal(value)
    with seat_writes():  # a seat an old backup left impossible: Invalid, in words
        Seat.objects.bulk_update(seats, ["points"])

    before = detail.ended_at
    detail.ending = ending
    detail.ended_at = detail.ended_at or now
    detail.rated = options(competition).rated and rules.is_rated(ending, both_moved=both_moved)
    detail.full_clean()
    detail.save()
    game.status = Game.Status.FINISHED
    game.revision += 1
    game.save(update_fields=["status", "revision", "updated_at"])
    turns_stop([game.pk], now)
    queue.subject_ended(mail.result_subject(game.pk))  # the result stands: nothing to confirm
    webhooks.announce(  # "result.confirmed" to the event's webhooks
        webhooks.WebhookTopic.RESULT,
        competition,
        subject=f"game:{game.pk}:r{game.revision}",
        data={
            "session": game.round.session_id,
            "round": game.round_id,
            "game": game.pk,
            "ending": ending,
            "correction": had is not None,
        },
        now=clock_now or now,
    )
    if had is not None:  # a result replaced: the trail (R-RR corrections, module docstring)
        trail_record(
            competition=competition,
            game=game,
            before=had,
            after=trail_state(detail, seats),
            source=source,
            by=by,
            reverts=reverts,
        )

    since = min(moment for moment in (before, detail.ended_at) if moment is not None)
    if follow is None:
        results_follow_up(competition, since, {game.round.session.number}, clock_now or now)
    else:
        follow.add(since, game.round.session.number)


@dataclass
class FollowUp:
    """What finished games still call for, gathered so that a batch of them (a deadline sweep)
    recomputes the ratings, the tiebreaks of each table and the status once, not per game."""

    since: datetime | None = None
    tables: set[int] = field(default_factory=set)

    def add(self, since: datetime, table: int) -> None:
        self.since = since if self.since is None else min(self.since, since)
        self.tables.add(table)


def results_follow_up(
    competition: Competition, since: datetime, tables: set[int], clock_now: datetime
) -> None:
    """Ratings from ``since`` on, the tiebreaks of these tables (by session number), the
    status, the version: what follows from results written. The rating log depends only on
    which games are over and when they ended, so one recompute from the earliest change equals
    one per game in any order; the tiebreaks of a table depend only on its results."""
    ratings_recompute(competition, since)
    tiebreaks_sync_tables(competition, sorted(tables), clock_now)
    status_sync(competition)
    competition_touch(competition)


def status_sync(competition: Competition) -> None:
    """FINISHED once every table is final (R-RR-09), RUNNING again if a correction reopened one."""
    regular_open = GameDetail.objects.filter(
        game__round__session__competition=competition, game__round__number=1, ending=Ending.OPEN
    ).exists()
    if regular_open:  # the common case, without loading every table
        final = False
    else:
        tables = selectors.tables_for_competition(competition)
        final = bool(tables) and all(table.is_final for table in tables)
    status = CompetitionStatus.FINISHED if final else CompetitionStatus.RUNNING
    if competition.status != status:
        competition.status = status
        competition.save(update_fields=["status"])


@transaction.atomic
def competition_recompute(*, competition: Competition, now: datetime | None = None) -> None:
    """Re-apply this competition's ratings from the snapshot, every table's tiebreaks and the
    status, after results were changed in admin (where none of this happens by itself)."""
    competition = locked_competition(competition)
    if competition.status == CompetitionStatus.REGISTRATION:
        return
    now = now_or(now)
    first = (
        RatingSnapshot.objects.filter(entry__competition=competition)
        .order_by("taken_at")
        .values_list("taken_at", flat=True)
        .first()
    )
    if first is not None:
        ratings_recompute(competition, first)
    numbers = Session.objects.filter(competition=competition, kind=Session.Kind.TABLE)
    tiebreaks_sync_tables(competition, list(numbers.values_list("number", flat=True)), now)
    status_sync(competition)
    competition_touch(competition)


def game_of_player(competition: Competition, entry: Entry, game_id: object) -> Game:
    """One of ``entry``'s games in this competition; NotFound for anything else."""
    try:
        pk = int(game_id)  # type: ignore[call-overload]  # anything a client sent: checked here
    except (TypeError, ValueError):
        raise refuse(NOT_YOUR_GAME, error_class=NotFound, code="not_your_game") from None
    game = (
        Game.objects.filter(pk=pk, round__session__competition=competition, seats__entry=entry)
        .select_related("round__session")
        .first()
    )
    if game is None:
        raise refuse(NOT_YOUR_GAME, error_class=NotFound, code="not_your_game")
    return game


def check_not_withdrawn(entry: Entry) -> None:
    if Withdrawal.objects.filter(entry=entry).exists() or entry.withdrawn_at is not None:
        raise refuse(PLAYER_WITHDRAWN, error_class=Forbidden, code="player_withdrawn")


@transaction.atomic
def result_claim(
    *, entry: Entry, game_id: object, outcome: object, now: datetime | None = None
) -> bool:
    """A player reports a result from their own side on their private page: "won", "draw",
    "lost" or "resign" (N-RR-22). Mapped here, by the player's seat, to the result from
    White's side, then reported as ``result_report`` does (a loss, resigning included, is
    recorded at once; anything else when the opponent reports the same). True once recorded."""
    competition = locked_competition(entry.competition)
    game = game_of_player(competition, entry, game_id)
    position = Seat.objects.filter(game=game, entry=entry).values_list("position", flat=True)[0]
    try:
        result = rules.result_of_outcome(outcome, position)
    except rules.InvalidResult:
        raise refuse(OUTCOME_UNKNOWN, error_class=Invalid, code="bad_result") from None
    return result_report(entry=entry, game_id=game.pk, result=result, now=now)


@transaction.atomic
def result_report(
    *, entry: Entry, game_id: object, result: object, now: datetime | None = None
) -> bool:
    """A player (or their game server) reports a game's result; True once it is recorded.

    A report that the reporter lost (resigning) is recorded at once. Any other report waits
    for the opponent to report the same result; then it is recorded as played. Reports that
    differ wait for the organiser, who sees them on the table page and records the result.
    """
    now = now_or(now)
    points = _points(result, RESULT_UNKNOWN)
    competition = locked_competition(entry.competition)
    game = game_of_player(competition, entry, game_id)
    check_not_withdrawn(entry)
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("round__session")
        .get(pk=game.pk)
    )
    detail = GameDetail.objects.select_for_update().get(game=game)
    if detail.is_over:
        raise refuse(
            RESULT_ALREADY,
            error_class=Gone,
            code="result_already_recorded",
            state=detail.get_ending_display(),
        )
    seats = {s.entry_id: s.position for s in Seat.objects.filter(game=game)}
    resigns = points[seats[entry.pk] - 1] == rules.LOSS
    ResultReport.objects.update_or_create(
        game=game, entry=entry, defaults={"result": result, "at": now}
    )
    other = next(pk for pk in seats if pk != entry.pk)
    agreed = ResultReport.objects.filter(game=game, entry_id=other, result=result).exists()
    if not (resigns or agreed):
        competition_touch(competition)
        # The opponent hears there is a result to confirm.
        mail.result_to_confirm(
            competition=competition, game_id=game.pk, reporter=entry, result=str(result), now=now
        )
        return False
    game_finish(
        competition=competition,
        game=game,
        detail=detail,
        points=points,
        ending=Ending.PLAYED,
        now=now,
    )
    return True
