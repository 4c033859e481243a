"""A drawn round tells each listening player their table and colour (issue 31), in their
language; a round drawn again tells only those whose seat changed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from blokus import services
from blokus.services import notices
from events.models import OutboxMessage, OutboxStatus, Seat
from events.services import notify
from tests.blokus.conftest import seated


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
