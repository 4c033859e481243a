"""The Blokus reads as a package (blokus/selectors/): no read imports a write."""

from __future__ import annotations

import ast
from pathlib import Path

from blokus import selectors


def test_selectors_never_import_services():
    """Reads never call writes: services may use selectors, not the other way round."""
    sources = sorted(Path(selectors.__file__).parent.glob("*.py"))
    assert sources
    for source in sources:
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += (
                [a.name for a in node.names]
                if isinstance(node, ast.Import | ast.ImportFrom)
                else []
            )
            assert not any("services" in name for name in names), source
