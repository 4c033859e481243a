"""What the print kit (``events.printing``) asks of a format.

Every competition prints the shared items (badges, certificates, the wall chart of the shared
standings, the door poster). A format takes part further by implementing on its hooks class:

- :class:`PrintedTables`: what it prints of its own (table tents, score sheets, its cross
  tables, the private-link sheet), drawn in its own ``printing.py``;
- :class:`CertificateDetails`: a line under a player's place on a certificate (Blokus: the
  rating change).

Drawing runs inside ``translation.override(language)`` set by the download view, so drawing code
just uses gettext; absolute links (QR codes) come from ``events.common.siteurl.absolute_url``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from django.utils.functional import Promise

if TYPE_CHECKING:
    from events.models import Competition
    from events.printing.pdf import KitPdf


class NoSuchItem(LookupError):
    """A print item's key or scope that does not exist (the download answers 404)."""


@dataclass(frozen=True)
class PrintItem:
    key: str  # URL-safe: "tents", "score-sheets", "crosstables", "links"
    label: str | Promise  # the button's text ("Table tents")
    scope: str = ""  # "" the whole competition, else format-defined and URL-safe: "round-12"
    scope_label: str | Promise = ""  # "Round 2 of session 1"
    paper: str = "A4"  # a key of events.printing.pdf.PAPER
    orientation: str = "P"  # "P" or "L"


@runtime_checkable
class PrintedTables(Protocol):
    """What a format prints of its own: tents, score sheets, its cross tables, private links."""

    def print_items(self, competition: Competition) -> list[PrintItem]:
        """Every item the desk can print now, in the order the desk lists them (constant
        queries)."""
        ...

    def draw_print_item(self, pdf: KitPdf, competition: Competition, item: PrintItem) -> None:
        """Add the item's pages to ``pdf``; raise :class:`NoSuchItem` for a key or scope that
        does not exist (the view answers 404)."""
        ...


@runtime_checkable
class CertificateDetails(Protocol):
    """Optional: a line a format adds under a player's place on a certificate."""

    def certificate_details(self, competition: Competition) -> Mapping[int, str]:
        """Entry id -> the line (Blokus: the rating change)."""
        ...
