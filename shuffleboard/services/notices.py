"""What a sjoelen player hears (issue 31): "Next: game n at board b" once their next game is
known (after each game of theirs is entered or corrected), in their language, through
``events.services.notify`` to those who chose notifications for the event.

The key holds the game and the board: the same next game queues nothing again, a changed one a
new message (an unsent one about the old board is cancelled); every game in ends the subject."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from events.common.siteurl import absolute_url
from events.language import mail_language
from events.models import Entry
from events.services import notify, outbox
from shuffleboard import selectors


def next_subject(entry_id: int) -> str:
    return f"sj-next:{entry_id}"


def next_key(entry_id: int, number: int, board: int) -> str:
    # The closing "/" keeps board 2's key from being a prefix of board 23's.
    return f"{next_subject(entry_id)}:{number}/{board}/"


def next_told(entry_ids: Iterable[int], now: dt.datetime | None = None) -> int:
    """Tell each listening player of ``entry_ids`` their next game and board when it changed
    (two queries, then three per listening player). Returns how many messages were queued."""
    now = now or timezone.now()
    entries = list(
        Entry.objects.filter(pk__in=set(entry_ids)).select_related("player", "competition__event")
    )
    if not entries:
        return 0
    event = entries[0].competition.event
    listening = notify.players_listening(event, [e.player_id for e in entries])
    notices = []
    for entry in entries:
        if entry.player_id not in listening:
            continue
        subject = next_subject(entry.pk)
        upcoming = selectors.next_game(entry)
        if upcoming is None:
            outbox.subject_ended(subject)
            continue
        number, board = upcoming
        key = next_key(entry.pk, number, board)
        outbox.subject_ended_except(subject, key)
        language = mail_language(entry.player, event)
        with translation.override(language):
            text = _("Next: game %(game)s at board %(board)s") % {"game": number, "board": board}
        competition = entry.competition
        url = absolute_url(
            reverse(
                "shuffleboard:player",
                kwargs={
                    "event_slug": event.slug,
                    "competition_slug": competition.slug,
                    "entry_id": entry.pk,
                },
            )
        )
        notices.append(
            notify.Notice(
                player=entry.player,
                key=key,
                subject_key=subject,
                title=f"{competition.name}: {text}",
                body=text,
                url=url,
                language=language,
            )
        )
    queued = notify.send_notices(event, notices, now=now)
    if queued:
        outbox.drain_after_commit()  # the player walks to the next board now
    return queued
