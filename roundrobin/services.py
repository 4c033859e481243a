"""Every write of the correspondence round robin: one function per organiser action.

Each runs in a transaction, locks the competition row first (so that the writes of one
competition happen one after another and the rating log stays in order), validates through
``rules``, and bumps the competition's version (``competition_touch``) for the live pages.

Ratings (RULES.md §5, R-RR-25): every finished rated game changes both players' ratings at once,
with the ratings at completion time and each player's own K. The log (``RatingChange``) is
recomputed from the first game whose result changed, in finish order (``ended_at``, then game
id), starting from the rating snapshot taken at the start plus the earlier changes of this
competition. ``Player.rating`` and ``Player.rated_games`` move by the difference between the new
and the old log, so changes made by other competitions in the meantime are kept. A correction of
an earlier result therefore re-applies every later change of this competition consistently
(ratings earned elsewhere during the event are not fed back into this event's expectations:
this competition's chain starts from its snapshot).
"""

from __future__ import annotations

import random
import secrets
import unicodedata
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import F, Max, Q, Value
from django.db.models.functions import Greatest, Least
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import (
    Competition,
    CompetitionStatus,
    Entry,
    Event,
    Game,
    Player,
    Round,
    Seat,
    Session,
)
from events.services import ServiceError, competition_touch
from events.services import refuse as _refuse
from roundrobin import rules, selectors
from roundrobin.models import (
    Ending,
    GameDetail,
    PlayerToken,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
    Withdrawal,
)

NOT_ROUND_ROBIN = _("This competition is not a correspondence round robin.")
ALREADY_STARTED = _("The competition has already started.")
NOT_RUNNING = _("The competition is not running.")
CANNOT_START = _("The competition cannot start: %(reason)s")
BAD_RESULT = _("Choose 1-0, ½-½ or 0-1.")
STALE_GAME = _(
    "Someone else changed this game in the meantime: it is now %(result)s. "
    "Check it and enter the result again if it is still wrong."
)
NOT_EDITABLE = _("This game's result comes from a withdrawal and cannot be changed here.")
NOT_IN_COMPETITION = _("This game is not part of this competition.")
NOT_AT_A_TABLE = _("%(player)s is not playing at a table.")
STALE_WITHDRAWAL = _(
    "The situation changed since you looked: nothing was withdrawn. Check the new preview and "
    "confirm again."
)
ALREADY_WITHDRAWN = _("%(player)s has already withdrawn.")

RESULTS: dict[str, tuple[Fraction, Fraction]] = {
    "1-0": (rules.WIN, rules.LOSS),
    "1/2-1/2": (rules.DRAW, rules.DRAW),
    "0-1": (rules.LOSS, rules.WIN),
}


def _locked_competition(competition: Competition) -> Competition:
    competition = (
        Competition.objects.select_for_update(of=("self",))
        .select_related("event")
        .get(pk=competition.pk)
    )
    if competition.format != "roundrobin":
        raise _refuse(NOT_ROUND_ROBIN)
    return competition


def _decimal(points: Fraction) -> Decimal:
    return Decimal(points.numerator) / Decimal(points.denominator)


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


# --- Start ---------------------------------------------------------------------------------------


def _create_games(
    *, round_: Round, pairs: list[tuple[int, int]], hours: int, start_number: int = 1
) -> list[Game]:
    games = Game.objects.bulk_create(
        Game(round=round_, number=number, status=Game.Status.PLAYING)
        for number, _pair in enumerate(pairs, start=start_number)
    )
    Seat.objects.bulk_create(
        Seat(game=game, entry_id=entry_id, position=position, colour=colour)
        for game, pair in zip(games, pairs, strict=True)
        for position, (entry_id, colour) in enumerate(
            zip(pair, ("white", "black"), strict=True), start=1
        )
    )
    GameDetail.objects.bulk_create(GameDetail(game=game) for game in games)
    # R-RR-05, R-RR-10: turn 1 of every game opens when the game starts.
    opened = round_.started_at
    Turn.objects.bulk_create(
        Turn(game=game, number=1, opened_at=opened, deadline=rules.turn_deadline(opened, hours))
        for game in games
    )
    return games


@transaction.atomic
def competition_start(
    *, competition: Competition, seed: int | None = None, now: datetime | None = None
) -> list[Session]:
    """Snapshot the ratings, split the checked-in players into tables and create every game
    of every table at once with its colours (R-RR-01..06, R-RR-26). The start time is every
    game's clock start."""
    competition = _locked_competition(competition)
    if competition.status != CompetitionStatus.REGISTRATION:
        raise _refuse(ALREADY_STARTED)
    now = _now(now)
    entries = selectors.start_candidates(competition)
    settings = competition.settings
    max_size = int(settings.get("max_table_size", rules.MAX_TABLE_SIZE))
    try:
        tables = rules.split_into_tables([e.pk for e in entries], max_size)
    except rules.InvalidResult as exc:
        raise _refuse(CANNOT_START, reason=str(exc)) from exc
    balanced = settings.get("colours", "random") == "berger"
    seed = secrets.randbits(62) if seed is None else seed
    master = random.Random(seed)

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
    for round_, table in zip(rounds, tables, strict=True):
        pairs = rules.pairs_with_colours(table, random.Random(round_.seed), balanced=balanced)
        _create_games(round_=round_, pairs=pairs, hours=_hours(competition))
    tokens_create(entries=entries, now=now)
    competition.status = CompetitionStatus.RUNNING
    competition.save(update_fields=["status"])
    competition_touch(competition)
    return sessions


# --- Results -------------------------------------------------------------------------------------


def _result_label(game: Game) -> str:
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    if len(seats) != 2 or seats[0].points is None:
        return str(_("no result yet"))
    pair = (Fraction(seats[0].points), Fraction(seats[1].points))
    return selectors.RESULT_LABELS.get(pair, "?")


@transaction.atomic
def game_result_record(
    *,
    competition: Competition,
    game_id: int,
    result: str,
    revision: int,
    now: datetime | None = None,
) -> Game:
    """Enter or correct a game's result (1-0, ½-½, 0-1) as the organiser.

    Refused when the form was drawn from an older revision of the game (someone else changed
    it). A first result finishes the game now; a correction keeps its finish time, so it keeps
    its place in the rating order, and every later rating change is recomputed.
    """
    competition = _locked_competition(competition)
    if competition.status == CompetitionStatus.REGISTRATION:
        raise _refuse(NOT_RUNNING)
    if not isinstance(result, str) or result not in RESULTS:
        raise _refuse(BAD_RESULT)
    game = (
        Game.objects.select_for_update(of=("self",))
        .filter(pk=game_id, round__session__competition=competition)
        .select_related("round__session")
        .first()
    )
    if game is None:
        raise _refuse(NOT_IN_COMPETITION)
    detail = GameDetail.objects.select_for_update().get(game=game)
    if game.revision != revision:
        raise _refuse(STALE_GAME, result=_result_label(game))
    if detail.ending in (Ending.FORFEIT, Ending.CANCELLED):
        raise _refuse(NOT_EDITABLE)
    _game_finish(
        competition=competition,
        game=game,
        detail=detail,
        points=RESULTS[result],
        ending=Ending.PLAYED,
        now=_now(now),
    )
    return game


def _game_finish(
    *,
    competition: Competition,
    game: Game,
    detail: GameDetail,
    points: tuple[Fraction, Fraction],
    ending: str,
    now: datetime,
    both_moved: bool = True,
    clock_now: datetime | None = None,
) -> None:
    """Write a (first, second) result with its ending, then re-apply what follows from it:
    ratings from its finish time on, the table's tiebreaks, the competition's status.

    ``now`` is the game's finish time; ``clock_now`` (default ``now``) is the real current
    time, at which new tiebreak stages start: a time loss found late by ``process_deadlines``
    finishes the game at its old deadline, but a decider it calls for starts at the sweep.

    The one place a game gets its result, for the organiser's entry here and for the clock
    (issue 6: a time loss or a double forfeit passes its ending and ``both_moved``). A game
    that was already over keeps its finish time, so a correction keeps its place in the
    rating order. The caller holds the competition's lock and the game's and detail's rows.
    """
    rules.check_result(*points)
    seats = sorted(Seat.objects.select_for_update().filter(game=game), key=lambda s: s.position)
    for seat, value in zip(seats, points, strict=True):
        seat.points = _decimal(value)
    Seat.objects.bulk_update(seats, ["points"])

    before = detail.ended_at
    detail.ending = ending
    detail.ended_at = detail.ended_at or now
    detail.rated = bool(competition.settings.get("rated", True)) and rules.is_rated(
        ending, both_moved=both_moved
    )
    detail.full_clean()
    detail.save()
    game.status = Game.Status.FINISHED
    game.revision += 1
    game.save(update_fields=["status", "revision", "updated_at"])
    _turns_stop([game.pk], now)

    since = min(moment for moment in (before, detail.ended_at) if moment is not None)
    _ratings_recompute(competition, since)
    _tiebreaks_sync(competition, game.round.session.number, clock_now or now)
    _status_sync(competition)
    competition_touch(competition)


@transaction.atomic
def competition_recompute(*, competition: Competition, now: datetime | None = None) -> None:
    """Re-apply this competition's ratings from the snapshot, every table's tiebreaks and the
    status, after results were changed in admin (where none of this happens by itself)."""
    competition = _locked_competition(competition)
    if competition.status == CompetitionStatus.REGISTRATION:
        return
    now = _now(now)
    first = (
        RatingSnapshot.objects.filter(entry__competition=competition)
        .order_by("taken_at")
        .values_list("taken_at", flat=True)
        .first()
    )
    if first is not None:
        _ratings_recompute(competition, first)
    for number in Session.objects.filter(
        competition=competition, kind=Session.Kind.TABLE
    ).values_list("number", flat=True):
        _tiebreaks_sync(competition, number, now)
    _status_sync(competition)
    competition_touch(competition)


# --- Ratings -------------------------------------------------------------------------------------


def _ratings_recompute(competition: Competition, since: datetime) -> None:
    """Recompute this competition's rating log from ``since`` on (see the module docstring)."""
    snapshots = {
        s.entry_id: s
        for s in RatingSnapshot.objects.filter(entry__competition=competition).select_related(
            "entry"
        )
    }
    rating = {pk: s.rating for pk, s in snapshots.items()}
    games_done = {pk: s.rated_games for pk, s in snapshots.items()}
    peak = dict(rating)
    old_delta: dict[int, int] = defaultdict(int)
    old_count: dict[int, int] = defaultdict(int)
    for change in RatingChange.objects.filter(competition=competition).order_by("at", "game_id"):
        if change.at < since:
            rating[change.entry_id] += change.change
            games_done[change.entry_id] += 1
            peak[change.entry_id] = max(peak[change.entry_id], rating[change.entry_id])
        else:
            old_delta[change.entry_id] += change.change
            old_count[change.entry_id] += 1
    RatingChange.objects.filter(competition=competition, at__gte=since).delete()

    new_changes: list[RatingChange] = []
    new_delta: dict[int, int] = defaultdict(int)
    new_count: dict[int, int] = defaultdict(int)
    if competition.settings.get("rated", True):
        details = (
            GameDetail.objects.filter(
                game__round__session__competition=competition, rated=True, ended_at__gte=since
            )
            .order_by("ended_at", "game_id")
            .prefetch_related("game__seats")
        )
        for detail in details:
            seats = sorted(detail.game.seats.all(), key=lambda seat: seat.position)
            if len(seats) != 2 or seats[0].points is None:
                continue
            a, b = seats[0].entry_id, seats[1].entry_id
            if a not in snapshots or b not in snapshots:
                continue
            ka = rules.k_factor(rating[a], games_done[a], peak[a] >= rules.MASTER_RATING)
            kb = rules.k_factor(rating[b], games_done[b], peak[b] >= rules.MASTER_RATING)
            score = Fraction(seats[0].points)
            da, db = rules.rating_changes(rating[a], rating[b], score, ka, kb)
            for pk, opponent, own_score, delta, k in (
                (a, b, score, da, ka),
                (b, a, 1 - score, db, kb),
            ):
                new_changes.append(
                    RatingChange(
                        competition=competition,
                        game_id=detail.game_id,
                        entry_id=pk,
                        player_id=snapshots[pk].entry.player_id,
                        opponent_rating=rating[opponent],
                        score=_decimal(own_score),
                        before=rating[pk],
                        after=max(0, rating[pk] + delta),
                        change=max(0, rating[pk] + delta) - rating[pk],
                        k=k,
                        at=detail.ended_at,
                    )
                )
            for change in new_changes[-2:]:
                rating[change.entry_id] = change.after
                games_done[change.entry_id] += 1
                peak[change.entry_id] = max(peak[change.entry_id], change.after)
                new_delta[change.entry_id] += change.change
                new_count[change.entry_id] += 1
    RatingChange.objects.bulk_create(new_changes)
    moved: set[int] = set()
    for pk in set(old_delta) | set(new_delta) | set(old_count) | set(new_count):
        delta = new_delta[pk] - old_delta[pk]
        count = new_count[pk] - old_count[pk]
        if delta or count:
            Player.objects.filter(pk=snapshots[pk].entry.player_id).update(
                rating=F("rating") + delta, rated_games=F("rated_games") + count
            )
            moved.add(snapshots[pk].entry.player_id)
    _touch_other_competitions(competition, moved)


def _touch_other_competitions(competition: Competition, player_ids: set[int]) -> None:
    """Bump the version of every other competition these players are entered in (any format,
    any status): their public pages show the players' ratings, which just changed, and must
    not answer 304 with the old ones. What ``competition_touch`` does, for all of them in two
    queries instead of two per competition."""
    if not player_ids:
        return
    others = (
        Entry.objects.filter(player_id__in=player_ids)
        .exclude(competition=competition)
        .values("competition_id")
    )
    touched = Competition.objects.filter(pk__in=others)
    Event.objects.filter(pk__in=touched.values("event_id")).update(version=F("version") + 1)
    touched.update(version=F("version") + 1)


# --- Tiebreaks -----------------------------------------------------------------------------------


def _tiebreaks_sync(competition: Competition, number: int, now: datetime) -> None:
    """Create the tiebreak games a table needs now, drop stages a correction made obsolete.

    Nothing happens until every regular game of the table is over (RR¶8). A stage that no
    longer arises is deleted while none of its games has a result; once one has, it stays
    (its games were played and rated) and is shown as no longer needed, and its unfinished
    games are cancelled (unrated, their clocks stopped without misses), so that no clock runs
    for a game nobody needs. Should a later correction make that stage arise again, its
    cancelled games reopen with a fresh turn from ``now``. ``now`` is the real current time
    (new stages' clocks start then), not the finish time of the game that led here.
    """
    tables = selectors.tables_for_competition(competition, numbers=[number])
    if not tables or not tables[0].regular_done:
        return
    table = tables[0]
    stored = {(s.stage.entry_ids, s.stage.attempt): s for s in table.stages}
    for view in table.stages:
        if view.current:
            _stage_reopen(competition, view, now)
        elif not any(g.detail.has_result for g in view.games):
            view.stage.round.delete()
        else:
            _stage_cancel(view, now)
    last_round = Round.objects.filter(session=table.session).aggregate(last=Max("number"))["last"]
    first_round = Round.objects.get(session=table.session, number=1)
    for plan in table.pending:
        if plan.key in stored:
            continue
        last_round += 1
        key = TiebreakStage.key_of(plan.players)
        stage_seed = random.Random(f"{first_round.seed}:{key}:{plan.attempt}").getrandbits(62)
        round_ = Round.objects.create(
            session=table.session, number=last_round, seed=stage_seed, started_at=now
        )
        TiebreakStage.objects.create(
            round=round_,
            table=table.session,
            kind=plan.kind,
            attempt=plan.attempt,
            place=plan.place,
            players_key=key,
        )
        pairs = rules.pairs_with_colours(list(plan.players), random.Random(stage_seed))
        _create_games(round_=round_, pairs=pairs, hours=_hours(competition))
        # A withdrawn player whose results stand cannot play: the opponent wins (A-RR-13 f, g).
        _forfeit_open_games_of_withdrawn(round_, now)


def _stage_cancel(view: selectors.StageView, now: datetime) -> None:
    """Cancel the unfinished games of a stage a correction made unnecessary."""
    ids = [g.pk for g in view.games if g.detail.ending == Ending.OPEN]
    if not ids:
        return
    for detail in GameDetail.objects.select_for_update().filter(game_id__in=ids):
        if detail.ending != Ending.OPEN:
            continue
        detail.ending = Ending.CANCELLED
        detail.ended_at = now
        detail.rated = False
        detail.save()
    Game.objects.filter(pk__in=ids).update(
        status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=now
    )
    _turns_stop(ids, now)


def _stage_reopen(competition: Competition, view: selectors.StageView, now: datetime) -> None:
    """Reopen the games of a stage that was cancelled as unnecessary and arises again."""
    ids = [g.pk for g in view.games if g.detail.ending == Ending.CANCELLED]
    if not ids:
        return
    GameDetail.objects.filter(game_id__in=ids, ending=Ending.CANCELLED).update(
        ending=Ending.OPEN, ended_at=None, rated=False
    )
    Game.objects.filter(pk__in=ids).update(
        status=Game.Status.PLAYING, revision=F("revision") + 1, updated_at=now
    )
    last = dict(
        Turn.objects.filter(game_id__in=ids)
        .values("game_id")
        .annotate(last=Max("number"))
        .values_list("game_id", "last")
    )
    deadline = rules.turn_deadline(now, _hours(competition))
    Turn.objects.bulk_create(
        Turn(game_id=pk, number=last.get(pk, 0) + 1, opened_at=now, deadline=deadline) for pk in ids
    )
    _forfeit_open_games_of_withdrawn(view.stage.round, now)


def _forfeit_open_games_of_withdrawn(round_: Round, now: datetime) -> None:
    withdrawn = set(
        Withdrawal.objects.filter(entry__seats__game__round=round_).values_list(
            "entry_id", flat=True
        )
    )
    if not withdrawn:
        return
    for game in Game.objects.filter(round=round_).prefetch_related("seats"):
        _forfeit_game(game, withdrawn, now)


def _forfeit_game(game: Game, withdrawn: set[int], now: datetime) -> bool:
    """An open game of a withdrawn player -> 1-0 for the opponent, unrated. False if none."""
    detail = GameDetail.objects.select_for_update().get(game=game)
    if detail.is_over:
        return False
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    losers = [seat for seat in seats if seat.entry_id in withdrawn]
    if not losers:
        return False
    for seat in seats:
        seat.points = Decimal(0) if seat.entry_id in withdrawn else Decimal(1)
    Seat.objects.bulk_update(seats, ["points"])
    detail.ending = Ending.DOUBLE_FORFEIT if len(losers) == 2 else Ending.FORFEIT
    detail.rated = False
    detail.ended_at = now
    detail.save()
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=now
    )
    _turns_stop([game.pk], now)
    return True


def _status_sync(competition: Competition) -> None:
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


# --- Withdrawal ----------------------------------------------------------------------------------


@transaction.atomic
def entry_withdraw(
    *, entry: Entry, now: datetime | None = None, expected: str | None = None
) -> Withdrawal:
    """Withdraw a player from a running round robin and apply RR¶10 to their games.

    ``expected`` is the signature of the preview the organiser confirmed
    (``selectors.withdrawal_signature``); when the withdrawal would now do something else (a
    result or a time loss came in meanwhile), it is refused so the new preview can be checked.
    """
    competition = _locked_competition(entry.competition)
    if competition.status != CompetitionStatus.RUNNING:
        raise _refuse(NOT_RUNNING)
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "competition", "rr_snapshot")
        .get(pk=entry.pk)
    )
    if selectors._one_to_one(entry, "rr_snapshot") is None:
        raise _refuse(NOT_AT_A_TABLE, player=entry.player)
    if Withdrawal.objects.filter(entry=entry).exists():
        raise _refuse(ALREADY_WITHDRAWN, player=entry.player)
    now = _now(now)
    # Bring this player's clocks up to date first: a time loss whose deadline has passed is a
    # finished game even if process_deadlines has not written it yet (as the preview shows).
    expired = list(
        Turn.objects.select_for_update(of=("self",))
        .filter(game__seats__entry=entry, closed_at__isnull=True, deadline__lt=now)
        .order_by("deadline", "pk")
    )
    if expired:
        _clock_advance(competition, expired, now)
    effect, finished, scheduled, fates = selectors.withdrawal_outlook(entry, now)
    if expected is not None and expected != selectors.withdrawal_signature(effect, finished, fates):
        raise _refuse(STALE_WITHDRAWAL)
    for view, fate in fates:
        if fate == rules.STRUCK:
            detail = GameDetail.objects.select_for_update().get(game=view.game)
            detail.struck = True
            if not detail.is_over:
                detail.ending = Ending.CANCELLED
                detail.ended_at = now
                detail.rated = False
                Game.objects.filter(pk=view.pk).update(
                    status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=now
                )
                _turns_stop([view.pk], now)
            detail.save()
        elif fate == rules.FORFEITED:
            _forfeit_game(view.game, {entry.pk}, now)
    withdrawal = Withdrawal(
        entry=entry, effect=effect, finished=finished, scheduled=scheduled, at=now
    )
    withdrawal.full_clean()
    withdrawal.save()
    if entry.withdrawn_at is None:
        entry.withdrawn_at = now
        entry.save(update_fields=["withdrawn_at"])
    _tiebreaks_sync(competition, entry.rr_snapshot.table, now)
    _status_sync(competition)
    competition_touch(competition)
    return withdrawal


# --- The correspondence clock (issue 6, R-RR-10..17) -------------------------------------------
#
# Turns are rows (``Turn``): turn 1 of every game opens with the game; a turn closes when both
# players have moved (``move_submit``) or at its deadline (``deadlines_process``, the command
# ``process_deadlines``, and lazily before a move is written, so that a move always lands in the
# turn the clock is really in). Closing at the deadline records the misses, asks
# ``rules.clock_state`` whether the game is over on time and, if so, finishes it through
# ``_game_finish`` (time losses rated per ``rules.is_rated``, double forfeits unrated); else the
# next turn opens at that deadline. Pages never show a turn open after its deadline: selectors
# project the stored clock to "now" on read (``selectors.clock_views``).

MOVE_EMPTY = _("Write your move.")
MOVE_TOO_LONG = _("A move is at most %(max)s characters.")
MOVE_BAD_CHARACTER = _("A move cannot contain control characters.")
NOT_YOUR_GAME = _("This game is not one of yours.")
GAME_OVER = _("This game is over; no more moves.")
TOO_LATE = _(
    "Too late: turn %(turn)s closed at its deadline, %(deadline)s. Your move was not recorded; "
    "turn %(current)s is open now."
)
TURN_NOT_A_NUMBER = _("Say which turn your move is for: a whole number, e.g. 1.")
TURN_NOT_CURRENT = _("Turn %(turn)s is not the current turn; the current turn is %(current)s.")
ALREADY_MOVED = _("You already sent your move for turn %(turn)s (%(move)s). A sent move is final.")
PLAYER_WITHDRAWN = _("You have withdrawn from this competition.")
RESULT_ALREADY = _(
    "This game is over (%(state)s); its result is already recorded. Ask the organiser if it "
    "is wrong."
)
RESULT_UNKNOWN = _("Report 1-0, 1/2-1/2 or 0-1.")

DEFAULT_REMINDER_HOURS = 6


def _hours(competition: Competition) -> int:
    return selectors.turn_hours(competition)


def _clock_refuse(status: int, message, **params) -> ServiceError:
    """A refusal with the HTTP status the JSON API answers it with."""
    error = _refuse(message, **params)
    error.status = status
    return error


def local_time(moment: datetime, competition: Competition) -> str:
    """A stored UTC moment as the event's local time, e.g. "2026-03-02 13:00 CET"."""
    zone = zoneinfo.ZoneInfo(competition.event.time_zone)
    return timezone.localtime(moment, zone).strftime("%Y-%m-%d %H:%M %Z")


def private_url(token: str) -> str:
    """The absolute address of a player's private page (settings.SITE_URL, else localhost)."""
    base = settings.SITE_URL
    return base.rstrip("/") + reverse("roundrobin:private", args=[token])


def _mail(subject: str, body: str, to: str) -> None:
    """Send after the transaction commits (never for a rolled-back write)."""
    transaction.on_commit(lambda: send_mail(subject, body, None, [to], fail_silently=True))


def tokens_create(*, entries, now: datetime) -> list[PlayerToken]:
    """Give every entry without one a private link and e-mail it to players with an address."""
    entries = list(entries)
    have = set(PlayerToken.objects.filter(entry__in=entries).values_list("entry_id", flat=True))
    entries = [e for e in entries if e.pk not in have]
    tokens = PlayerToken.objects.bulk_create(
        PlayerToken(entry=entry, token=secrets.token_urlsafe(32), created_at=now)
        for entry in entries
    )
    for token in tokens:
        player = token.entry.player
        if player.email:
            competition = token.entry.competition
            _mail(
                str(_("Your games in %(competition)s") % {"competition": competition.name}),
                str(
                    _(
                        "Hello %(name)s,\n\nyour private page for %(competition)s, where you see "
                        "your games and send your moves:\n%(url)s\n\nKeep this link to yourself."
                    )
                    % {
                        "name": player.name,
                        "competition": competition.name,
                        "url": private_url(token.token),
                    }
                ),
                player.email,
            )
    return tokens


def _turns_stop(game_ids: list[int], now: datetime) -> None:
    """Close the open turns of games that just finished (no misses: the game is over)."""
    Turn.objects.filter(game_id__in=game_ids, closed_at__isnull=True).update(
        closed_at=Least(Greatest(F("opened_at"), Value(now)), F("deadline"))
    )


def _check_move(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise _clock_refuse(400, MOVE_EMPTY)
    text = text.strip()
    if len(text) > Turn.MOVE_MAX_LENGTH:
        raise _clock_refuse(400, MOVE_TOO_LONG, max=Turn.MOVE_MAX_LENGTH)
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise _clock_refuse(400, MOVE_BAD_CHARACTER)
    return text


def _clock_advance(
    competition: Competition, turns: list[Turn], now: datetime
) -> tuple[int, int, list[Turn]]:
    """Close the given open turns at their deadlines (all expired), finish the games that ends
    and open the next turns; repeats while a new turn is itself already expired.

    Returns (turns closed, games finished, the open turns now). The caller holds the
    competition's lock and the turns' row locks.
    """
    closed = finished = 0
    current: list[Turn] = []
    while turns:
        for turn in turns:
            turn.closed_at = turn.deadline
            turn.first_missed = turn.first_moved_at is None
            turn.second_missed = turn.second_moved_at is None
        Turn.objects.bulk_update(turns, ["closed_at", "first_missed", "second_missed"])
        closed += len(turns)
        logs: dict[int, list[tuple[bool, bool]]] = defaultdict(list)
        for game_id, first_missed, second_missed in (
            Turn.objects.filter(game_id__in=[t.game_id for t in turns], closed_at__isnull=False)
            .order_by("game_id", "number")
            .values_list("game_id", "first_missed", "second_missed")
        ):
            logs[game_id].append((not first_missed, not second_missed))
        over = set(
            GameDetail.objects.filter(game_id__in=logs)
            .exclude(ending=Ending.OPEN)
            .values_list("game_id", flat=True)
        )
        following = []
        for turn in turns:
            if turn.game_id in over:
                continue
            state = rules.clock_state(logs[turn.game_id])
            if state.outcome is not None:
                game = (
                    Game.objects.select_for_update(of=("self",))
                    .select_related("round__session")
                    .get(pk=turn.game_id)
                )
                detail = GameDetail.objects.select_for_update().get(game=game)
                counted = logs[turn.game_id][: state.turns]
                both_moved = any(m[0] for m in counted) and any(m[1] for m in counted)
                _game_finish(
                    competition=competition,
                    game=game,
                    detail=detail,
                    points=rules.timeout_points(state.outcome),
                    ending=state.outcome,
                    now=turn.deadline,
                    both_moved=both_moved,
                    clock_now=max(now, turn.deadline),
                )
                finished += 1
                continue
            # R-RR-10, N-RR-16: the competition's length, not the closed turn's (an organiser
            # may have extended that one deadline in admin).
            following.append(
                Turn(
                    game_id=turn.game_id,
                    number=turn.number + 1,
                    opened_at=turn.deadline,
                    deadline=rules.turn_deadline(turn.deadline, _hours(competition)),
                )
            )
        Turn.objects.bulk_create(following)
        current.extend(t for t in following if t.deadline >= now)
        turns = [t for t in following if t.deadline < now]
    return closed, finished, current


def _game_of(competition: Competition, entry: Entry, game_id: object) -> Game:
    try:
        pk = int(game_id)
    except (TypeError, ValueError):
        raise _clock_refuse(404, NOT_YOUR_GAME) from None
    game = (
        Game.objects.filter(pk=pk, round__session__competition=competition, seats__entry=entry)
        .select_related("round__session")
        .first()
    )
    if game is None:
        raise _clock_refuse(404, NOT_YOUR_GAME)
    return game


@transaction.atomic
def move_submit(
    *, entry: Entry, game_id: object, turn: object, text: object, now: datetime | None = None
) -> Turn:
    """A player's move for the current turn of one of their games (R-RR-10..12).

    ``turn`` is the turn number the player answers (the page's hidden field, the API's
    "turn"): a move for a turn that closed in the meantime is refused, showing its deadline,
    rather than silently counted for the next one. A sent move is final: a second move for
    the same turn is refused (as a posted move in correspondence chess). The turn closes as
    soon as both have moved, and the next opens at that moment (R-RR-11, T-RR-09).
    """
    now = _now(now)
    text = _check_move(text)
    # A whole number (the form's IntegerField, a JSON integer): not a bool, a float (2.9 would
    # silently be turn 2, 1e400 is infinite) or a string.
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise _clock_refuse(400, TURN_NOT_A_NUMBER)
    number = turn
    competition = _locked_competition(entry.competition)
    game = _game_of(competition, entry, game_id)
    if Withdrawal.objects.filter(entry=entry).exists() or entry.withdrawn_at is not None:
        raise _clock_refuse(403, PLAYER_WITHDRAWN)
    detail = GameDetail.objects.get(game=game)
    open_turn = Turn.objects.select_for_update().filter(game=game, closed_at__isnull=True).first()
    if detail.is_over or open_turn is None:
        raise _clock_refuse(410, GAME_OVER)
    expired = open_turn
    if open_turn.deadline < now:
        _closed, finished, current = _clock_advance(competition, [open_turn], now)
        if finished or not current:
            raise _clock_refuse(410, GAME_OVER)
        open_turn = current[0]
    if number != open_turn.number:
        if number == expired.number and expired is not open_turn:
            raise _clock_refuse(
                409,
                TOO_LATE,
                turn=number,
                deadline=local_time(expired.deadline, competition),
                current=open_turn.number,
            )
        raise _clock_refuse(409, TURN_NOT_CURRENT, turn=number, current=open_turn.number)
    seat = Seat.objects.get(game=game, entry=entry).position
    side = "first" if seat == 1 else "second"
    if getattr(open_turn, f"{side}_moved_at") is not None:
        raise _clock_refuse(
            409, ALREADY_MOVED, turn=number, move=getattr(open_turn, f"{side}_move")
        )
    setattr(open_turn, f"{side}_move", text)
    setattr(open_turn, f"{side}_moved_at", now)
    fields = [f"{side}_move", f"{side}_moved_at"]
    if open_turn.first_moved_at is not None and open_turn.second_moved_at is not None:
        open_turn.closed_at = now
        fields.append("closed_at")
    open_turn.full_clean(exclude=["game"], validate_constraints=False)
    open_turn.save(update_fields=fields)
    if open_turn.closed_at is not None:
        Turn.objects.create(
            game=game,
            number=open_turn.number + 1,
            opened_at=now,
            deadline=rules.turn_deadline(now, _hours(competition)),
        )
    competition_touch(competition)
    return open_turn


@transaction.atomic
def result_report(
    *, entry: Entry, game_id: object, result: object, now: datetime | None = None
) -> bool:
    """A player (or their game server) reports a game's result; True once it is recorded.

    A report that the reporter lost (resigning) is recorded at once. Any other report waits
    for the opponent to report the same result; then it is recorded as played. Reports that
    differ wait for the organiser, who sees them on the table page and records the result.
    """
    now = _now(now)
    if not isinstance(result, str) or result not in RESULTS:
        raise _clock_refuse(400, RESULT_UNKNOWN)
    competition = _locked_competition(entry.competition)
    game = _game_of(competition, entry, game_id)
    if Withdrawal.objects.filter(entry=entry).exists() or entry.withdrawn_at is not None:
        raise _clock_refuse(403, PLAYER_WITHDRAWN)
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("round__session")
        .get(pk=game.pk)
    )
    detail = GameDetail.objects.select_for_update().get(game=game)
    if detail.is_over:
        raise _clock_refuse(410, RESULT_ALREADY, state=detail.get_ending_display())
    seats = {s.entry_id: s.position for s in Seat.objects.filter(game=game)}
    mine = seats[entry.pk]
    points = RESULTS[result]
    resigns = points[mine - 1] == rules.LOSS
    ResultReport.objects.update_or_create(
        game=game, entry=entry, defaults={"result": result, "at": now}
    )
    other = next(pk for pk in seats if pk != entry.pk)
    agreed = ResultReport.objects.filter(game=game, entry_id=other, result=result).exists()
    if not (resigns or agreed):
        competition_touch(competition)
        return False
    _game_finish(
        competition=competition,
        game=game,
        detail=detail,
        points=points,
        ending=Ending.PLAYED,
        now=now,
    )
    return True


@dataclass
class SweepReport:
    closed: int = 0
    finished: int = 0
    reminded: int = 0
    competitions: int = 0


SWEEP_BATCH = 200  # small enough that PostgreSQL reads it off the deadline index in order


def _sweep_competition(
    pk: int, game_ids: list[int], now: datetime, *, wait: bool
) -> SweepReport | None:
    """Close the expired turns of these games of one competition; None when another writer
    holds the competition and ``wait`` is off (``select_for_update(skip_locked=True)`` on
    PostgreSQL; SQLite's IMMEDIATE transactions serialise the writers instead)."""
    skip = connection.features.has_select_for_update_skip_locked
    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update(of=("self",), skip_locked=skip and not wait)
            .select_related("event")
            .filter(pk=pk, format="roundrobin")
            .first()
        )
        if competition is None:
            return None
        turns = list(
            Turn.objects.select_for_update(of=("self",), skip_locked=skip)
            .filter(game_id__in=game_ids, closed_at__isnull=True, deadline__lt=now)
            .order_by("deadline", "pk")
        )
        if not turns:
            return SweepReport()
        closed, finished, _open = _clock_advance(competition, turns, now)
        competition_touch(competition)
        return SweepReport(closed=closed, finished=finished, competitions=1)


def deadlines_process(*, now: datetime | None = None) -> SweepReport:
    """Close every expired turn of every round robin (``manage.py process_deadlines``).

    Idempotent: a turn is closed once, by whichever run locks it first; a second run finds
    nothing to do. Expired turns are found in batches by the partial index on the open turns'
    deadline (oldest first), then handled in one transaction per competition. A competition
    another run (or a desk write) holds is skipped; when a whole batch was skipped, the run
    waits for those locks, so one run leaves nothing expired behind.
    """
    now = _now(now)
    report = SweepReport()
    seen: set[int] = set()
    while True:
        game_ids = list(
            Turn.objects.filter(closed_at__isnull=True, deadline__lt=now)
            .order_by("deadline")
            .values_list("game_id", flat=True)[:SWEEP_BATCH]
        )
        if not game_ids:
            break
        by_competition: dict[int, list[int]] = defaultdict(list)
        for game_id, competition_id in Game.objects.filter(pk__in=game_ids).values_list(
            "pk", "round__session__competition_id"
        ):
            by_competition[competition_id].append(game_id)
        progress = 0
        for wait in (False, True):
            for pk, ids in by_competition.items():
                result = _sweep_competition(pk, ids, now, wait=wait)
                if result is None:
                    continue
                progress += result.closed
                report.closed += result.closed
                report.finished += result.finished
                if result.closed:
                    seen.add(pk)
            if progress:
                break
        if not progress:  # nothing could be closed (held elsewhere): the next run will
            break
    report.competitions = len(seen)
    return report


def reminders_send(*, now: datetime | None = None) -> int:
    """E-mail every player who has not moved when their deadline is the competition's
    ``reminder_hours`` away (default 6; 0 turns reminders off), once per turn. Returns the
    number sent. The reminder is marked before it is sent, by a conditional update, so two
    runs never send the same one twice."""
    now = _now(now)
    sent = 0
    competitions = Competition.objects.filter(
        format="roundrobin", status=CompetitionStatus.RUNNING
    ).select_related("event")
    for competition in competitions:
        try:
            hours = int(competition.settings.get("reminder_hours", DEFAULT_REMINDER_HOURS))
        except (TypeError, ValueError):
            hours = DEFAULT_REMINDER_HOURS
        if hours <= 0:
            continue
        turns = list(
            Turn.objects.filter(
                game__round__session__competition=competition,
                closed_at__isnull=True,
                deadline__gte=now,
                deadline__lte=now + timedelta(hours=hours),
            ).filter(
                Q(first_moved_at__isnull=True, first_reminded_at__isnull=True)
                | Q(second_moved_at__isnull=True, second_reminded_at__isnull=True)
            )
        )
        if not turns:
            continue
        seats = Seat.objects.filter(game_id__in=[t.game_id for t in turns]).select_related(
            "entry__player", "entry__rr_token"
        )
        by_game = {(s.game_id, s.position): s.entry for s in seats}
        for turn in turns:
            for position, side in ((1, "first"), (2, "second")):
                if getattr(turn, f"{side}_moved_at") or getattr(turn, f"{side}_reminded_at"):
                    continue
                marked = Turn.objects.filter(
                    pk=turn.pk, **{f"{side}_reminded_at__isnull": True}
                ).update(**{f"{side}_reminded_at": now})
                entry = by_game.get((turn.game_id, position))
                if not marked or entry is None or not entry.player.email:
                    continue
                token = getattr(entry, "rr_token", None)
                send_mail(
                    str(_("Your move is due: %(competition)s") % {"competition": competition.name}),
                    str(
                        _(
                            "Hello %(name)s,\n\nturn %(turn)s of one of your games ends at "
                            "%(deadline)s and we have no move from you yet.\n%(url)s\n"
                        )
                        % {
                            "name": entry.player.name,
                            "turn": turn.number,
                            "deadline": local_time(turn.deadline, competition),
                            "url": private_url(token.token) if token else "",
                        }
                    ),
                    None,
                    [entry.player.email],
                    fail_silently=True,
                )
                sent += 1
    return sent
