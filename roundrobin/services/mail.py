"""The round robin's e-mails: private links at the start, reminders before a deadline (these
through the outbox, events/outbox/queue.py: queued with the turn's mark, sent by the drain,
retried when the mail server fails).

Subjects and bodies are templates (``templates/roundrobin/email/<name>_subject.txt`` and
``<name>_body.txt``), rendered in the active language.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from events.common.localising import event_datetime
from events.common.siteurl import absolute_url
from events.language import mail_language
from events.models import Competition, CompetitionStatus, Entry, Seat
from events.outbox import notify, queue
from roundrobin import rules
from roundrobin.format import ROUNDROBIN
from roundrobin.models import PlayerToken, Turn
from roundrobin.services.base import now_or, options, turn_subject


def private_url(token: str) -> str:
    """The absolute address of a player's private page (from the one base,
    events.common.siteurl)."""
    return absolute_url(reverse("roundrobin:private", args=[token]))


def render_mail(name: str, context: dict[str, Any], language: str = "") -> tuple[str, str]:
    """(subject, body) of the e-mail ``name``; the subject on one line."""
    with translation.override(language or translation.get_language()):  # the player's language
        subject = render_to_string(f"roundrobin/email/{name}_subject.txt", context)
        body = render_to_string(f"roundrobin/email/{name}_body.txt", context)
    return " ".join(subject.split()), body


def tokens_create(*, entries: Iterable[Entry], now: datetime) -> list[PlayerToken]:
    """Give every entry without one a private link and e-mail it to players with an address."""
    entries = list(entries)
    have = set(PlayerToken.objects.filter(entry__in=entries).values_list("entry_id", flat=True))
    tokens = PlayerToken.objects.bulk_create(
        PlayerToken(entry=entry, token=secrets.token_urlsafe(32), created_at=now)
        for entry in entries
        if entry.pk not in have
    )
    games = _games_of(entries) if tokens else {}
    queued = False
    for token in tokens:
        player = token.entry.player
        if player.email:
            subject, body = render_mail(
                "private_link",
                {
                    "player": player,
                    "competition": token.entry.competition,
                    "url": private_url(token.token),
                    "event": token.entry.competition.event,
                    "games": games.get(token.entry_id, []),
                },
                language := mail_language(player, token.entry.competition.event),
            )
            # On the outbox, in this transaction: a mail server that is down loses no link.
            queued |= queue.enqueue(
                key=f"rr-link:{token.pk}",
                to=player.email,
                subject=subject,
                body=body,
                language=language,
                event=token.entry.competition.event,
            )
    if queued:
        queue.drain_after_commit()
    return tokens


def _games_of(entries: list[Entry]) -> dict[int, list[dict[str, Any]]]:
    """Each entry's games for the private-link e-mail: table, game number, colour, opponent
    (one query)."""
    seats = (
        Seat.objects.filter(game__in=Seat.objects.filter(entry__in=entries).values("game"))
        .select_related("entry__player", "game__round__session")
        .order_by("game__round__number", "game__number", "position")
    )
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    games: dict[int, list[dict[str, Any]]] = {}
    for pair in by_game.values():
        if len(pair) != 2:
            continue
        for seat, other in ((pair[0], pair[1]), (pair[1], pair[0])):
            games.setdefault(seat.entry_id, []).append(_game_words(seat, other))
    return games


def _game_words(seat: Seat, other: Seat) -> dict[str, Any]:
    """What an e-mail names of one game: its table and number, the colour, the opponent (by
    their public name: the e-mail is about another player)."""
    game = seat.game
    return {
        "table": game.round.session.number,
        "number": game.number,
        "tiebreak": game.round.number > 1,
        "white": seat.position == 1,
        "opponent": other.entry.player.public_name,
    }


SIDES = ((1, "first"), (2, "second"))


def _turns_to_remind(competition: Competition, now: datetime, hours: int) -> list[Turn]:
    """Open turns ending within ``hours`` with a player who has neither moved nor been told."""
    return list(
        Turn.objects.filter(
            game__round__session__competition=competition,
            closed_at__isnull=True,
            deadline__gte=now,
            deadline__lte=now + timedelta(hours=hours),
        )
        .select_related("game__round__session")
        .filter(
            Q(first_moved_at__isnull=True, first_reminded_at__isnull=True) & ~Q(mover=2)
            | Q(second_moved_at__isnull=True, second_reminded_at__isnull=True) & ~Q(mover=1)
        )
    )


def _mark_reminded(turn: Turn, side: str, now: datetime) -> bool:
    """Mark the reminder sent, by a conditional update: two runs never send the same one."""
    if getattr(turn, f"{side}_moved_at") or getattr(turn, f"{side}_reminded_at"):
        return False
    return bool(
        Turn.objects.filter(pk=turn.pk, **{f"{side}_reminded_at__isnull": True}).update(
            **{f"{side}_reminded_at": now}
        )
    )


def _queue_reminder(
    competition: Competition, turn: Turn, side: str, seat: Seat, other: Seat | None, now: datetime
) -> bool:
    """Mark the turn's side reminded and queue the e-mail on the outbox, in one transaction:
    the mark says "queued", the outbox marks it sent once the mail server took it."""
    entry = seat.entry
    token = getattr(entry, "rr_token", None)
    subject, body = render_mail(
        "reminder",
        {
            "competition": competition,
            "player": entry.player,
            "turn": turn.number,
            "deadline": turn.deadline,  # formatted in the player's language by the template
            "event": competition.event,
            "game": _game_words(seat, other) if other is not None else None,
            "url": private_url(token.token) if token else "",
        },
        language := mail_language(entry.player, competition.event),
    )
    with translation.override(language):
        # The deadline itself, not "in h hours": quiet hours may hold the message for a while.
        due = event_datetime(
            turn.deadline, competition.event, "SHORT_DATETIME_FORMAT", name_zone=False
        )
        short = (
            _("Your move against %(name)s is due by %(time)s.")
            % {"name": other.entry.player.public_name, "time": due}
            if other is not None
            else _("Your move is due by %(time)s.") % {"time": due}
        )
    notice = notify.Notice(
        player=entry.player,
        # the deadline in the key: a leave that moves it makes a new reminder due
        key=f"rr-reminder:{turn.pk}:{side}:{int(turn.deadline.timestamp())}",
        subject_key=turn_subject(turn.pk, side),  # ended by the move (``moved``)
        title=subject,
        body=body,
        short=short,
        url=private_url(token.token) if token else "",
        language=language,
    )
    with transaction.atomic():
        if not _mark_reminded(turn, side, now):
            return False
        # E-mail as always (unless the player stopped it), push when they chose it.
        return notify.send_notices(competition.event, [notice], email_default=True, now=now) > 0


def moved(*, competition: Competition, turn: Turn, position: int, now: datetime) -> int:
    """A player moved: their reminder of the turn is no longer true (cancelled if unsent), and
    the opponent hears "X has moved" when they chose notifications for the event."""
    side = "first" if position == 1 else "second"
    queue.subject_ended(turn_subject(turn.pk, side))
    seats = {
        s.position: s
        for s in Seat.objects.filter(game_id=turn.game_id).select_related(
            "entry__player", "entry__rr_token"
        )
    }
    mover, other = seats.get(position), seats.get(3 - position)
    if mover is None or other is None:
        return 0
    player = other.entry.player
    if player.pk not in notify.players_listening(competition.event, [player.pk]):
        return 0
    token = getattr(other.entry, "rr_token", None)
    language = mail_language(player, competition.event)
    with translation.override(language):
        title = _("%(name)s has moved") % {"name": mover.entry.player.public_name}
        body = _("%(competition)s, turn %(turn)s: your opponent %(name)s has moved.") % {
            "competition": competition.name,
            "turn": turn.number,
            "name": mover.entry.player.public_name,
        }
    notice = notify.Notice(
        player=player,
        key=f"rr-moved:{turn.pk}:{side}",
        title=title,
        body=body,
        url=private_url(token.token) if token else "",
        language=language,
    )
    return notify.send_notices(competition.event, [notice], now=now)


def _private_url_of(entry: Entry) -> str:
    token = getattr(entry, "rr_token", None)
    return private_url(token.token) if token else ""


def result_subject(game_id: int) -> str:
    """What "a result to confirm" says is true: the game waits for its result."""
    return f"rr-result:{game_id}"


def result_to_confirm(
    *, competition: Competition, game_id: int, reporter: Entry, result: str, now: datetime
) -> int:
    """A player reported a result the opponent has to confirm (``results.result_report``): the
    opponent hears it when they chose notifications for the event. A report changed since (or
    the opponent's different one) ends what was queued about the old one."""
    seats = list(
        Seat.objects.filter(game_id=game_id).select_related("entry__player", "entry__rr_token")
    )
    other = next((s for s in seats if s.entry_id != reporter.pk), None)
    if other is None:
        return 0
    subject = result_subject(game_id)
    key = f"{subject}:{other.entry_id}:{result}"
    queue.subject_ended_except(subject, key)
    player = other.entry.player
    if player.pk not in notify.players_listening(competition.event, [player.pk]):
        return 0
    language = mail_language(player, competition.event)
    words = {"name": reporter.player.public_name}
    with translation.override(language):
        outcome = rules.outcome_of_result(result, other.position)
        if outcome == "won":
            body = _("%(name)s reports that you won: confirm it on your page.") % words
        elif outcome == "lost":
            body = _("%(name)s reports that you lost: confirm it on your page.") % words
        else:
            body = _("%(name)s reports a draw: confirm it on your page.") % words
        title = _("%(competition)s: a result to confirm") % {"competition": competition.name}
    notice = notify.Notice(
        player=player,
        key=key,
        subject_key=subject,
        title=title,
        body=body,
        url=_private_url_of(other.entry),
        language=language,
    )
    return notify.send_notices(competition.event, [notice], now=now)


def time_lost(*, competition: Competition, outcomes: list[tuple[int, str]], now: datetime) -> int:
    """Games the deadline sweep ended on time (game id, ending): both players hear it when they
    chose notifications for the event; a result waiting to be confirmed is no longer asked for
    (three queries for the whole batch, then one insert per message)."""
    if not outcomes:
        return 0
    queue.subjects_ended(result_subject(game_id) for game_id, _ending in outcomes)
    seats: dict[int, dict[int, Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=[g for g, _e in outcomes]).select_related(
        "entry__player", "entry__rr_token"
    ):
        seats.setdefault(seat.game_id, {})[seat.position] = seat
    listening = notify.players_listening(
        competition.event, [s.entry.player_id for pair in seats.values() for s in pair.values()]
    )
    losers = {rules.FIRST_LOST_ON_TIME: {1}, rules.SECOND_LOST_ON_TIME: {2}}
    notices = []
    for game_id, ending in outcomes:
        pair = seats.get(game_id, {})
        lost = losers.get(ending, {1, 2})  # a double forfeit: both
        for position, seat in pair.items():
            other = pair.get(3 - position)
            player = seat.entry.player
            if other is None or player.pk not in listening:
                continue
            language = mail_language(player, competition.event)
            words = {"name": other.entry.player.public_name}
            with translation.override(language):
                if position in lost and len(lost) == 2:
                    body = _("Neither you nor %(name)s moved in time: the game is lost for both.")
                elif position in lost:
                    body = _("You lost on time against %(name)s.")
                else:
                    body = _("%(name)s ran out of time: you won.")
                title = _("%(competition)s: a game lost on time") % {
                    "competition": competition.name
                }
            notices.append(
                notify.Notice(
                    player=player,
                    key=f"rr-time:{game_id}:{seat.entry_id}",
                    title=title,
                    body=body % words,
                    url=_private_url_of(seat.entry),
                    language=language,
                )
            )
    return notify.send_notices(competition.event, notices, now=now)


def _remind_competition(competition: Competition, now: datetime, hours: int) -> int:
    turns = _turns_to_remind(competition, now, hours)
    if not turns:
        return 0
    seats = Seat.objects.filter(game_id__in=[t.game_id for t in turns]).select_related(
        "entry__player", "entry__rr_token"
    )
    by_game = {(s.game_id, s.position): s for s in seats}
    # A player without an address who chose push hears it by push.
    pushing = notify.players_pushing(
        competition.event,
        [s.entry.player_id for s in by_game.values() if not s.entry.player.email],
    )
    queued = 0
    for turn in turns:
        for position, side in SIDES:
            if turn.mover not in (None, position):  # alternating: only the player to move
                continue
            seat = by_game.get((turn.game_id, position))
            if seat is None or not (seat.entry.player.email or seat.entry.player_id in pushing):
                _mark_reminded(turn, side, now)  # nobody to tell: not looked at again
                continue
            other = by_game.get((turn.game_id, 3 - position))
            for game_seat in (seat, other):
                if game_seat is not None:
                    game_seat.game = turn.game  # its round and table, loaded with the turn
            queued += _queue_reminder(competition, turn, side, seat, other, now)
    return queued


def reminders_send(*, now: datetime | None = None, competition_id: int | None = None) -> int:
    """Queue an e-mail (the outbox) to every player who has not moved when their deadline is
    the competition's ``reminder_hours`` away (0 turns reminders off), once per turn; with
    ``competition_id``, that competition's only. Returns the number queued."""
    now = now_or(now)
    sent = 0
    competitions = Competition.objects.filter(
        format=ROUNDROBIN.key, status=CompetitionStatus.RUNNING
    ).select_related("event")
    if competition_id is not None:
        competitions = competitions.filter(pk=competition_id)
    for competition in competitions:
        hours = options(competition).reminder_hours
        if hours > 0:
            sent += _remind_competition(competition, now, hours)
    return sent
