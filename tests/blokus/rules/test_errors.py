"""Tests for the pure Blokus rules (RULES.md section 1). No database, no Django."""

from __future__ import annotations

from blokus.rules import (
    InvalidResult,
)


def test_it_makes_invalid_result_a_value_error():
    assert issubclass(InvalidResult, ValueError)
