"""What the downloads and the whole-event document (``events.exchange``) ask of a format.

A format takes part by implementing :class:`Exports` in its hooks: its ``export`` module (usually
its ``export.py``, which mypy checks against :class:`ExportModule`) adds its own tables to the
event document and gives its standings and results as sheets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from events.exchange.document.tables import Remap, Table
    from events.exchange.sheets import Sheet
    from events.models import Competition


class ExportModule(Protocol):
    """A format's part of the downloads and the event document."""

    @property
    def TABLES(self) -> Sequence[Table]:  # noqa: N802 (a module's constant)
        """The format's tables of the event document, in insertion order."""

    def correction_payload(self, payload: dict[str, Any], remap: Remap) -> dict[str, Any]:
        """A stored correction's payload with the ids of a restored document."""

    def standings(self, competition: Competition, *, public: bool = False) -> Sheet:
        """The standings as a sheet; ``public``: the names as the players chose to be shown
        (``Player.public_name``), for pages anyone reads."""

    def results(self, competition: Competition, *, public: bool = False) -> Sheet:
        """Every result as a sheet."""


@runtime_checkable
class Exports(Protocol):
    """A format with its own downloads and tables (the capability; ``registry.part``)."""

    @property
    def export(self) -> ExportModule: ...
