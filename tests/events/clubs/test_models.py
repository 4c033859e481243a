"""Clubs' models (events/clubs/models.py): an invitation's address masked for the people page."""

from __future__ import annotations

from events.clubs.models import ClubInvitation


def test_an_invitations_address_shows_its_first_letter_and_its_domain():
    assert ClubInvitation(email="anna.berg@example.org").masked_email == "a…@example.org"
    assert ClubInvitation(email="x@tartu.ee").masked_email == "x…@tartu.ee"
