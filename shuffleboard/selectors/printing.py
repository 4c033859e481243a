"""What the sjoelen print items read beside the rota (``selectors.rota``): whether anyone
plays yet, and the hosting club's logo for the board tents. One query each."""

from __future__ import annotations

from events.models import Competition, Entry, HostClub


def playing(competition: Competition) -> bool:
    """Someone has checked in (and not withdrawn): the rota has players."""
    return Entry.objects.filter(
        competition=competition, checked_in_at__isnull=False, withdrawn_at__isnull=True
    ).exists()


def club_logo(competition: Competition) -> bytes:
    """The hosting club's logo (a checked PNG), or b"" when it has none."""
    logo = (
        HostClub.objects.filter(pk=competition.event.host_id).values_list("logo", flat=True).first()
    )
    return bytes(logo or b"")
