"""What a Blokus player hears when a round is drawn (issue 31): "Round n: table t, colour c"
(and the session's start when it is still ahead), in their language, through
``events.services.notify`` to those who chose notifications for the event.

A notice's key holds the seat itself (table and colour): a round drawn again queues nothing
for a player whose seat stayed, and a new message (the old one cancelled if unsent) for one
whose seat changed."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from blokus.templatetags.blokus_tags import COLOUR_NAMES
from events.common.siteurl import absolute_url
from events.language import mail_language
from events.models import Round, Seat
from events.services import notify, outbox


def seat_subject(session_id: int, round_number: int, player_id: int) -> str:
    return f"blk-seat:{session_id}:{round_number}:{player_id}"


def round_drawn(round_: Round, now: dt.datetime | None = None) -> int:
    """Queue each listening player's seat in ``round_`` (three queries, then one insert per
    message). Returns how many messages were queued."""
    now = now or timezone.now()
    session = round_.session
    competition = session.competition
    event = competition.event
    seats = list(
        Seat.objects.filter(game__round=round_)
        .select_related("entry__player", "game")
        .order_by("game__number", "position")
    )
    listening = notify.players_listening(event, [s.entry.player_id for s in seats])
    starts = session.starts_at if session.starts_at and session.starts_at > now else None
    notices = []
    for seat in seats:
        player = seat.entry.player
        if player.pk not in listening:
            continue
        subject = seat_subject(session.pk, round_.number, player.pk)
        key = f"{subject}:{seat.game.number}:{seat.colour}"
        # The seat as it was told before, if it changed: no longer true.
        outbox.subject_ended_except(subject, key)
        language = mail_language(player, event)
        with translation.override(language):
            words = {
                "round": round_.number,
                "table": seat.game.number,
                "colour": COLOUR_NAMES.get(seat.colour, seat.colour),
            }
            if starts is not None:
                words["time"] = time_format(
                    timezone.localtime(starts, ZoneInfo(event.time_zone)), "H:i"
                )
                text = _("Round %(round)s: table %(table)s, colour %(colour)s, starts %(time)s")
            else:
                text = _("Round %(round)s: table %(table)s, colour %(colour)s")
            title = f"{competition.name}: {text % words}"
        url = absolute_url(
            reverse(
                "blokus:player",
                kwargs={
                    "event_slug": event.slug,
                    "competition_slug": competition.slug,
                    "entry_id": seat.entry_id,
                },
            )
        )
        notices.append(
            notify.Notice(
                player=player,
                key=key,
                subject_key=subject,
                title=title,
                body=text % words,
                url=url,
                language=language,
            )
        )
    queued = notify.send_notices(event, notices, now=now)
    if queued:
        outbox.drain_after_commit()  # people wait at the tables for it
    return queued
