"""What a sjoelen player hears: "Next: game n at board b" once their next game is
known (after each game of theirs is entered or corrected), in their language, through
``events.outbox.notify`` to those who chose notifications for the event.

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
from events.models import Competition, Entry
from events.outbox import notify, queue, webhooks
from shuffleboard import selectors
from shuffleboard.models import Turn


def next_subject(entry_id: int) -> str:
    return f"sj-next:{entry_id}"


def next_key(entry_id: int, number: int, board: int) -> str:
    # The closing "/" keeps board 2's key from being a prefix of board 23's.
    return f"{next_subject(entry_id)}:{number}/{board}/"


def next_told(
    entry_ids: Iterable[int], now: dt.datetime | None = None, *, rota: selectors.Rota | None = None
) -> int:
    """Tell each listening player of ``entry_ids`` their next game and board when it changed
    (two queries, then three per listening player, one less with ``rota``). Returns how many
    messages were queued.

    ``rota``: the board rota as the caller's write left it (those players' games set as
    stored, ``Rota.games_stored``): the next games are read from it, not again."""
    now = now or timezone.now()
    entries = list(
        Entry.objects.filter(pk__in=set(entry_ids)).select_related("player", "competition__event")
    )
    if not entries:
        return 0
    event = entries[0].competition.event
    listening = notify.players_listening(event, [e.player_id for e in entries], public=True)
    notices = []
    for entry in entries:
        if entry.player_id not in listening:
            continue
        subject = next_subject(entry.pk)
        upcoming = selectors.next_game(entry) if rota is None else rota.next_game(entry.pk)
        if upcoming is None:
            queue.subject_ended(subject)
            continue
        number, board = upcoming
        key = next_key(entry.pk, number, board)
        queue.subject_ended_except(subject, key)
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
                public=True,  # the rota on the public pages shows it: "this is me" hears it
            )
        )
    queued = notify.send_notices(event, notices, now=now)
    if queued:
        queue.drain_after_commit()  # the player walks to the next board now
    return queued


def webhooks_told(
    competition: Competition,
    entry_ids: Iterable[int],
    turn: Turn | None,
    *,
    correction: bool = False,
    rota: selectors.Rota | None = None,
) -> int:
    """The game entered to the event's webhooks ("result.confirmed"), and each player's next
    game and board ("round.seated": a sjoelen player's seat is their board). Nothing is read
    when no webhook listens; with ``rota`` (as in ``next_told``) the next games come from it."""
    queued = 0
    if turn is not None:
        queued += webhooks.announce(
            webhooks.WebhookTopic.RESULT,
            competition,
            subject=f"turn:{turn.pk}:r{turn.revision}",
            data={
                "entry": turn.entry_id,
                "game": turn.number,
                "board": turn.board,
                "correction": correction,
            },
        )
    if not webhooks.wanted(competition.event_id, webhooks.WebhookTopic.ROUND):
        return queued
    if rota is not None:
        upcoming_of = {entry_id: rota.next_game(entry_id) for entry_id in sorted(set(entry_ids))}
    else:
        entries = Entry.objects.filter(pk__in=set(entry_ids)).select_related("competition")
        upcoming_of = {entry.pk: selectors.next_game(entry) for entry in entries}
    for entry_id, upcoming in upcoming_of.items():
        if upcoming is None:
            continue
        number, board = upcoming
        queued += webhooks.announce(
            webhooks.WebhookTopic.ROUND,
            competition,
            subject=f"board:{entry_id}:{number}/{board}/",
            data={"entry": entry_id, "game": number, "board": board},
        )
    return queued
