"""The round robin's projector screen: one crosstable per page, with its tiebreak games."""

from __future__ import annotations

from django.utils.translation import gettext as _

from events.common.http import HtmxHttpRequest
from events.live.pages import Context, competition_page
from events.live.screen import Page, screen_context
from events.models import Competition
from roundrobin import selectors
from roundrobin.format import ROUNDROBIN


@competition_page("roundrobin/screen.html", game_format=ROUNDROBIN)
def screen(request: HtmxHttpRequest, competition: Competition) -> Context:
    tables = selectors.tables_for_competition(competition)
    pages = [
        Page(
            number=index,
            columns=[[table]],
            title=_("Table %(number)s") % {"number": table.number},
            kind="table",
        )
        for index, table in enumerate(tables, start=1)
    ] or [Page(number=1, columns=[[]], kind="empty")]
    return screen_context(request, competition, pages)
