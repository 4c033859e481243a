"""Corrections (``events.services.corrections``): shown on the public page without who made them,
undone only by organisers; and any format's correction that changed a player's result tells them,
once per correction, in their language, while an undo cancels what was not yet sent."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from events import selectors, services
from events.errors import Refused
from events.models import Correction, Entry, Game
from events.outbox import notify
from events.outbox.models import OutboxMessage, OutboxStatus
from events.services import correction_undo
from shuffleboard import services as sj_services
from tests.support.blokus import eight_played, record
from tests.support.factories import CompetitionFactory, EntryFactory
from tests.support.shuffleboard import four_playing, sjoelen_in

pytestmark = pytest.mark.django_db


def test_a_correction_shows_on_the_public_page_without_who_made_it(client):
    competition = CompetitionFactory()
    entry = EntryFactory(competition=competition)
    staff = get_user_model().objects.create_user("fixer-of-scores", password="x")
    services.correction_record(
        competition=competition,
        entry=entry,
        item="Game 3",
        before="112",
        after="121",
        source=Correction.Source.ADMIN,
        by=staff,
    )
    html = client.get(competition.get_absolute_url()).content.decode()
    assert "112 → 121" in html
    assert entry.player.name in html
    assert "fixer-of-scores" not in html


def test_nothing_is_recorded_when_nothing_changed():
    competition = CompetitionFactory()
    recorded = services.correction_record(
        competition=competition, item="Game 1", before="5", after="5", source="desk"
    )
    assert recorded is None
    assert selectors.corrections_of_competition(competition) == []


def test_a_correction_without_undo_data_cannot_be_undone(client):
    competition = CompetitionFactory()
    organiser = get_user_model().objects.create_user("desk", password="x")
    competition.event.organisers.add(organiser)
    correction = services.correction_record(
        competition=competition, item="Game 1", before="5", after="6", source="admin"
    )
    assert correction is not None
    with pytest.raises(Refused) as refused:
        services.correction_undo(correction=correction, by=organiser)
    assert refused.value.code == "correction_no_undo"
    client.force_login(organiser)
    response = client.post(reverse("events:correction_undo", args=[correction.pk]))
    assert response.status_code == 302


def test_only_the_competitions_organisers_may_undo(client):
    competition = CompetitionFactory()
    correction = services.correction_record(
        competition=competition, item="Game 1", before="5", after="6", source="admin"
    )
    assert correction is not None
    stranger = get_user_model().objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.post(reverse("events:correction_undo", args=[correction.pk])).status_code == 403
    assert client.post(reverse("events:correction_undo", args=[99999])).status_code == 404


def listen(player, language):
    player.language, player.email = language, f"{player.pk}@example.org"
    player.save()
    notify.preference_set(
        player=player, event=player.entries.first().competition.event, email=True, push=False
    )


def told():
    return OutboxMessage.objects.filter(key__startswith="correction:").order_by("pk")


def test_a_corrected_sjoelen_game_tells_its_player_and_the_undo_cancels_it(event):
    entry = four_playing(sjoelen_in(event))[0]
    listen(entry.player, "et")
    turn = sj_services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), board=1)
    assert not told().exists()  # a first result is no correction
    turn = sj_services.turn_correct(turn=turn, revision=turn.revision, counts=(6, 9, 5, 7))
    (message,) = told()
    assert message.player_id == entry.player_id and message.language == "et"
    assert "116" in message.subject + message.body and "117" in message.body, message.body
    assert "parandus" in message.subject.lower(), message.subject
    # Undone before it went out: cancelled; the undo is a correction of its own, told once.
    user = get_user_model().objects.create_user("desk", password="pw-for-tests-only")
    correction = entry.corrections.get()
    correction_undo(correction=correction, by=user)
    first, undo = told()
    assert first.status == OutboxStatus.CANCELLED and undo.status == OutboxStatus.PENDING
    assert "117" in undo.body


def test_a_corrected_blokus_table_tells_each_player_whose_result_moved(event):
    competition, _session, a, _b = eight_played(event)
    players = [e.player for e in Entry.objects.filter(pk__in=a).select_related("player")]
    for player in players:
        listen(player, "nl")
    game = Game.objects.get(seats__entry_id=a[0], round__session__competition=competition)
    record(game, [3, 2, 1, 0])  # every place moves
    messages = list(told())
    assert {m.player_id for m in messages} == {p.pk for p in players}
    assert len(messages) == 4 and all(m.language == "nl" for m in messages)
    assert len({m.key for m in messages}) == 4
    # Recorded again as it is: no correction, nothing new.
    record(game, [3, 2, 1, 0])
    assert told().count() == 4
