"""The sjoelen summary on the shared public pages: the top three and the highest game."""

from __future__ import annotations

from typing import Any

from django import template

from events.common.rendering import shown
from events.models import Competition
from shuffleboard.selectors import attention_games, standings_with_options
from shuffleboard.selectors.seating import boards_report

register = template.Library()


@register.inclusion_tag("shuffleboard/_summary.html", takes_context=True)
def sjoelen_summary(context, competition: Competition) -> dict:
    """Two queries, three with the title play-off on (the shared pages cache their rendered
    fragment per version). A play-off's champion is 1st alone (A-SJ-16)."""
    standings = standings_with_options(competition, classes=False).standings
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


@register.simple_tag(takes_context=True)
def standings_rows(
    context: template.Context, rows: list, players_url: str, public: bool = False
) -> str:
    """The standings table's rows, exactly as the template loop they replaced wrote them (the
    loop is kept in tests/test_render_speedups.py, which checks it): one call instead of some
    twelve template nodes per player (so that the first render of 200-player standings after a
    write stays under 25 ms). ``public`` (the public standings page) names each player by
    ``row.public_name``, else ``row.name``."""

    from django.utils.safestring import mark_safe

    withdrawn = ' class="withdrawn"'
    parts = []
    for row in rows:
        pk = shown(row.entry_id, context)
        name = row.public_name if public else row.name
        best = "–" if row.best is None else shown(row.best, context)
        parts.append(
            f'\n      <tr{withdrawn if row.withdrawn else ""} data-player="{pk}">\n'
            f'        <td class="place">{shown(row.place, context)}'
            f"{'=' if row.shared else ''}</td>\n"
            f'        <td><a href="{shown(players_url, context)}{pk}/">'
            f"{shown(name, context)}</a></td>\n"
            f'        <td class="num">{shown(row.games_played, context)}</td>\n'
            f'        <td class="num"><strong>{shown(row.total, context)}</strong></td>\n'
            f'        <td class="num">{shown(row.average_text, context)}</td>\n'
            f'        <td class="num">{best}</td>\n'
            "      </tr>\n    "
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does


@register.inclusion_tag("shuffleboard/_boards_report.html")
def sjoelen_boards_report(competition: Competition) -> dict[str, Any]:
    """The desk's note on boards kept apart: what the plan could not meet (one query)."""
    return {
        "event": competition.event,
        "competition": competition,
        "report": boards_report(competition),
    }
