"""What a Blokus player hears when a round is drawn: "Round n: table t, colour c"
(and the session's start when it is still ahead), in their language, through
``events.outbox.notify`` to those who chose notifications for the event.

A notice's key holds the seat itself (table and colour): a round drawn again queues nothing
for a player whose seat stayed, and a new message (the old one cancelled if unsent) for one
whose seat changed. The final's seating says "Final" (a replay of a tied final its number).

A reserve called in (``reserve_called``) hears that they play, and in whose place; the player
replaced loses the seat message they had not yet been sent. A table's result ends its players'
seat messages still waiting (``seats_played``).

Every message here says only what the public pages show (public names, a public link): it goes
to a browser that said "this is me" on the player's public page too (``Notice.public``)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from blokus.models import SessionPlayer
from blokus.templatetags.blokus_tags import COLOUR_NAMES
from events.common.siteurl import absolute_url
from events.language import mail_language
from events.models import Competition, Game, Round, Seat, Session
from events.outbox import notify, queue, webhooks


def seat_subject(session_id: int, round_number: int, player_id: int) -> str:
    return f"blk-seat:{session_id}:{round_number}:{player_id}"


def replays_dropped(session: Session, rounds: list[Round]) -> int:
    """Replays of a tied final that a correction made unnecessary: their seat messages still
    waiting are no longer true (one query to find them, one to cancel)."""
    seated = Seat.objects.filter(game__round__in=rounds).values_list(
        "game__round__number", "entry__player_id"
    )
    return queue.subjects_ended(
        seat_subject(session.pk, number, player_id) for number, player_id in seated
    )


def seats_played(game: Game) -> int:
    """``game`` has its result: its players' seat messages still waiting are no longer worth
    sending (one query to find them, one to cancel)."""
    round_ = game.round
    players = Seat.objects.filter(game=game).values_list("entry__player_id", flat=True)
    return queue.subjects_ended(
        seat_subject(round_.session_id, round_.number, player_id) for player_id in players
    )


def _player_url(competition: Competition, entry_id: int) -> str:
    return absolute_url(
        reverse(
            "blokus:player",
            kwargs={
                "event_slug": competition.event.slug,
                "competition_slug": competition.slug,
                "entry_id": entry_id,
            },
        )
    )


def _seat_text(*, final: bool, round_: int, starts: bool) -> str:
    """The seat message's words (a template), in the active language."""
    if final and round_ > 1:
        if starts:
            return _(
                "Final, replay %(replay)s: table %(table)s, colour %(colour)s, starts %(time)s"
            )
        return _("Final, replay %(replay)s: table %(table)s, colour %(colour)s")
    if final:
        if starts:
            return _("Final: table %(table)s, colour %(colour)s, starts %(time)s")
        return _("Final: table %(table)s, colour %(colour)s")
    if starts:
        return _("Round %(round)s: table %(table)s, colour %(colour)s, starts %(time)s")
    return _("Round %(round)s: table %(table)s, colour %(colour)s")


def round_drawn(round_: Round, now: dt.datetime | None = None) -> int:
    """Queue each listening player's seat in ``round_`` (three queries, then one insert per
    message). Returns how many messages were queued."""
    now = now or timezone.now()
    session = round_.session
    competition = session.competition
    event = competition.event
    webhooks.announce(  # "round.seated" to the event's webhooks
        webhooks.WebhookTopic.ROUND,
        competition,
        subject=f"round:{round_.pk}:{now.isoformat()}",  # a reserve swapped in: again
        data={"session": session.pk, "round": round_.pk, "number": round_.number},
        now=now,
    )
    seats = list(
        Seat.objects.filter(game__round=round_)
        .select_related("entry__player", "game")
        .order_by("game__number", "position")
    )
    listening = notify.players_listening(event, [s.entry.player_id for s in seats], public=True)
    starts = session.starts_at if session.starts_at and session.starts_at > now else None
    notices = []
    for seat in seats:
        player = seat.entry.player
        if player.pk not in listening:
            continue
        subject = seat_subject(session.pk, round_.number, player.pk)
        key = f"{subject}:{seat.game.number}:{seat.colour}"
        # The seat as it was told before, if it changed: no longer true.
        queue.subject_ended_except(subject, key)
        language = mail_language(player, event)
        # Every word of the notice is made here, in the player's language: the colour's name
        # is lazy, so a body formatted after this block would name it in the site's language.
        with translation.override(language):
            words = {
                "round": round_.number,
                "table": seat.game.number,
                "colour": str(COLOUR_NAMES.get(seat.colour, seat.colour)),
            }
            if starts is not None:
                words["time"] = time_format(
                    timezone.localtime(starts, ZoneInfo(event.time_zone)), "H:i"
                )
            text = _seat_text(
                final=session.kind == Session.Kind.FINAL,
                round_=round_.number,
                starts=starts is not None,
            )
            words["replay"] = round_.number - 1
            line = text % words
            title = f"{competition.name}: {line}"
        url = _player_url(competition, seat.entry_id)
        notices.append(
            notify.Notice(
                player=player,
                key=key,
                subject_key=subject,
                title=title,
                body=line,
                url=url,
                language=language,
                public=True,  # the session page shows every seat: "this is me" hears it too
            )
        )
    queued = notify.send_notices(event, notices, now=now)
    if queued:
        queue.drain_after_commit()  # people wait at the tables for it
    return queued


def reserve_subject(session_id: int, player_id: int) -> str:
    return f"blk-reserve:{session_id}:{player_id}"


def reserve_called(
    *, out: SessionPlayer, reserve: SessionPlayer, now: dt.datetime | None = None
) -> int:
    """``reserve`` plays in ``out``'s place: they hear it (their seat follows from
    ``round_drawn`` when round 1 was drawn); what ``out`` was told and not yet sent about the
    session ends. Returns how many messages were queued."""
    now = now or timezone.now()
    session = reserve.session
    competition = session.competition
    event = competition.event
    rounds = list(Round.objects.filter(session=session).values_list("number", flat=True))
    queue.subjects_ended(
        [reserve_subject(session.pk, out.entry.player_id)]
        + [seat_subject(session.pk, number, out.entry.player_id) for number in rounds]
    )
    player = reserve.entry.player
    if player.pk not in notify.players_listening(event, [player.pk], public=True):
        return 0
    language = mail_language(player, event)
    with translation.override(language):
        text = _("%(session)s: you are called in from the reserves, in place of %(name)s") % {
            "session": str(session),
            "name": out.entry.player.public_name,
        }
    subject = reserve_subject(session.pk, player.pk)
    notice = notify.Notice(
        player=player,
        key=f"{subject}:{out.entry_id}",
        subject_key=subject,
        title=f"{competition.name}: {text}",
        body=text,
        url=_player_url(competition, reserve.entry_id),
        language=language,
        public=True,  # the session page shows who plays, by public name
    )
    queued = notify.send_notices(event, [notice], now=now)
    if queued:
        queue.drain_after_commit()  # the session is about to start
    return queued
