"""The sjoelen summary on the shared public pages: the top three and the highest game."""

from __future__ import annotations

from django import template

from events.models import Competition
from shuffleboard.selectors import attention_games, standings_for_competition

register = template.Library()


@register.inclusion_tag("shuffleboard/_summary.html", takes_context=True)
def sjoelen_summary(context, competition: Competition) -> dict:
    """Two queries (the shared pages cache their rendered fragment per version)."""
    standings = standings_for_competition(competition)
    return {
        "event": context.get("event"),
        "competition": competition,
        "top": [row for row in standings.rows if row.games_played][:3],
        "standings": standings,
    }


@register.inclusion_tag("shuffleboard/_attention.html", takes_context=True)
def sjoelen_attention(context, competition: Competition) -> dict:
    """The organiser's note on stored games that break the rules (one query)."""
    return {
        "event": context.get("event") or competition.event,
        "competition": competition,
        "attention": attention_games(competition),
    }
