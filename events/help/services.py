"""Every write of a call for help: made from a table or a player's page (no account), taken
("on my way") and closed at the desk. Each in a transaction; the database keeps one open call
per table and per player, and two people pressing at once meet the same call.

A call is rate-limited per player and per table by the attempt counter
(``events.services.attempts``: rows in the database, so it holds on every server and while
Redis is down). Joining a call already open costs nothing: the table is already waiting."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.errors import Gone, NotFound, Refused
from events.formats import part
from events.help.contract import HelpTables
from events.help.models import MAX_NOTE, HelpCall, new_call_key
from events.models import Competition, Entry
from events.permissions import SCOREKEEPER, ensure_access
from events.services import attempts

# Per ten minutes: a table may call four times, a player three (a call taken and closed, and
# then another dispute, is real; a phone pressing in a loop is not).
WINDOW_SECONDS = 600
TABLE_LIMIT = 4
PLAYER_LIMIT = 3

FINISHED = _("This competition is finished: please ask at the desk.")
NOT_IN_ROOM = _("This competition is not played at tables in the room.")
NOT_SEATED = _("You are not at a table just now: please ask at the desk.")
NO_SUCH_TABLE = _("Table %(table)s is not in play just now: please ask at the desk.")
TOO_MANY = _("Too many calls from this table just now: please walk to the desk.")
CLOSED = _("This call is closed already.")
UNKNOWN_REASON = _("Choose a reason.")


def help_part(competition: Competition) -> HelpTables:
    """The competition's format's part in calls for help; NotFound when it takes none."""
    found = part(competition.format, HelpTables)
    if found is None:
        raise NotFound(NOT_IN_ROOM, code="not_in_room")
    return found


def clean_note(note: str) -> str:
    """One line of printable text (a phone's keyboard may send anything)."""
    text = "".join(ch if ch.isprintable() else " " for ch in note)
    return " ".join(text.split())[:MAX_NOTE]


def open_call_for(competition: Competition, table: int, entry: Entry | None) -> HelpCall | None:
    where = Q(competition=competition, table=table)
    if entry is not None:
        where |= Q(entry=entry)
    return HelpCall.objects.filter(where, closed_at__isnull=True).order_by("created_at").first()


def table_for(competition: Competition, table: int | None, entry: Entry | None) -> int:
    """The table a call comes from: the player's own (asked of the format), or the one named,
    when it is in play now."""
    tables = help_part(competition)
    if entry is not None:
        if entry.competition_id != competition.pk:
            raise NotFound(NOT_SEATED, code="not_seated")
        seated = tables.help_table_of(entry)
        if seated is None:
            raise Refused(NOT_SEATED, code="not_seated")
        return seated
    if table is None or table not in tables.help_tables(competition):
        raise Refused(str(NO_SUCH_TABLE) % {"table": table}, code="no_such_table")
    return table


def _counted(keys: list[tuple[str, int]]) -> None:
    """Count one call against each key; refuse (and give back what was counted) when one is
    spent. Outside any transaction: a refusal must not roll the count back."""
    taken: list[str] = []
    for key, limit in keys:
        if not attempts.take(key, limit=limit, seconds=WINDOW_SECONDS):
            for done in taken:
                attempts.give_back(done)
            raise Refused(TOO_MANY, code="too_many")
        taken.append(key)


def call_for_help(
    *,
    competition: Competition,
    reason: str,
    note: str = "",
    table: int | None = None,
    entry: Entry | None = None,
    now: dt.datetime | None = None,
) -> tuple[HelpCall, bool]:
    """A call from ``table`` (a table page) or from ``entry``'s table (the player's page):
    ``(the call, True)`` when it is new, ``(the open one, False)`` when the table or the player
    is waiting already."""
    if competition.is_finished:
        raise Refused(FINISHED, code="finished")
    if reason not in HelpCall.Reason.values:
        raise Refused(UNKNOWN_REASON, code="reason")
    at = table_for(competition, table, entry)
    waiting = open_call_for(competition, at, entry)
    if waiting is not None:
        return waiting, False
    keys = [(f"help:table:{competition.pk}:{at}", TABLE_LIMIT)]
    if entry is not None:
        keys.append((f"help:player:{entry.pk}", PLAYER_LIMIT))
    _counted(keys)
    try:
        with transaction.atomic():
            call = HelpCall.objects.create(
                competition=competition,
                entry=entry,
                table=at,
                reason=reason,
                note=clean_note(note),
                key=new_call_key(),
                created_at=now or timezone.now(),
            )
    except IntegrityError:  # another phone at the table pressed at the same moment
        waiting = open_call_for(competition, at, entry)
        if waiting is None:
            raise
        return waiting, False
    return call, True


def _locked(call: HelpCall, by: Any) -> HelpCall:
    ensure_access(call.competition.event, by, SCOREKEEPER)
    fresh = HelpCall.objects.select_for_update().filter(pk=call.pk).first()
    if fresh is None:
        raise NotFound(CLOSED, code="not_found")
    if fresh.closed_at is not None:
        raise Gone(CLOSED, code="closed")
    return fresh


@transaction.atomic
def call_take(*, call: HelpCall, by: Any, now: dt.datetime | None = None) -> HelpCall:
    """ "On my way": the caller's page shows that someone is coming. Taken again by another
    person, the call is theirs (the first one was held up)."""
    fresh = _locked(call, by)
    fresh.taken_at = max(now or timezone.now(), fresh.created_at)
    fresh.taken_by = by
    fresh.save(update_fields=["taken_at", "taken_by", "changed_at"])
    return fresh


@transaction.atomic
def call_close(*, call: HelpCall, by: Any, now: dt.datetime | None = None) -> HelpCall:
    """Done: the table may call again."""
    fresh = _locked(call, by)
    fresh.closed_at = max(now or timezone.now(), fresh.created_at)
    fresh.closed_by = by
    fresh.save(update_fields=["closed_at", "closed_by", "changed_at"])
    return fresh
