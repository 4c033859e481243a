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
from collections import defaultdict
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import Competition, CompetitionStatus, Entry, Game, Player, Round, Seat, Session
from events.services import ServiceError, competition_touch
from roundrobin import rules, selectors
from roundrobin.models import (
    Ending,
    GameDetail,
    RatingChange,
    RatingSnapshot,
    TiebreakStage,
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
ALREADY_WITHDRAWN = _("%(player)s has already withdrawn.")

RESULTS: dict[str, tuple[Fraction, Fraction]] = {
    "1-0": (rules.WIN, rules.LOSS),
    "1/2-1/2": (rules.DRAW, rules.DRAW),
    "0-1": (rules.LOSS, rules.WIN),
}


def _refuse(message, **params) -> ServiceError:
    return ServiceError(str(message) % {k: str(v) for k, v in params.items()})


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
    *, round_: Round, pairs: list[tuple[int, int]], start_number: int = 1
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
        _create_games(round_=round_, pairs=pairs)
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
    if result not in RESULTS:
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
) -> None:
    """Write a (first, second) result with its ending, then re-apply what follows from it:
    ratings from its finish time on, the table's tiebreaks, the competition's status.

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

    since = min(moment for moment in (before, detail.ended_at) if moment is not None)
    _ratings_recompute(competition, since)
    _tiebreaks_sync(competition, game.round.session.number, now)
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
    for pk in set(old_delta) | set(new_delta) | set(old_count) | set(new_count):
        delta = new_delta[pk] - old_delta[pk]
        count = new_count[pk] - old_count[pk]
        if delta or count:
            Player.objects.filter(pk=snapshots[pk].entry.player_id).update(
                rating=F("rating") + delta, rated_games=F("rated_games") + count
            )


# --- Tiebreaks -----------------------------------------------------------------------------------


def _tiebreaks_sync(competition: Competition, number: int, now: datetime) -> None:
    """Create the tiebreak games a table needs now, drop stages a correction made obsolete.

    Nothing happens until every regular game of the table is over (RR¶8). A stage that no
    longer arises is deleted while none of its games has a result; once one has, it stays
    (its games were played and rated) and is shown as no longer needed.
    """
    tables = selectors.tables_for_competition(competition, numbers=[number])
    if not tables or not tables[0].regular_done:
        return
    table = tables[0]
    stored = {(s.stage.entry_ids, s.stage.attempt): s for s in table.stages}
    for view in table.stages:
        if not view.current and not any(g.detail.is_over for g in view.games):
            view.stage.round.delete()
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
        _create_games(round_=round_, pairs=pairs)
        # A withdrawn player whose results stand cannot play: the opponent wins (A-RR-13 f, g).
        _forfeit_open_games_of_withdrawn(round_, now)


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
def entry_withdraw(*, entry: Entry, now: datetime | None = None) -> Withdrawal:
    """Withdraw a player from a running round robin and apply RR¶10 to their games."""
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
    effect, finished, scheduled, fates = selectors.withdrawal_outlook(entry)
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
