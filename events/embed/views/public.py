"""The public pages of the room: the standings widget other sites may frame, and the three
overlays for OBS (a browser source of 1920 × 1080 with a transparent background). All are live
pages of a competition (``competition_page``): one body per version for every visitor, 304 while
it is current, polling until the competition is finished."""

from __future__ import annotations

import re

from django.http import HttpRequest

from events.embed import selectors
from events.embed.framing import frameable
from events.live.pages import Context, competition_page
from events.models import Competition

TABLE_KEY = re.compile(r"^[\w-]{1,40}$", flags=re.ASCII)


@frameable
@competition_page("events/embed/widget.html")
def widget(request: HttpRequest, competition: Competition) -> Context:
    found = selectors.standings(competition)
    # One table per group: a round robin ranks each of its tables on its own.
    groups: list[tuple[str, list[selectors.StandingLine]]] = []
    for line in found.lines:
        if not groups or groups[-1][0] != line.group:
            groups.append((line.group, []))
        groups[-1][1].append(line)
    return {"groups": groups, "value_label": found.value_label}


@competition_page("events/embed/lower_third.html")
def lower_third(request: HttpRequest, competition: Competition) -> Context:
    key = request.GET.get("table", "")
    tables = selectors.stream_tables(competition)
    return {"table": selectors.chosen_table(tables, key if TABLE_KEY.match(key) else "")}


@competition_page("events/embed/clock.html")
def clock(request: HttpRequest, competition: Competition) -> Context:
    return {
        "clock_template": selectors.clock_template(competition),
        "format_head": competition.game_format.head,
    }


@competition_page("events/embed/ticker.html")
def ticker(request: HttpRequest, competition: Competition) -> Context:
    return {"lines": selectors.ticker_lines(competition)}
