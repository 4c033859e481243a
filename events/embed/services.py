"""The writes of the widget's sites: an event's list and a club's default, each in a
transaction that bumps the versions of every competition whose widget it frames, so that the
header (``events.embed.framing``, keyed by the version) follows at the next request."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.embed.models import ClubEmbed, EventEmbed
from events.embed.origins import parse_sites
from events.errors import Invalid
from events.models import Event, HostClub
from events.versions import versions_bump

SITES_REFUSED = _("Some sites could not be listed; nothing was saved.")


def _checked(sites: str) -> str:
    """The sites as stored (one origin a line); a list with any error is refused whole."""
    parsed, errors = parse_sites(sites)
    if errors:
        raise Invalid(SITES_REFUSED, code="sites")
    return "\n".join(parsed)


@transaction.atomic
def event_sites_save(event: Event, *, sites: str, with_club_sites: bool, by: Any) -> EventEmbed:
    stored = _checked(sites)
    embed, _created = EventEmbed.objects.select_for_update().get_or_create(event=event)
    embed.sites = stored
    embed.with_club_sites = with_club_sites
    embed.changed_by = by
    embed.save()
    versions_bump(competitions=Q(event=event), events=Q(pk=event.pk))
    return embed


@transaction.atomic
def club_sites_save(club: HostClub, *, sites: str, by: Any) -> ClubEmbed:
    stored = _checked(sites)
    embed, _created = ClubEmbed.objects.select_for_update().get_or_create(club=club)
    embed.sites = stored
    embed.changed_by = by
    embed.save()
    # Every event of the club that takes the club's sites: its widgets' headers change.
    versions_bump(competitions=Q(event__host=club), events=Q(host=club))
    return embed
