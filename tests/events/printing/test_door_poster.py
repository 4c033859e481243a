"""The door poster: how to check in and a QR code to the page; never the door code."""

from __future__ import annotations

import pytest
from django.utils import timezone

from events.printing.documents import print_document
from events.signups.models import SignUpWindow
from events.signups.services import door
from tests.support.printing import opened, page_sizes_mm, text_of

pytestmark = pytest.mark.django_db


def test_without_self_check_in_the_poster_sends_players_to_the_desk(competition, settings):
    settings.SITE_URL = "https://events.example.org"
    reader = opened(print_document(competition, "door-poster", "", "en").content)
    assert page_sizes_mm(reader) == [(210, 297)]
    text = text_of(reader)
    assert "Check in at the desk" in text
    assert "https://events.example.org" + competition.get_absolute_url() in text


def test_with_self_check_in_it_links_the_sign_up_page_but_never_prints_the_code(competition):
    now = timezone.now()
    SignUpWindow.objects.create(
        competition=competition,
        opens_at=now - timezone.timedelta(days=3),
        closes_at=now - timezone.timedelta(days=1),
        cap=10,
        self_check_in_from=now - timezone.timedelta(hours=1),
        self_check_in_until=now + timezone.timedelta(hours=1),
    )
    text = text_of(opened(print_document(competition, "door-poster", "", "en").content))
    assert "/sign-up/" in text
    assert "door screen" in text
    assert door.door_code(competition, now) not in text
