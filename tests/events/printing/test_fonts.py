"""The glyph check: what the shipped fonts draw (Estonian, Swedish, Dutch, Cyrillic, Greek), what
no font here draws, and the fallbacks a setting names."""

from __future__ import annotations

from pathlib import Path

from events.printing.fonts import (
    FONT_DIR,
    SHIPPED,
    fallback_paths,
    missing_glyphs,
    shipped_characters,
    unprintable,
)

EVERY_SCRIPT = "Tõnu Šmidt Žanna Ülle Öö Ää Åsa IJsbrand Иван Петров Γιώργος Παπαδόπουλος"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")


def test_the_fonts_are_shipped_with_their_licence():
    for _style, path in SHIPPED:
        assert path.is_file() and path.parent == FONT_DIR
    assert (FONT_DIR / "LICENSE-DejaVu.txt").read_text().count("Bitstream") > 1


def test_the_shipped_fonts_draw_every_letter_of_the_four_languages_cyrillic_and_greek(settings):
    settings.PRINT_FALLBACK_FONTS = []
    assert missing_glyphs(EVERY_SCRIPT) == ""
    assert ord("š") in shipped_characters() and ord("Ω") in shipped_characters()


def test_another_script_is_missing_each_character_once_in_order(settings):
    settings.PRINT_FALLBACK_FONTS = []
    assert missing_glyphs("王小明 Wang 王") == "王小明"
    assert missing_glyphs("a\u200bb c") == ""  # invisible characters need no glyph


def test_a_fallback_font_covers_what_it_draws(settings, tmp_path):
    settings.PRINT_FALLBACK_FONTS = [str(DEJAVU), str(tmp_path / "absent.ttf")]
    assert fallback_paths() == [DEJAVU]
    settings.PRINT_FALLBACK_FONTS = []
    assert fallback_paths() == []


def test_unprintable_lists_the_names_and_their_characters(settings):
    settings.PRINT_FALLBACK_FONTS = []
    assert unprintable(["Anna", "李娜", "Žanna"]) == [("李娜", "李娜")]
