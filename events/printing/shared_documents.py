"""The documents every competition prints, in the order the kit page lists them: badges,
certificates, the wall chart of the shared standings (A4 or A3), the door poster."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from events.models import Competition
from events.printing.badges import draw_badges
from events.printing.certificates import draw_certificates
from events.printing.contract import PrintItem
from events.printing.door_poster import draw_door_poster
from events.printing.pdf import KitPdf
from events.printing.wall_chart import draw_wall_chart


@dataclass(frozen=True)
class SharedDocument:
    """A document every competition prints; ``draw(pdf, competition, scope)`` raises
    ``NoSuchItem`` for a scope it does not know."""

    item: PrintItem
    draw: Callable[[KitPdf, Competition, str], None]
    other_scopes: bool = False  # also draws scopes the desk does not list (one player's)


SHARED_DOCUMENTS = [
    SharedDocument(PrintItem("badges", _("Name badges")), draw_badges, other_scopes=True),
    SharedDocument(
        PrintItem("certificates", _("Certificates"), orientation="L"),
        draw_certificates,
        other_scopes=True,
    ),
    SharedDocument(
        PrintItem("wall-chart", _("Wall chart"), scope_label=_("A4 landscape"), orientation="L"),
        draw_wall_chart,
    ),
    SharedDocument(
        PrintItem(
            "wall-chart",
            _("Wall chart"),
            scope="a3",
            scope_label=_("A3 landscape"),
            paper="A3",
            orientation="L",
        ),
        draw_wall_chart,
    ),
    SharedDocument(PrintItem("door-poster", _("Door poster")), draw_door_poster),
]
