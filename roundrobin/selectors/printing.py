"""What the round robin's print items read beside the tables (``selectors.tables``) and the
links (``selectors.players``): how many tables there are, and each player's rating change over
the competition. One query each."""

from __future__ import annotations

from events.models import Competition, Session
from roundrobin.models import RatingChange


def table_count(competition: Competition) -> int:
    """The tables drawn at the start (none before)."""
    return Session.objects.filter(competition=competition, kind=Session.Kind.TABLE).count()


def rating_changes(competition: Competition) -> dict[int, tuple[int, int]]:
    """Entry id -> (rating before its first rated game here, after its last), in the order the
    games finished."""
    changes = (
        RatingChange.objects.filter(competition=competition)
        .order_by("at", "game", "pk")
        .values_list("entry_id", "before", "after")
    )
    spans: dict[int, tuple[int, int]] = {}
    for entry_id, before, after in changes:
        first = spans.get(entry_id, (before, after))[0]
        spans[entry_id] = (first, after)
    return spans
