"""Withdrawing a player from a running round robin (RR¶10, R-RR-23, A-RR-13)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from events.errors import Conflict, Stale, refuse
from events.models import Competition, CompetitionStatus, Entry, Game
from events.outbox import webhooks
from events.services import competition_touch
from roundrobin import rules, selectors
from roundrobin.models import Ending, GameDetail, Turn, Withdrawal
from roundrobin.selectors import GameView
from roundrobin.services.base import locked_competition, now_or, turns_stop
from roundrobin.services.clock import clock_advance
from roundrobin.services.results import NOT_RUNNING, status_sync
from roundrobin.services.tiebreaks import forfeit_game, tiebreaks_sync

NOT_AT_A_TABLE = _("%(player)s is not playing at a table.")
STALE_WITHDRAWAL = _(
    "The situation changed since you looked: nothing was withdrawn. Check the new preview and "
    "confirm again."
)
ALREADY_WITHDRAWN = _("%(player)s has already withdrawn.")
AT_A_TABLE = _("%(player)s plays at a table: withdraw them from that table's page.")


def _entry_to_withdraw(competition: Competition, entry: Entry) -> Entry:
    if competition.status != CompetitionStatus.RUNNING:
        raise refuse(NOT_RUNNING, code="not_running")
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "competition", "rr_snapshot")
        .get(pk=entry.pk)
    )
    if selectors.one_to_one(entry, "rr_snapshot") is None:
        raise refuse(NOT_AT_A_TABLE, code="not_at_a_table", player=entry.player)
    if Withdrawal.objects.filter(entry=entry).exists():
        raise refuse(
            ALREADY_WITHDRAWN, error_class=Conflict, code="already_withdrawn", player=entry.player
        )
    return entry


def _clocks_catch_up(competition: Competition, entry: Entry, now: datetime) -> None:
    """A time loss whose deadline has passed is a finished game even if process_deadlines has
    not written it yet (as the preview shows): write it first."""
    expired = list(
        Turn.objects.select_for_update(of=("self",))
        .filter(game__seats__entry=entry, closed_at__isnull=True, deadline__lt=now)
        .order_by("deadline", "pk")
    )
    if expired:
        clock_advance(competition, expired, now)


def _strike(view: GameView, now: datetime) -> None:
    detail = GameDetail.objects.select_for_update().get(game=view.game)
    detail.struck = True
    if not detail.is_over:
        detail.ending = Ending.CANCELLED
        detail.ended_at = now
        detail.rated = False
        Game.objects.filter(pk=view.pk).update(
            status=Game.Status.FINISHED, revision=F("revision") + 1, updated_at=now
        )
        turns_stop([view.pk], now)
    detail.save()


@transaction.atomic
def entry_without_table_withdraw(*, entry: Entry, now: datetime | None = None) -> Entry:
    """Take a player who has no table off the register (checked in after the start before
    ``entries_check`` refused that, or never checked in): they have no game, so nothing else
    changes. Refused for a player at a table, who withdraws through ``entry_withdraw``."""
    competition = locked_competition(entry.competition)
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "competition")
        .get(pk=entry.pk)
    )
    if Entry.objects.filter(pk=entry.pk, rr_snapshot__isnull=False).exists():
        raise refuse(AT_A_TABLE, error_class=Conflict, code="at_a_table", player=entry.player)
    if entry.withdrawn_at is not None:
        raise refuse(
            ALREADY_WITHDRAWN, error_class=Conflict, code="already_withdrawn", player=entry.player
        )
    entry.withdrawn_at = now_or(now)
    entry.save(update_fields=["withdrawn_at"])
    competition_touch(competition)
    webhooks.registration_changed(competition, entry.pk, "withdrawn")  # to the event's webhooks
    return entry


@transaction.atomic
def entry_withdraw(
    *, entry: Entry, now: datetime | None = None, expected: str | None = None
) -> Withdrawal:
    """Withdraw a player from a running round robin and apply RR¶10 to their games.

    ``expected`` is the signature of the preview the organiser confirmed
    (``selectors.withdrawal_signature``); when the withdrawal would now do something else (a
    result or a time loss came in meanwhile), it is refused so the new preview can be checked.
    """
    competition = locked_competition(entry.competition)
    entry = _entry_to_withdraw(competition, entry)
    now = now_or(now)
    _clocks_catch_up(competition, entry, now)
    effect, finished, scheduled, fates = selectors.withdrawal_outlook(entry, now)
    if expected is not None and expected != selectors.withdrawal_signature(effect, finished, fates):
        raise refuse(STALE_WITHDRAWAL, error_class=Stale, code="stale_withdrawal")
    for view, fate in fates:
        if fate == rules.STRUCK:
            _strike(view, now)
        elif fate == rules.FORFEITED:
            forfeit_game(view.game, {entry.pk}, now)
    withdrawal = Withdrawal(
        entry=entry, effect=effect, finished=finished, scheduled=scheduled, at=now
    )
    withdrawal.full_clean()
    withdrawal.save()
    if entry.withdrawn_at is None:
        entry.withdrawn_at = now
        entry.save(update_fields=["withdrawn_at"])
    tiebreaks_sync(competition, entry.rr_snapshot.table, now)
    status_sync(competition)
    competition_touch(competition)
    webhooks.registration_changed(competition, entry.pk, "withdrawn", now)
    return withdrawal
