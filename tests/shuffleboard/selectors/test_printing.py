"""The sjoelen print reads beside the rota: whether anyone plays, and the hosting club's logo;
real database."""

from __future__ import annotations

import pytest
from django.utils import timezone

from events.models import HostClub
from shuffleboard.selectors.printing import club_logo, playing
from tests.support.clubs import encoded, halves
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory

pytestmark = pytest.mark.django_db


def test_someone_plays_once_checked_in_and_not_withdrawn(event, django_assert_num_queries):
    competition = SjoelenFactory(event=event)
    with django_assert_num_queries(1):
        assert not playing(competition)
    entry = PlayingEntryFactory(competition=competition)
    assert playing(competition)
    entry.withdrawn_at = timezone.now()
    entry.save()
    assert not playing(competition)


def test_the_club_logo_is_the_hosting_clubs(event):
    competition = SjoelenFactory(event=event)
    assert club_logo(competition) == b""
    png = encoded(halves(), "PNG")
    HostClub.objects.filter(pk=event.host_id).update(logo=png)
    assert club_logo(competition) == png
