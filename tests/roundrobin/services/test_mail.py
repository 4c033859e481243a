"""The round robin's notifications: a reminder ends when the move is made, "X has
moved" to an opponent who chose it, push copies of reminders, the stop link."""

from __future__ import annotations

import datetime as dt

from django.core import mail
from django.test import override_settings
from django.utils import timezone

from events.models import Player
from events.outbox import notify, queue as outbox
from events.outbox.models import NotificationPreference, OutboxMessage, OutboxStatus
from roundrobin import services
from roundrobin.models import PlayerToken, Turn
from roundrobin.services import mail as rr_mail
from tests.support.notify import PRIVATE, PUBLIC, Browser, PushService, b64
from tests.support.roundrobin import (
    FULL,
    SHORT,
    START,
    SURNAME,
    enter_players,
    make_competition,
    move,
    started_duel,
)

H = dt.timedelta(hours=1)


def test_a_reminder_not_yet_sent_is_cancelled_by_the_move(duel):
    competition, game, white, black = duel
    Player.objects.filter(pk__in=[white.player_id, black.player_id]).update(email="p@example.org")
    move(white, game, 1, "e4", START + H)
    assert services.reminders_send(now=START + 19 * H) == 1
    move(black, game, 1, "e5", START + 19 * H + dt.timedelta(minutes=5))
    assert outbox.drain(now=START + 20 * H).sent == 0
    assert OutboxMessage.objects.get().status == OutboxStatus.CANCELLED
    assert mail.outbox == []


def test_the_opponent_who_chose_it_hears_x_has_moved_in_their_language(duel):
    competition, game, white, black = duel
    Player.objects.filter(pk=black.player_id).update(email="b@example.org", language="nl")
    black.player.refresh_from_db()
    move(white, game, 1, "e4", START + H)
    assert not OutboxMessage.objects.exists()  # no choice: no "has moved"
    notify.preference_set(
        player=black.player, event=competition.event, email=True, push=False, now=START
    )
    move(black, game, 1, "e5", START + 2 * H)  # white has no address: nothing for white
    move(white, game, 2, "d4", START + 3 * H)
    (message,) = OutboxMessage.objects.all()
    assert message.language == "nl" and "heeft gezet" in message.subject, message.subject
    assert white.player.public_name in message.subject
    assert "/notifications/stop/" in message.body


@override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)
def test_a_reminder_goes_by_push_too_and_a_stopped_player_gets_none(duel):
    competition, game, white, black = duel
    Player.objects.filter(pk=black.player_id).update(email="b@example.org", language="sv")
    browser = Browser()
    with PushService() as service:
        notify.push_subscribe(
            player=black.player,
            endpoint=service.url(),
            p256dh=browser.p256dh,
            auth=b64(browser.auth),
        )
        notify.channels_set(player=black.player, event=competition.event, email=True, push=True)
        move(white, game, 1, "e4", START + H)
        assert services.reminders_send(now=START + 19 * H) == 1
        # "has moved" and the reminder, each by e-mail and by push (both chosen).
        assert outbox.drain(now=START + 19 * H).sent == 4
        moved, reminder = (browser.decrypt(body) for _headers, body in service.received)
    assert moved["lang"] == "sv" and "/p/" in moved["url"]
    assert reminder["tag"].startswith("rr-turn:")
    from django.utils import translation

    from events.common.localising import event_datetime
    from roundrobin.models import Turn

    deadline = Turn.objects.get(game=game, number=1).deadline  # the time, not "in h hours"
    with translation.override("sv"):
        due = event_datetime(deadline, competition.event, "SHORT_DATETIME_FORMAT", name_zone=False)
    assert f"ska göras senast {due}" in reminder["body"], reminder["body"]
    NotificationPreference.objects.update(email=False, push=False)
    move(black, game, 1, "e5", START + 20 * H)
    move(white, game, 2, "d4", START + 21 * H)
    assert services.reminders_send(now=START + 40 * H) == 0


def test_a_reminder_held_by_quiet_hours_ends_with_its_turn(duel):
    import datetime as _dt

    import time_machine

    competition, game, white, black = duel
    Player.objects.filter(pk=black.player_id).update(email="b@example.org")
    black.player.refresh_from_db()
    notify.preference_set(
        player=black.player,
        event=competition.event,
        email=True,
        push=False,
        quiet_from=_dt.time(0),
        quiet_to=_dt.time(23, 59),
        now=START,
    )
    move(white, game, 1, "e4", START + H)
    assert services.reminders_send(now=START + 19 * H) == 1
    held = OutboxMessage.objects.get(key__startswith="rr-reminder")
    assert held.available_at > START + 19 * H
    with time_machine.travel(START + 25 * H, tick=False):
        services.deadlines_process()
    held.refresh_from_db()
    assert held.status == OutboxStatus.CANCELLED


def listening(entry, competition, language):
    Player.objects.filter(pk=entry.player_id).update(
        email=f"{entry.player_id}@example.org", language=language
    )
    entry.player.refresh_from_db()
    notify.preference_set(
        player=entry.player, event=competition.event, email=True, push=False, now=START
    )


def test_a_result_to_confirm_goes_to_the_opponent_and_ends_with_the_game(duel):
    competition, game, white, black = duel
    listening(black, competition, "nl")
    listening(white, competition, "sv")
    assert not services.result_claim(entry=white, game_id=game.pk, outcome="won", now=START + H)
    (asked,) = OutboxMessage.objects.filter(subject_key=rr_mail.result_subject(game.pk))
    assert asked.player_id == black.player_id and asked.language == "nl"
    assert white.player.public_name in asked.body and "verloren" in asked.body, asked.body
    assert "/p/" in asked.url
    # Claimed again the same: nothing new. Changed to a draw: the old one ends, a new one.
    services.result_claim(entry=white, game_id=game.pk, outcome="won", now=START + H)
    services.result_claim(entry=white, game_id=game.pk, outcome="draw", now=START + 2 * H)
    first, second = OutboxMessage.objects.filter(
        subject_key=rr_mail.result_subject(game.pk)
    ).order_by("pk")
    assert (first.status, second.status) == (OutboxStatus.CANCELLED, OutboxStatus.PENDING)
    # Black confirms the draw: the game is over, nothing is left to confirm.
    assert services.result_claim(entry=black, game_id=game.pk, outcome="draw", now=START + 3 * H)
    second.refresh_from_db()
    assert second.status == OutboxStatus.CANCELLED
    assert not OutboxMessage.objects.filter(player=white.player, key__startswith="rr-result")


def test_a_game_lost_on_time_tells_both_players_once(duel):
    import time_machine

    competition, game, white, black = duel
    listening(white, competition, "sv")
    listening(black, competition, "nl")
    move(white, game, 1, "e4", START + H)
    with time_machine.travel(START + 500 * H, tick=False):
        assert services.deadlines_process().finished == 1  # black never moved: lost on time
        services.deadlines_process()
    messages = {m.player_id: m for m in OutboxMessage.objects.filter(key__startswith="rr-time")}
    assert set(messages) == {white.player_id, black.player_id}
    assert "vann" in messages[white.player_id].body, messages[white.player_id].body
    assert "verloren" in messages[black.player_id].body, messages[black.player_id].body
    assert white.player.public_name in messages[black.player_id].body


@override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)
def test_a_player_without_an_address_who_chose_push_is_reminded_by_push(duel):
    competition, game, white, black = duel
    Player.objects.filter(pk__in=[white.player_id, black.player_id]).update(email="")
    black.player.refresh_from_db()
    browser = Browser()
    with PushService() as service:
        notify.push_subscribe(
            player=black.player,
            endpoint=service.url(),
            p256dh=browser.p256dh,
            auth=b64(browser.auth),
        )
        notify.channels_set(player=black.player, event=competition.event, email=True, push=True)
        move(white, game, 1, "e4", START + H)
        OutboxMessage.objects.all().delete()  # "has moved", by push
        assert services.reminders_send(now=START + 19 * H) == 1
        (message,) = OutboxMessage.objects.all()
        assert message.channel == outbox.PUSH and message.key.startswith("rr-reminder:")
        assert outbox.drain(now=START + 19 * H).sent == 1
        (reminder,) = (browser.decrypt(body) for _headers, body in service.received)
    assert reminder["body"].startswith("Your move against") and " is due by " in reminder["body"]
    # White (no address, no push) was marked and is not looked at again.
    assert services.reminders_send(now=START + 20 * H) == 0


def test_a_leave_that_moves_the_deadline_ends_the_old_reminder_and_a_new_one_follows(
    event,
):
    from roundrobin.models import Turn
    from roundrobin.services.leave import leave_take

    competition, game, white, black = started_duel(event, leave_days=10)
    Player.objects.filter(pk__in=[white.player_id, black.player_id]).update(email="p@example.org")
    move(white, game, 1, "e4", START + H)
    assert services.reminders_send(now=START + 19 * H) == 1
    leave_take(entry=black, start=START + 20 * H, days=1, now=START + 19 * H + H / 2)
    assert OutboxMessage.objects.get().status == OutboxStatus.CANCELLED  # the old deadline's
    turn = Turn.objects.get(game=game, closed_at__isnull=True)
    assert turn.deadline > START + 24 * H
    assert services.reminders_send(now=turn.deadline - 5 * H) == 1
    fresh = OutboxMessage.objects.get(status=OutboxStatus.PENDING)
    assert fresh.key.startswith("rr-reminder:") and fresh.key.endswith(
        str(int(turn.deadline.timestamp()))
    )


def test_players_with_an_address_get_their_link_by_mail(event, django_capture_on_commit_callbacks):
    competition = make_competition(event, slug="mail")
    a, b, c = enter_players(competition, 3)
    Player.objects.filter(pk=a.player_id).update(email="a@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        services.competition_start(competition=competition, now=START)
    assert [m.to for m in mail.outbox] == [["a@example.org"]]
    assert PlayerToken.objects.get(entry=a).token in mail.outbox[0].body


def test_one_reminder_per_turn_to_a_player_who_has_not_moved(duel):
    competition, game, white, black = duel
    Player.objects.filter(pk__in=[white.player_id, black.player_id]).update(email="p@example.org")
    move(white, game, 1, "e4", START + H)
    assert services.reminders_send(now=START + 10 * H) == 0  # 14 h left: too early
    assert services.reminders_send(now=START + 19 * H) == 1
    assert services.reminders_send(now=START + 20 * H) == 0
    assert mail.outbox == []  # queued with the mark; sent by the outbox's drain
    assert outbox.drain(now=START + 20 * H).sent == 1
    assert len(mail.outbox) == 1 and "turn 1" in mail.outbox[0].body
    assert Turn.objects.get(game=game, number=1).second_reminded_at == START + 19 * H


def test_a_reminder_is_not_lost_when_the_mail_server_is_down(duel):
    """The mark says "sent" only once the server took the message, not before."""
    from tests.support.outbox import server_down

    competition, game, white, black = duel
    Player.objects.filter(pk=black.player_id).update(email="b@example.org")
    move(white, game, 1, "e4", START + H)
    assert services.reminders_send(now=START + 19 * H) == 1
    with server_down():
        assert outbox.drain(now=START + 19 * H).retried == 1
    assert mail.outbox == []
    assert services.reminders_send(now=START + 20 * H) == 0  # queued once, not again
    assert outbox.drain(now=START + 20 * H).sent == 1  # the server is back
    (message,) = mail.outbox
    assert message.to == ["b@example.org"] and "turn 1" in message.body


def test_reminders_follow_the_setting(duel):
    competition, game, white, black = duel
    Player.objects.filter(pk=white.player_id).update(email="w@example.org")
    competition.settings["reminder_hours"] = 0
    competition.save()
    assert services.reminders_send(now=START + 23 * H) == 0


VENUE = "http://192.168.1.20:8000"


@override_settings(SITE_URL=VENUE)
def test_the_private_link_mail_names_every_game_and_links_to_site_url(
    event, django_capture_on_commit_callbacks
):
    competition = make_competition(event, slug="mail")
    entries = enter_players(competition, 3)
    for entry in entries:
        entry.player.email = f"p{entry.pk}@example.org"
        entry.player.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.competition_start(competition=competition, seed=5, now=START)
    sent = {message.to[0]: message for message in mail.outbox}
    body = sent[entries[0].player.email].body
    assert f"{VENUE}/p/" in body and "localhost" not in body
    for other in entries[1:]:
        assert other.player.name in body
    assert "Table 1, game" in body and ("White against" in body and "Black against" in body)


@override_settings(SITE_URL=VENUE)
def test_a_reminder_names_the_game_the_colour_and_the_opponent(duel):
    competition, game, white, black = duel
    for entry in (white, black):
        entry.player.email = f"p{entry.pk}@example.org"
        entry.player.save()
    services.move_submit(entry=white, game_id=game.pk, turn=1, text="e4", now=START + H)
    mail.outbox.clear()
    assert services.reminders_send(now=START + 19 * H) == 1
    outbox.drain(now=START + 19 * H)
    (message,) = mail.outbox
    assert message.to == [black.player.email]
    assert white.player.name in message.subject
    assert f"Table 1, game {game.number}: Black against {white.player.name}" in message.body
    assert f"{VENUE}/p/" in message.body and "(Europe/" in message.body


def test_a_private_link_mail_waits_on_the_outbox_while_the_mail_server_is_down(
    event, django_capture_on_commit_callbacks
):
    """The link is queued, not sent once on commit: that way it was lost for good when the
    sending failed."""
    from events.outbox.models import OutboxMessage, OutboxStatus
    from tests.support.outbox import server_down

    competition = make_competition(event, slug="down")
    entries = enter_players(competition, 3)
    for entry in entries:
        entry.player.email = f"p{entry.pk}@example.org"
        entry.player.save()
    mail.outbox.clear()
    with server_down(), django_capture_on_commit_callbacks(execute=True):
        services.competition_start(competition=competition, seed=5, now=START)
    links = OutboxMessage.objects.filter(key__startswith="rr-link:")
    assert links.count() == 3 and mail.outbox == []
    assert set(links.values_list("status", flat=True)) == {OutboxStatus.PENDING}
    assert all(m.attempts == 1 and m.last_error for m in links)
    # The server is back: the loop's drain (after the backoff) delivers every link, once.
    report = outbox.drain(now=timezone.now() + dt.timedelta(minutes=5))
    assert report.sent == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(e.player.email for e in entries)
    assert all("/p/" in m.body for m in mail.outbox)


def test_e_mails_name_the_opponent_by_public_name_and_the_player_by_their_own(named):
    competition, (a, b, c) = named
    assert services.reminders_send(now=START + 19 * H) > 0
    (link,) = OutboxMessage.objects.filter(to=c.player.email, key__startswith="rr-link")
    assert f"against {SHORT}" in link.body and SURNAME not in link.subject + link.body
    reminders = OutboxMessage.objects.filter(to=c.player.email, key__startswith="rr-reminder")
    assert reminders  # c's games: against Åsa and against b
    texts = [m.subject + "\n" + m.body for m in reminders]
    assert any(f"against {SHORT}" in text for text in texts)
    assert all(SURNAME not in text for text in texts)
    to_asa = OutboxMessage.objects.filter(to=a.player.email)
    assert to_asa and all(f"Hello {FULL}," in m.body for m in to_asa)  # her own name, whole
