"""The shapes of the 21 pieces (``blokus.rules.pieces``), drawn on the result page: each shape
has its piece's squares, joined edge to edge, and the picture's geometry follows the shape."""

from __future__ import annotations

from blokus.rules.constants import PIECE_SIZES
from blokus.rules.pieces import CELL, SHAPES, piece_cells


def connected(cells):
    cells = set(cells)
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == cells


def test_every_piece_has_a_shape_of_its_size_joined_edge_to_edge():
    assert SHAPES.keys() == PIECE_SIZES.keys()
    for name, cells in SHAPES.items():
        assert len(set(cells)) == len(cells) == PIECE_SIZES[name], name
        assert connected(cells), name


def test_the_cells_come_in_the_piece_order_with_their_box():
    pieces = piece_cells()
    assert [p["name"] for p in pieces] == list(PIECE_SIZES)
    by_name = {p["name"]: p for p in pieces}
    assert by_name["I5"]["width"] == 5 * CELL and by_name["I5"]["height"] == CELL
    assert by_name["X5"]["width"] == by_name["X5"]["height"] == 3 * CELL
    assert by_name["I1"]["cells"] == [(0, 0)]
    assert sum(p["size"] for p in pieces) == 89
