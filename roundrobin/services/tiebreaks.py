"""Tiebreak stages (RR¶8, R-RR-19..22): created once a table's regular games are over, dropped
or cancelled when a correction makes them unnecessary, reopened when it makes them arise again."""

from __future__ import annotations

import random
from datetime import datetime
from decimal import Decimal

from django.db.models import F, Max

from events.models import Competition, Game, Round, Seat
from events.outbox import webhooks
from events.seat_checks import seat_writes
from roundrobin import rules, selectors
from roundrobin.models import Ending, GameDetail, TiebreakStage, Turn, Withdrawal
from roundrobin.rules import turns as turn_rules
from roundrobin.selectors import StageView, TableView
from roundrobin.services.base import options, schedule_turns, turn_hours, turns_stop
from roundrobin.services.start import create_games


def tiebreaks_sync(competition: Competition, number: int, now: datetime) -> None:
    """Create the tiebreak games table ``number`` needs now, drop stages a correction made
    obsolete.

    Nothing happens until every regular game of the table is over (RR¶8). A stage that no
    longer arises is deleted while none of its games has a result; once one has, it stays
    (its games were played and rated) and is shown as no longer needed, and its unfinished
    games are cancelled (unrated, their clocks stopped without misses), so that no clock runs
    for a game nobody needs. Should a later correction make that stage arise again, its
    cancelled games reopen with a fresh turn from ``now``. ``now`` is the real current time
    (new stages' clocks start then), not the finish time of the game that led here.
    """
    tiebreaks_sync_tables(competition, [number], now)


def tiebreaks_sync_tables(competition: Competition, numbers: list[int], now: datetime) -> None:
    """``tiebreaks_sync`` for several tables, read in one go (a sweep that ended games at many
    tables): each table's stages depend only on that table's games."""
    if not numbers:
        return
    for table in selectors.tables_for_competition(competition, numbers=numbers):
        if not table.regular_done:
            continue
        for view in table.stages:
            if view.current:
                _stage_reopen(competition, view, now)
            elif not any(g.detail.has_result for g in view.games):
                # its open turns go with it: their reminders still waiting are no longer true
                turns_stop([g.pk for g in view.games], now)
                view.stage.round.delete()
            else:
                _stage_cancel(view, now)
        _stages_create(competition, table, now)


def _stages_create(competition: Competition, table: TableView, now: datetime) -> None:
    """A round with its games for every pending stage the table does not have yet."""
    stored = {(s.stage.entry_ids, s.stage.attempt) for s in table.stages}
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
        create_games(
            round_=round_,
            pairs=pairs,
            hours=turn_hours(competition),
            turns=options(competition).turns,
        )
        # A withdrawn player whose results stand cannot play: the opponent wins (A-RR-13 f, g).
        _forfeit_open_games_of_withdrawn(round_, now)
        webhooks.announce(  # a tiebreak's games are drawn ("round.seated")
            webhooks.WebhookTopic.ROUND,
            competition,
            subject=f"round:{round_.pk}",
            data={"session": table.session.pk, "round": round_.pk, "number": round_.number},
            now=now,
        )


def _stage_cancel(view: StageView, now: datetime) -> None:
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
    turns_stop(ids, now)


def _stage_reopen(competition: Competition, view: StageView, now: datetime) -> None:
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
    deadline = rules.turn_deadline(now, turn_hours(competition))
    turns = options(competition).turns
    opened = Turn.objects.bulk_create(
        Turn(
            game_id=pk,
            number=last.get(pk, 0) + 1,
            opened_at=now,
            deadline=deadline,
            mover=turn_rules.turn_mover(turns, last.get(pk, 0) + 1),
        )
        for pk in ids
    )
    schedule_turns(competition, opened)
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
        forfeit_game(game, withdrawn, now)


def forfeit_game(game: Game, withdrawn: set[int], now: datetime) -> bool:
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
    with seat_writes():  # a seat an old backup left impossible: Invalid, in words
        Seat.objects.bulk_update(seats, ["points"])
    detail.ending = Ending.DOUBLE_FORFEIT if len(losers) == 2 else Ending.FORFEIT
    detail.rated = False
    detail.ended_at = now
    detail.save()
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=now
    )
    turns_stop([game.pk], now)
    return True
