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
        "top": podium_rows(standings.rows),
        "standings": standings,
        "finished": competition.is_finished,
    }


def podium_rows(rows: list) -> list:
    """The players on places 1-3 by the standings' shared places: a tie for 3rd shows them all."""
    played = [row for row in rows if row.games_played]
    return [row for row in played if row.place <= 3]


@register.inclusion_tag("shuffleboard/_attention.html", takes_context=True)
def sjoelen_attention(context, competition: Competition) -> dict:
    """The organiser's note on stored games that break the rules (one query)."""
    return {
        "event": context.get("event") or competition.event,
        "competition": competition,
        "attention": attention_games(competition),
    }
