"""A drawn round tells each listening player their table and colour, in their
language; a round drawn again tells only those whose seat changed."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.utils import timezone, translation

from blokus import services
from blokus.models import SessionPlayer
from blokus.services import notices
from events.models import Entry, Seat
from events.outbox import notify, webhooks
from events.outbox.models import OutboxMessage, OutboxStatus
from tests.support.blokus import hands_for, record, seated


@pytest.mark.django_db
def test_a_drawn_round_tells_only_the_players_who_chose_it_in_their_language(
    competition, seated_session, django_assert_max_num_queries
):
    people = [sp.entry.player for sp in seated(seated_session)]
    anna, bert = people[0], people[1]
    anna.language, anna.email = "sv", "anna@example.org"
    anna.save()
    bert.language, bert.email = "nl", "bert@example.org"
    bert.save()
    event = competition.event
    for player in (anna, bert):
        notify.preference_set(player=player, event=event, email=True, push=False)
    seated_session.starts_at = timezone.now() + dt.timedelta(hours=2)
    seated_session.save()
    round_ = services.round_draw(session=seated_session, seed=7)
    messages = {m.to: m for m in OutboxMessage.objects.all()}
    assert set(messages) == {"anna@example.org", "bert@example.org"}
    seat = Seat.objects.select_related("game").get(game__round=round_, entry__player=anna)
    text = messages["anna@example.org"].subject
    assert f"{seat.game.number}" in text and "Omgång 1" in text, text
    assert messages["bert@example.org"].language == "nl"
    assert "Ronde 1" in messages["bert@example.org"].subject
    assert "/notifications/stop/" in messages["anna@example.org"].body
    # Drawn again with the same seats: nothing new. With Anna's seat changed: only hers.
    notices.round_drawn(round_)
    assert OutboxMessage.objects.count() == 2
    Seat.objects.filter(pk=seat.pk).update(colour="green" if seat.colour != "green" else "red")
    with django_assert_max_num_queries(12):
        assert notices.round_drawn(round_) == 1
    assert OutboxMessage.objects.count() == 3
    old = OutboxMessage.objects.filter(to="anna@example.org").order_by("pk").first()
    assert old.status in (OutboxStatus.CANCELLED, OutboxStatus.SENT)


def listen(players, language):
    for player in players:
        player.language, player.email = language, f"{player.pk}@example.org"
        player.save()
        notify.preference_set(
            player=player, event=player.entries.first().competition.event, email=True, push=False
        )


@pytest.mark.django_db
def test_a_reserve_called_in_hears_it_and_their_seat_and_the_player_out_hears_nothing_more(
    competition, seated_session
):
    out = seated(seated_session)[0]
    reserve = SessionPlayer.objects.select_related("entry__player").get(
        session=seated_session, role="reserve"
    )
    listen([out.entry.player, reserve.entry.player], "nl")
    round_ = services.round_draw(session=seated_session, seed=3)
    told = OutboxMessage.objects.get(player=out.entry.player)
    outbox_before = OutboxMessage.objects.count()
    services.session_replace(seated=out, reserve=reserve)
    told.refresh_from_db()
    assert told.status == OutboxStatus.CANCELLED  # the seat is no longer theirs
    called, seat = OutboxMessage.objects.filter(player=reserve.entry.player).order_by("pk")
    assert OutboxMessage.objects.count() == outbox_before + 2
    assert "reservespeler" in called.subject and out.entry.player.public_name in called.subject
    assert called.subject_key == notices.reserve_subject(seated_session.pk, reserve.entry.player_id)
    game = Seat.objects.select_related("game").get(game__round=round_, entry=reserve.entry).game
    assert f"tafel {game.number}" in seat.subject and "Ronde 1" in seat.subject
    # Asked again: nothing new.
    assert notices.round_drawn(round_) == 0


@pytest.mark.django_db
def test_the_final_seating_is_told_as_the_final_in_the_players_language(eight_played):
    competition, _session, a, b = eight_played
    players = [e.player for e in Entry.objects.filter(pk__in=a + b).select_related("player")]
    listen(players, "sv")
    final = services.final_seat(competition=competition, seed=1, lot_seed=2)
    seats = Seat.objects.filter(game__round__session=final).select_related("entry__player")
    messages = OutboxMessage.objects.filter(subject_key__startswith=f"blk-seat:{final.pk}:")
    assert messages.count() == 4 == len(seats)
    assert {m.player_id for m in messages} == {s.entry.player_id for s in seats}
    assert all(m.subject.split(": ", 1)[1].startswith("Final: bord 1, färg") for m in messages), [
        m.subject for m in messages
    ]


@pytest.mark.django_db
def test_a_replay_a_correction_drops_takes_its_seat_messages_along(desk_client, event):
    """Positions 1 and 2 tie in the final: their replay is drawn and each hears their seat.
    The tie was a typing error: the correction drops the unplayed replay, and its seat
    messages still waiting are no longer true."""
    from tests.support.blokus import post_result, qualified

    competition, final = qualified(event, final_replays=1)
    for seat in Seat.objects.filter(game=final).select_related("entry__player"):
        player = seat.entry.player
        player.email = f"p{player.pk}@example.org"
        player.save()
        notify.preference_set(player=player, event=competition.event, email=True, push=False)
    post_result(desk_client, competition, final, [3, 3, 5, 7])
    replay = OutboxMessage.objects.filter(subject_key__regex=r"^blk-seat:\d+:2:")
    assert replay.count() == 2 and {m.status for m in replay} == {OutboxStatus.PENDING}
    post_result(desk_client, competition, final, [3, 4, 5, 7])
    assert {m.status for m in replay.all()} == {OutboxStatus.CANCELLED}


@pytest.mark.django_db
def test_a_tables_result_ends_its_players_seat_messages_still_waiting(competition, seated_session):
    listen([sp.entry.player for sp in seated(seated_session)], "en")
    round_ = services.round_draw(session=seated_session, seed=5)
    game = round_.games.order_by("number").first()
    at_the_table = set(Entry.objects.filter(seats__game=game).values_list("player_id", flat=True))
    assert OutboxMessage.objects.filter(status=OutboxStatus.PENDING).count() > len(at_the_table)
    services.game_result_record(
        game=game, revision=game.revision, hands=hands_for(game, random.Random(1))
    )
    ended = OutboxMessage.objects.filter(status=OutboxStatus.CANCELLED)
    assert set(ended.values_list("player_id", flat=True)) == at_the_table
    assert (
        OutboxMessage.objects.filter(status=OutboxStatus.PENDING)
        .exclude(player_id__in=at_the_table)
        .exists()
    )  # the other tables still hear theirs


@pytest.mark.django_db
def test_a_this_is_me_browser_hears_the_seat_without_any_choice(
    competition, seated_session, settings
):
    from events.outbox import push_public
    from tests.support.notify import PRIVATE, PUBLIC, Browser, b64

    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = PRIVATE, PUBLIC
    someone = seated(seated_session)[0].entry
    browser = Browser()
    push_public.subscribe(
        entry=someone,
        endpoint="http://127.0.0.1:9/push/phone",
        p256dh=browser.p256dh,
        auth=b64(browser.auth),
    )
    services.round_draw(session=seated_session, seed=5)
    (message,) = OutboxMessage.objects.exclude(key__startswith="push-welcome:")
    assert message.channel == "push" and message.player_id == someone.player_id
    assert f"/player/{someone.pk}/" in message.url


@pytest.mark.django_db
def test_a_seat_push_and_e_mail_name_the_colour_in_the_players_language(
    competition, seated_session, settings
):
    from blokus.templatetags.blokus_tags import COLOUR_NAMES
    from tests.support.notify import PRIVATE, PUBLIC, Browser, b64

    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = PRIVATE, PUBLIC
    bert = seated(seated_session)[0].entry.player
    bert.language, bert.email = "nl", "bert@example.org"
    bert.save()
    browser = Browser()
    notify.push_subscribe(
        player=bert,
        endpoint="http://127.0.0.1:9/push/bert",
        p256dh=browser.p256dh,
        auth=b64(browser.auth),
    )
    notify.preference_set(player=bert, event=competition.event, email=True, push=True)
    round_ = services.round_draw(session=seated_session, seed=7)
    colour = Seat.objects.get(game__round=round_, entry__player=bert).colour
    with translation.override("nl"):
        dutch = str(COLOUR_NAMES[colour])
    assert dutch != colour
    seat_messages = OutboxMessage.objects.filter(player=bert, subject_key__startswith="blk-seat:")
    messages = {m.channel: m for m in seat_messages}
    assert set(messages) == {"email", "push"}
    for message in messages.values():
        assert f"kleur {dutch}" in message.subject, message.subject
        assert f"kleur {dutch}" in message.body, message.body
        assert f"kleur {colour}" not in message.body + message.subject


ALL = ["result.confirmed", "round.seated", "standings.changed", "registration.changed"]


def subscribe(event, topics=ALL, url="http://127.0.0.1:9/hook"):
    return webhooks.webhook_create(event=event, url=url, topics=topics)


def sent(topic: str) -> list[dict]:
    return [
        json.loads(m.body)
        for m in OutboxMessage.objects.filter(channel="webhook", subject=topic).order_by("pk")
    ]


@pytest.mark.django_db
def test_a_drawn_round_and_its_results_are_told(
    competition, seated_session, django_capture_on_commit_callbacks
):
    subscribe(competition.event)
    round_ = services.round_draw(session=seated_session, seed=7)
    (seated,) = sent("round.seated")
    assert seated["data"]["round"] == round_.pk and seated["data"]["number"] == 1
    assert seated["data"]["competition"] == competition.slug
    assert seated["data"]["api"]["standings"].endswith(
        f"/api/v1/events/{competition.event.slug}/competitions/{competition.slug}/standings"
    )
    game = round_.games.order_by("number").first()
    services.round_start_clock(round=round_)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_result_record(
            game=game, revision=game.revision, hands=hands_for(game, random.Random(1))
        )
    (result,) = sent("result.confirmed")
    assert result["data"]["game"] == game.pk and result["data"]["correction"] is False
    assert [s["data"]["version"] for s in sent("standings.changed")] == [
        competition.__class__.objects.get(pk=competition.pk).version
    ]
    record(game, [0, 1, 2, 3], confirm_later_round=True)  # a correction
    assert [r["data"]["correction"] for r in sent("result.confirmed")] == [False, True]


@pytest.mark.django_db
def test_topics_filter_what_is_queued(competition, seated_session):
    subscribe(competition.event, topics=["result.confirmed"])
    round_ = services.round_draw(session=seated_session, seed=7)
    assert sent("round.seated") == []
    game = round_.games.order_by("number").first()
    services.round_start_clock(round=round_)
    services.game_result_record(
        game=game, revision=game.revision, hands=hands_for(game, random.Random(1))
    )
    assert len(sent("result.confirmed")) == 1
