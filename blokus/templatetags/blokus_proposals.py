"""``{{ game|table_code }}``: the code players type to send their table's result."""

from __future__ import annotations

from django import template

from events.services.proposals import table_code as code_of

register = template.Library()


@register.filter
def table_code(game) -> str:  # noqa: ANN001 (a Game or its id)
    return code_of(game)


@register.inclusion_tag("blokus/_propose_link.html")
def proposals_link(competition) -> dict:  # noqa: ANN001
    """The desk's link to the players' results, with how many wait (one query; none when the
    setting is off)."""
    from events.models import PROPOSALS_OPEN, ResultProposal

    enabled = bool(getattr(competition.options, "results_from_players", False))
    counts: dict[str, int] = {}
    if enabled:
        for status in ResultProposal.objects.filter(
            competition=competition, status__in=PROPOSALS_OPEN
        ).values_list("status", flat=True):
            counts[status] = counts.get(status, 0) + 1
    return {
        "enabled": enabled,
        "competition": competition,
        "event": competition.event,
        "proposed": counts.get("proposed", 0),
        "conflict": counts.get("conflict", 0),
        "confirmed": counts.get("confirmed", 0),
    }
