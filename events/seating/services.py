"""The one write of seating apart: the desk marks entries' groups (families)."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from events.models import Competition, Entry
from events.services.events import competition_touch

GROUP_LENGTH = 40  # Entry.group's max_length


@transaction.atomic
def entry_groups_set(*, competition: Competition, groups: Mapping[int, str]) -> int:
    """Set the group of each entry id in ``groups`` (of ``competition``; others are ignored),
    trimmed and with spaces run together. Returns how many changed. Each change is saved on its
    own so that the entry's history records it. Public pages show no group, but a format may
    place players by them as they read (sjoelen boards kept apart), so a change moves the
    competition's version and its public pages follow."""
    changed = 0
    for entry in Entry.objects.select_for_update().filter(
        competition=competition, pk__in=list(groups)
    ):
        group = " ".join(groups[entry.pk].split())[:GROUP_LENGTH]
        if group != entry.group:
            entry.group = group
            entry.save(update_fields=["group"])
            changed += 1
    if changed:
        competition_touch(competition)
    return changed
