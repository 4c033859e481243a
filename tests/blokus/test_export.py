"""The Blokus sheets (``blokus.export``): public sheets give the public name, the organisers'
sheets the full name."""

from __future__ import annotations

from blokus import export
from tests.support.blokus import (
    FULL,
    SHORT,
)


def test_the_public_sheets_show_the_public_name(short_named):
    competition, *_ = short_named
    for sheet in (
        export.standings(competition, public=True),
        export.results(competition, public=True),
    ):
        names = {row[sheet.header.index("Player")] for row in sheet.rows}
        assert SHORT in names and FULL not in names, sheet.title
    # The organisers' sheets keep the full name.
    for sheet in (export.standings(competition), export.results(competition)):
        names = {row[sheet.header.index("Player")] for row in sheet.rows}
        assert FULL in names and SHORT not in names, sheet.title
