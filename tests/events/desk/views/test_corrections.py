"""Undoing a correction from the desk (events/desk/views/corrections.py): the result put back
and the undo recorded, a second undo refused with a message, back to a desk page asked for or
else the competition's desk, for the event's people only."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from events.models import Correction
from shuffleboard import services as sjoelen
from shuffleboard.models import Turn
from tests.support.shuffleboard import four_playing, sjoelen_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def corrected(event):
    """Game 1 of the first player, 116 corrected to 117."""
    competition = sjoelen_in(event)
    entry = four_playing(competition)[0]
    turn = sjoelen.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), board=1)
    sjoelen.turn_correct(turn=turn, revision=turn.revision, counts=(6, 9, 5, 7))
    return competition, entry, entry.corrections.get()


def _undo(client, correction, **data):
    return client.post(reverse("events:correction_undo", args=[correction.pk]), data)


def _said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_an_undo_puts_the_result_back_and_returns_to_the_desk(desk_client, corrected):
    competition, entry, correction = corrected
    answer = _undo(desk_client, correction)
    assert answer.status_code == 302 and answer["Location"] == competition.get_desk_url()
    assert "The correction was undone." in _said(answer)
    assert Turn.objects.get(entry=entry, number=1).score == 116
    assert Correction.objects.filter(reverts=correction).exists()


def test_a_second_undo_is_refused_with_a_message(desk_client, corrected):
    _competition, entry, correction = corrected
    _undo(desk_client, correction)
    again = _undo(desk_client, correction)
    assert again.status_code == 302
    assert _said(again)[-1] == "This correction has already been undone."
    assert Correction.objects.filter(reverts=correction).count() == 1
    assert Turn.objects.get(entry=entry, number=1).score == 116


@pytest.mark.parametrize(
    ("asked", "goes_there"),
    [
        ("/desk/somewhere/", True),
        ("https://evil.example/desk/", False),
        ("//evil.example/desk/", False),
        ("/e/public-page/", False),
    ],
)
def test_it_goes_back_only_to_a_desk_page_of_this_site(desk_client, corrected, asked, goes_there):
    competition, _entry, correction = corrected
    answer = _undo(desk_client, correction, next=asked)
    assert answer["Location"] == (asked if goes_there else competition.get_desk_url())


def test_only_the_events_people_undo_and_only_by_post(client, desk_client, corrected, outsider):
    _competition, entry, correction = corrected
    assert (
        desk_client.get(reverse("events:correction_undo", args=[correction.pk])).status_code == 405
    )
    client.force_login(outsider)
    assert _undo(client, correction).status_code == 403
    assert Turn.objects.get(entry=entry, number=1).score == 117
