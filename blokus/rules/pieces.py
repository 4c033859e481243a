"""The shapes of the 21 pieces, for the tap-the-pieces-left picture on the result page.

Display only: the squares of each piece come from ``rules.PIECE_SIZES``; a test checks that the
shapes agree with it.
"""

from __future__ import annotations

from blokus.rules.constants import PIECE_SIZES

# (column, row) of each square, drawn in a box from (0, 0).
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "I1": ((0, 0),),
    "I2": ((0, 0), (1, 0)),
    "I3": ((0, 0), (1, 0), (2, 0)),
    "V3": ((0, 0), (0, 1), (1, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "O4": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "L4": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "Z4": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "F5": ((1, 0), (2, 0), (0, 1), (1, 1), (1, 2)),
    "I5": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L5": ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3)),
    "N5": ((1, 0), (1, 1), (0, 2), (1, 2), (0, 3)),
    "P5": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "T5": ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "U5": ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    "V5": ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2)),
    "W5": ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2)),
    "X5": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "Y5": ((1, 0), (0, 1), (1, 1), (1, 2), (1, 3)),
    "Z5": ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)),
}

CELL = 10  # px per square in the SVG


def piece_cells() -> list[dict]:
    """Each piece with its name, squares and SVG geometry, in PIECE_SIZES order."""
    pieces = []
    for name, size in PIECE_SIZES.items():
        cells = SHAPES[name]
        pieces.append(
            {
                "name": name,
                "size": size,
                "width": (max(x for x, _ in cells) + 1) * CELL,
                "height": (max(y for _, y in cells) + 1) * CELL,
                "cells": [(x * CELL, y * CELL) for x, y in cells],
            }
        )
    return pieces
