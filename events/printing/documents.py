"""Which items the kit prints for a competition, and drawing one of them into a PDF.

The shared documents (``shared_documents``) print for every competition; a format adds its own
through :class:`events.printing.contract.PrintedTables`. Each download draws inside
``translation.override(language)``, so every document is in the language asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation

from events.formats.registry import part
from events.models import Competition
from events.printing.contract import NoSuchItem, PrintedTables, PrintItem
from events.printing.pdf import KitPdf
from events.printing.shared_documents import SHARED_DOCUMENTS


def shared_items() -> list[PrintItem]:
    return [document.item for document in SHARED_DOCUMENTS]


def format_items(competition: Competition) -> list[PrintItem]:
    """What the competition's format prints of its own; none for a format without the part."""
    printed = part(competition.format, PrintedTables)
    return printed.print_items(competition) if printed is not None else []


@dataclass(frozen=True)
class Printed:
    content: bytes
    item: PrintItem


def print_document(
    competition: Competition,
    key: str,
    scope: str,
    language: str,
    *,
    signature: bytes | None = None,
) -> Printed:
    """The PDF of item ``key`` at ``scope`` in ``language``; :class:`NoSuchItem` for a key or
    scope that does not exist. ``signature``: an image for the certificates."""
    with translation.override(language):
        documents = [document for document in SHARED_DOCUMENTS if document.item.key == key]
        if documents:
            exact = [document for document in documents if document.item.scope == scope]
            found = exact or [document for document in documents if document.other_scopes]
            if not found:
                raise NoSuchItem(f"{key}: no scope {scope!r}")
            item = found[0].item
            pdf = new_pdf(competition, item)
            pdf.signature_image = signature
            found[0].draw(pdf, competition, scope)
            return Printed(pdf.to_bytes(), item)
        printed = part(competition.format, PrintedTables)
        items = [i for i in printed.print_items(competition) if i.key == key] if printed else []
        if printed is None or not items:
            raise NoSuchItem(key)
        chosen = next((item for item in items if item.scope == scope), None)
        if chosen is None:
            # A scope the desk does not list now (an earlier round): the format decides.
            first = items[0]
            chosen = PrintItem(key, first.label, scope, "", first.paper, first.orientation)
        pdf = new_pdf(competition, chosen)
        printed.draw_print_item(pdf, competition, chosen)
        return Printed(pdf.to_bytes(), chosen)


def new_pdf(competition: Competition, item: PrintItem) -> KitPdf:
    title = f"{competition.event.name}: {competition.name}. {item.label}"
    return KitPdf(title=title, paper=item.paper, orientation=item.orientation)
