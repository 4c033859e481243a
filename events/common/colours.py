"""Colours a club chooses and whether they can be read (WCAG 2.2 contrast ratios)."""

from __future__ import annotations

import re

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")

# The page backgrounds of the light and the dark theme (static/css/site.css, ``--bg``) and
# of the projector (static/css/screen.css).
LIGHT_PAGE = "#fafaf7"
DARK_PAGE = "#15171b"
SCREEN_PAGE = "#0e1a27"  # static/css/screen.css: the projector
BLACK = "#111111"
WHITE = "#ffffff"

TEXT_CONTRAST = 4.5  # WCAG 1.4.3, normal text
GRAPHIC_CONTRAST = 3.0  # WCAG 1.4.11, a stripe or a border that carries meaning


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """Relative luminance of "#rrggbb" (WCAG 2.2)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(background: str) -> str:
    """Black or white text, whichever reads better on ``background``."""
    return BLACK if contrast(background, BLACK) >= contrast(background, WHITE) else WHITE


def band_readable(colour: str) -> bool:
    """A band of this colour carries text (black or white) at 4.5:1 or more: in either theme,
    since the band brings its own text colour."""
    return contrast(colour, text_on(colour)) >= TEXT_CONTRAST


def stripe_visible(colour: str) -> bool:
    """A stripe of this colour stands out (3:1) from the page in the light and the dark theme
    and on the projector."""
    return (
        contrast(colour, LIGHT_PAGE) >= GRAPHIC_CONTRAST
        and contrast(colour, DARK_PAGE) >= GRAPHIC_CONTRAST
        and contrast(colour, SCREEN_PAGE) >= GRAPHIC_CONTRAST
    )
