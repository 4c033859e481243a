"""The print kit's fonts: the shipped ones, the system's fallbacks, and which characters of a text
none of them can draw.

The shipped fonts (DejaVu Sans, regular and bold, in ``fonts/`` beside this module with their
licence) draw Latin with every Estonian, Swedish and Dutch letter, Cyrillic and Greek, on any
laptop. A name in another script (Chinese, Arabic, Devanagari, ...) is drawn by a fallback font
when the machine has one of the well-known ones in :data:`FALLBACK_CANDIDATES` (or the files of
``settings.PRINT_FALLBACK_FONTS``); when none can, the desk flags the name before printing
(:func:`missing_glyphs`), because a PDF would otherwise show empty boxes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FAMILY = "kit"
# (style, file): the family every document draws in.
SHIPPED = (("", FONT_DIR / "DejaVuSans.ttf"), ("B", FONT_DIR / "DejaVuSans-Bold.ttf"))
SHIPPED_NAME = "DejaVuSans"

# Fonts an organiser's machine often has that cover scripts DejaVu does not: Linux (Debian and
# Fedora's Noto packages), macOS, Windows. The first ones that exist are used, in this order.
FALLBACK_CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArmenian-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansGeorgian-Regular.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "C:/Windows/Fonts/ARIALUNI.TTF",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/Nirmala.ttf",
)
# Characters that draw nothing and so need no glyph.
INVISIBLE = frozenset(" \t\n\r\u00a0\u200b\u200c\u200d\ufeff")


def fallback_paths() -> list[Path]:
    """The fallback font files present on this machine: ``settings.PRINT_FALLBACK_FONTS`` when
    set (a list of paths, empty for none), else the well-known ones that exist."""
    configured: Sequence[str] | None = getattr(settings, "PRINT_FALLBACK_FONTS", None)
    candidates = FALLBACK_CANDIDATES if configured is None else configured
    return [Path(name) for name in candidates if Path(name).is_file()]


@lru_cache(maxsize=32)
def font_characters(path: Path) -> frozenset[int]:
    """The code points ``path``'s character map draws (the first font of a collection)."""
    if path.suffix.lower() in (".ttc", ".otc"):
        font = TTCollection(str(path), lazy=True).fonts[0]
    else:
        font = TTFont(str(path), lazy=True)
    cmap = font.getBestCmap() or {}
    return frozenset(cmap)


def shipped_characters() -> frozenset[int]:
    """What every shipped style can draw (a name is bold on one document, regular on another)."""
    sets = [font_characters(path) for _style, path in SHIPPED]
    return frozenset.intersection(*sets)


def missing_glyphs(text: str, fallbacks: Iterable[Path] | None = None) -> str:
    """The characters of ``text`` that neither a shipped font nor a fallback can draw, in order
    of first appearance, each once; empty when the whole text prints."""
    covered = shipped_characters()
    extra = [
        font_characters(path) for path in (fallback_paths() if fallbacks is None else fallbacks)
    ]
    missing: dict[str, None] = {}
    for char in text:
        code = ord(char)
        if char in INVISIBLE or code in covered or any(code in chars for chars in extra):
            continue
        missing[char] = None
    return "".join(missing)


def unprintable(names: Iterable[str]) -> list[tuple[str, str]]:
    """``(name, missing characters)`` for each of ``names`` that cannot print, in order."""
    fallbacks = fallback_paths()
    found = []
    for name in names:
        missing = missing_glyphs(name, fallbacks)
        if missing:
            found.append((name, missing))
    return found
