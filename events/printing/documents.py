"""Which documents the kit prints for a competition, and drawing one of them into a PDF.

The shared documents (badges, certificates, the wall chart of the shared standings, the door
poster) print for every competition; a format adds its own through
:class:`events.printing.contract.PrintedTables`. Each download draws inside
``translation.override(language)``, so every document is in the language asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils import translation
from django.utils.functional import Promise

from events.formats.registry import part
from events.models import Competition
from events.printing.contract import NoSuchItem, PrintedTables, PrintItem
from events.printing.pdf import KitPdf

Draw = Callable[[KitPdf, Competition, str], None]


@dataclass(frozen=True)
class SharedDocument:
    """A document every competition prints; ``draw(pdf, competition, scope)`` raises
    :class:`NoSuchItem` for a scope it does not know."""

    item: PrintItem
    draw: Draw
    other_scopes: bool = False  # also draws scopes the desk does not list (a certificate per entry)


SHARED: dict[str, list[SharedDocument]] = {}


def shared(item: PrintItem, *, other_scopes: bool = False) -> Callable[[Draw], Draw]:
    """Register a shared document's drawing function under ``item`` (key and scope)."""

    def decorator(draw: Draw) -> Draw:
        SHARED.setdefault(item.key, []).append(SharedDocument(item, draw, other_scopes))
        return draw

    return decorator


def shared_items() -> list[PrintItem]:
    load_shared()
    return [document.item for documents in SHARED.values() for document in documents]


def format_items(competition: Competition) -> list[PrintItem]:
    """What the competition's format prints of its own; none for a format without the part."""
    printed = part(competition.format, PrintedTables)
    return printed.print_items(competition) if printed is not None else []


def load_shared() -> None:
    """Import the shared documents' modules, which register themselves."""
    from events.printing import shared_documents  # noqa: F401


@dataclass(frozen=True)
class Printed:
    content: bytes
    item: PrintItem


def print_document(competition: Competition, key: str, scope: str, language: str) -> Printed:
    """The PDF of item ``key`` at ``scope`` in ``language``; :class:`NoSuchItem` for a key or
    scope that does not exist."""
    load_shared()
    with translation.override(language):
        documents = SHARED.get(key, [])
        exact = [document for document in documents if document.item.scope == scope]
        for document in exact or [document for document in documents if document.other_scopes]:
            item = document.item
            pdf = KitPdf(title=title(competition, item.label), paper=item.paper,
                             orientation=item.orientation)  # fmt: skip
            document.draw(pdf, competition, scope)
            return Printed(pdf.to_bytes(), item)
        if key in SHARED:
            raise NoSuchItem(f"{key}: no scope {scope!r}")
        printed = part(competition.format, PrintedTables)
        if printed is None:
            raise NoSuchItem(key)
        items = [item for item in printed.print_items(competition) if item.key == key]
        if not items:
            raise NoSuchItem(key)
        chosen = next((item for item in items if item.scope == scope), None)
        if chosen is None:
            # A scope the desk does not list now (an earlier round): the format decides.
            chosen = PrintItem(key, items[0].label, scope, "", items[0].paper, items[0].orientation)
        pdf = KitPdf(title=title(competition, chosen.label), paper=chosen.paper,
                     orientation=chosen.orientation)  # fmt: skip
        printed.draw_print_item(pdf, competition, chosen)
        return Printed(pdf.to_bytes(), chosen)


def title(competition: Competition, label: str | Promise) -> str:
    return f"{competition.event.name}: {competition.name}. {label}"
