"""The round robin's e-mails: private links at the start, reminders before a deadline.

Subjects and bodies are templates (``templates/roundrobin/email/<name>_subject.txt`` and
``<name>_body.txt``), rendered in the active language.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse

from events.models import Competition, CompetitionStatus, Entry, Seat
from events.siteurl import absolute_url
from roundrobin.format import ROUNDROBIN
from roundrobin.models import PlayerToken, Turn
from roundrobin.services.base import local_time, now_or, options


def private_url(token: str) -> str:
    """The absolute address of a player's private page (from the one base, events.siteurl)."""
    return absolute_url(reverse("roundrobin:private", args=[token]))


def render_mail(name: str, context: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) of the e-mail ``name``; the subject on one line."""
    subject = render_to_string(f"roundrobin/email/{name}_subject.txt", context)
    body = render_to_string(f"roundrobin/email/{name}_body.txt", context)
    return " ".join(subject.split()), body


def _mail_on_commit(subject: str, body: str, to: str) -> None:
    """Send after the transaction commits (never for a rolled-back write)."""
    transaction.on_commit(lambda: send_mail(subject, body, None, [to], fail_silently=True))


def tokens_create(*, entries: Iterable[Entry], now: datetime) -> list[PlayerToken]:
    """Give every entry without one a private link and e-mail it to players with an address."""
    entries = list(entries)
    have = set(PlayerToken.objects.filter(entry__in=entries).values_list("entry_id", flat=True))
    tokens = PlayerToken.objects.bulk_create(
        PlayerToken(entry=entry, token=secrets.token_urlsafe(32), created_at=now)
        for entry in entries
        if entry.pk not in have
    )
    for token in tokens:
        player = token.entry.player
        if player.email:
            subject, body = render_mail(
                "private_link",
                {
                    "player": player,
                    "competition": token.entry.competition,
                    "url": private_url(token.token),
                },
            )
            _mail_on_commit(subject, body, player.email)
    return tokens


SIDES = ((1, "first"), (2, "second"))


def _turns_to_remind(competition: Competition, now: datetime, hours: int) -> list[Turn]:
    """Open turns ending within ``hours`` with a player who has neither moved nor been told."""
    return list(
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


def _mark_reminded(turn: Turn, side: str, now: datetime) -> bool:
    """Mark the reminder sent, by a conditional update: two runs never send the same one."""
    if getattr(turn, f"{side}_moved_at") or getattr(turn, f"{side}_reminded_at"):
        return False
    return bool(
        Turn.objects.filter(pk=turn.pk, **{f"{side}_reminded_at__isnull": True}).update(
            **{f"{side}_reminded_at": now}
        )
    )


def _send_reminder(competition: Competition, turn: Turn, entry: Entry) -> None:
    token = getattr(entry, "rr_token", None)
    subject, body = render_mail(
        "reminder",
        {
            "competition": competition,
            "player": entry.player,
            "turn": turn.number,
            "deadline": local_time(turn.deadline, competition),
            "url": private_url(token.token) if token else "",
        },
    )
    send_mail(subject, body, None, [entry.player.email], fail_silently=True)


def _remind_competition(competition: Competition, now: datetime, hours: int) -> int:
    turns = _turns_to_remind(competition, now, hours)
    if not turns:
        return 0
    seats = Seat.objects.filter(game_id__in=[t.game_id for t in turns]).select_related(
        "entry__player", "entry__rr_token"
    )
    by_game = {(s.game_id, s.position): s.entry for s in seats}
    sent = 0
    for turn in turns:
        for position, side in SIDES:
            if not _mark_reminded(turn, side, now):
                continue
            entry = by_game.get((turn.game_id, position))
            if entry is None or not entry.player.email:
                continue
            _send_reminder(competition, turn, entry)
            sent += 1
    return sent


def reminders_send(*, now: datetime | None = None) -> int:
    """E-mail every player who has not moved when their deadline is the competition's
    ``reminder_hours`` away (0 turns reminders off), once per turn. Returns the number sent."""
    now = now_or(now)
    sent = 0
    competitions = Competition.objects.filter(
        format=ROUNDROBIN.key, status=CompetitionStatus.RUNNING
    ).select_related("event")
    for competition in competitions:
        hours = options(competition).reminder_hours
        if hours > 0:
            sent += _remind_competition(competition, now, hours)
    return sent
