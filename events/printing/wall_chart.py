"""The wall chart of the shared standings: the table the results sheet and the downloads give,
A4 or A3 landscape, over as many pages as it needs with its headings on each, names never cut.
(A round robin's cross tables are that format's own item: ``PrintedTables``.)"""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _

from events.live.results_sheet import shown, standings_sheet
from events.models import Competition
from events.printing.pdf import KitPdf

WIDE = {"Player": 4.0, "Club": 3.0}  # relative column widths; every other column 1
RIGHT = ("Place", "Points", "Score", "Total", "Total score", "Qualifying points", "Games",
         "Games played", "Average", "Best game", "Final place", "Table", "Session")  # fmt: skip


def draw_wall_chart(pdf: KitPdf, competition: Competition, scope: str) -> None:
    sheet = standings_sheet(competition)
    wide = {_(heading): width for heading, width in WIDE.items()}
    right = {_(heading) for heading in RIGHT}
    state = _("Final standings") if competition.is_finished else _("Standings so far")
    title = (
        f"{competition.event.name} · {competition.name} · {state} · "
        f"{formats.date_format(competition.event.starts_on, 'DATE_FORMAT')}"
    )
    rows = ([shown(value) for value in row] for row in sheet.rows)
    pdf.grid_table(
        sheet.header,
        rows,
        widths=[wide.get(heading, 1.0) for heading in sheet.header],
        title=title,
        align=["R" if heading in right else "L" for heading in sheet.header],
    )
    if not sheet.rows:
        pdf.fit_text(
            _("Nobody has played yet."), pdf.l_margin, pdf.y + 4, pdf.epw, 10, size=12, align="L"
        )
