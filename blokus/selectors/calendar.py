"""Blokus times for calendar feeds (``events.calendar.contract``).

- A session with a roll-call time (``Session.starts_at``, set on the desk): from the roll call
  for its rounds' planned length (rounds per session × round minutes; the final, one round).
  A session declared not held stays in the feed, cancelled.
- A round whose clock has started: from its start for the round's minutes, with the minutes
  added or removed on the desk and the pauses so far. A round drawn but not started has no
  time yet, so no event.
- A player's feed: the sessions they are registered for (not those they were replaced in) and
  the rounds they have a seat in, with their table and colour.

UIDs follow from the session's id and the round's number (and the player's entry in their own
feed), never from a row a re-draw replaces, so a moved or re-drawn round updates its event.
Three queries for any number of competitions and players.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from blokus.models import SessionPlayer
from blokus.templatetags.blokus_tags import colour_name
from events.calendar.contract import CalendarItem
from events.models import Competition, Round, Seat, Session


def calendar_items(
    competitions: Sequence[Competition], entries: Sequence[Any] | None = None
) -> list[CalendarItem]:
    if entries is None:
        return session_items(competitions) + round_items(competitions)
    return player_session_items(entries) + player_round_items(entries)


def session_length(session: Session) -> timedelta:
    options = session.competition.options
    rounds = 1 if session.kind == Session.Kind.FINAL else options.rounds_per_session
    return timedelta(minutes=rounds * options.round_minutes)


def session_item(session: Session, key: str, description: str = "") -> CalendarItem:
    competition = session.competition
    assert session.starts_at is not None
    not_held = getattr(session, "blokus_not_held", None)
    words = {"competition": competition, "session": session}
    if not_held is not None:
        description = _("Not held: %(reason)s") % {"reason": not_held.reason}
    return CalendarItem(
        key=key,
        start=session.starts_at,
        end=session.starts_at + session_length(session),
        summary=_("%(competition)s: %(session)s") % words,
        description=description or _("Roll call."),
        location=competition.event.venue,
        path=session_path(session),
        sequence=competition.version,
        cancelled=not_held is not None,
    )


def session_path(session: Session) -> str:
    competition = session.competition
    args = [competition.event.slug, competition.slug]
    if session.kind == Session.Kind.FINAL:
        return reverse("blokus:overview", args=args)
    return reverse("blokus:session", args=[*args, session.number])


def sessions_query() -> Any:
    return Session.objects.exclude(starts_at=None).select_related(
        "competition__event", "blokus_not_held"
    )


def session_items(competitions: Sequence[Competition]) -> list[CalendarItem]:
    sessions = sessions_query().filter(competition__in=competitions)
    return [session_item(s, f"blokus-session-{s.pk}") for s in sessions]


def player_session_items(entries: Sequence[Any]) -> list[CalendarItem]:
    registrations = (
        SessionPlayer.objects.filter(entry__in=entries, session__starts_at__isnull=False)
        .exclude(role=SessionPlayer.Role.REPLACED)
        .select_related("session__competition__event", "session__blokus_not_held")
    )
    items = []
    for sp in registrations:
        role = sp.get_role_display() if sp.role == SessionPlayer.Role.RESERVE else ""
        items.append(
            session_item(sp.session, f"blokus-session-{sp.session_id}-e{sp.entry_id}", role)
        )
    return items


def round_end(round_: Round, start: datetime) -> datetime:
    minutes = round_.session.competition.options.round_minutes
    return start + timedelta(seconds=minutes * 60 + round_.extra_seconds + round_.paused_seconds)


def round_item(round_: Round, key: str, seat: Seat | None = None) -> CalendarItem:
    session = round_.session
    competition = session.competition
    assert round_.started_at is not None
    words = {"competition": competition, "number": round_.number, "session": session}
    summary = _("%(competition)s: round %(number)s of %(session)s") % words
    path = session_path(session)
    if seat is not None:
        place = {"table": seat.game.number, "colour": colour_name(seat.colour) or "–"}
        summary += " · " + _("table %(table)s, %(colour)s") % place
        path = reverse(
            "blokus:player", args=[competition.event.slug, competition.slug, seat.entry_id]
        )
    return CalendarItem(
        key=key,
        start=round_.started_at,
        end=round_end(round_, round_.started_at),
        summary=summary,
        location=competition.event.venue,
        path=path,
        sequence=competition.version,
    )


def round_items(competitions: Sequence[Competition]) -> list[CalendarItem]:
    rounds = Round.objects.filter(
        session__competition__in=competitions, started_at__isnull=False
    ).select_related("session__competition__event")
    return [round_item(r, f"blokus-round-{r.session_id}-{r.number}") for r in rounds]


def player_round_items(entries: Sequence[Any]) -> list[CalendarItem]:
    seats = Seat.objects.filter(
        entry__in=entries, game__round__started_at__isnull=False
    ).select_related("game__round__session__competition__event")
    return [
        round_item(
            seat.game.round,
            f"blokus-round-{seat.game.round.session_id}-{seat.game.round.number}-e{seat.entry_id}",
            seat,
        )
        for seat in seats
    ]
