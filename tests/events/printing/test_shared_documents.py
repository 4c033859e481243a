"""The shared documents: every competition's, each key with its paper, in the kit's order."""

from __future__ import annotations

from events.printing.pdf import PAPER
from events.printing.shared_documents import SHARED_DOCUMENTS


def test_the_shared_documents_and_their_paper():
    found = [
        (d.item.key, d.item.scope, d.item.paper, d.item.orientation, d.other_scopes)
        for d in SHARED_DOCUMENTS
    ]
    assert found == [
        ("badges", "", "A4", "P", True),
        ("certificates", "", "A4", "L", True),
        ("wall-chart", "", "A4", "L", False),
        ("wall-chart", "a3", "A3", "L", False),
        ("door-poster", "", "A4", "P", False),
    ]
    assert all(d.item.paper in PAPER and str(d.item.label) for d in SHARED_DOCUMENTS)
