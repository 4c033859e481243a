"""The board code of sjoelen games entered by players, for the desk's pages."""

from __future__ import annotations

from django import template

from events.models import Competition
from shuffleboard.proposals import board_code as _board_code

register = template.Library()


@register.simple_tag
def board_code(competition: Competition, board: int) -> str:
    return _board_code(competition, board)
