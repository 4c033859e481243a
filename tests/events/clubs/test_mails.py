"""The club's mails to its owners (events/clubs/mails.py): the approval, in the club's language,
once to each owner with an address."""

from __future__ import annotations

import pytest

from events.clubs.mails import club_approved_mail
from events.models import ClubRole, HostClub
from events.outbox.models import OutboxMessage
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_each_owner_with_an_address_is_told_once_in_the_clubs_language(settings):
    settings.SITE_NAME = "Turneringar"
    settings.SITE_URL = "https://events.example.org"
    club = HostClub.objects.create(name="Lunds Spelklubb", slug="lund", language="sv")
    for username, email, role in (
        ("owner1", "o1@example.org", "owner"),
        ("owner2", "", "owner"),  # made by an admin without an address
        ("org", "org@example.org", "organiser"),
    ):
        ClubRole.objects.create(
            club=club, user=UserFactory(username=username, email=email), role=role
        )
    club_approved_mail(club)
    club_approved_mail(club)  # again: the outbox's key keeps it to one
    [message] = OutboxMessage.objects.all()
    assert message.to == "o1@example.org" and message.language == "sv"
    assert message.subject.startswith("[Turneringar] ") and "Lunds Spelklubb" in message.subject
    assert "https://events.example.org/desk/clubs/lund/" in message.body
    assert "approved" not in message.subject  # written in Swedish
