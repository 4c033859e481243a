"""Club colours and their contrast (events/common/colours.py), against WCAG 2.2's figures."""

from __future__ import annotations

import pytest

from events.common.colours import (
    BLACK,
    WHITE,
    band_readable,
    contrast,
    luminance,
    stripe_visible,
    text_on,
)


def test_luminance_runs_from_black_to_white():
    assert luminance("#000000") == 0
    assert luminance("#ffffff") == pytest.approx(1)
    assert luminance("#808080") == pytest.approx(0.2158605, abs=1e-6)


def test_contrast_is_21_to_1_at_most_and_the_same_either_way_round():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#ffffff", "#000000") == pytest.approx(21)
    assert contrast("#777777", "#777777") == pytest.approx(1)
    # WCAG's own example of a grey that just passes for normal text on white.
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


@pytest.mark.parametrize(
    ("background", "text"),
    [
        ("#ffff00", BLACK),
        ("#000080", WHITE),
        ("#ffffff", BLACK),
        ("#0072ce", WHITE),
        ("#ff0000", BLACK),
    ],
)
def test_the_text_colour_is_whichever_reads_better(background, text):
    assert text_on(background) == text


def test_a_band_needs_4_5_to_1_with_its_own_text_colour():
    assert band_readable("#0072ce") and band_readable("#ffff00") and band_readable("#000000")
    # Mid greys where neither black nor white reaches 4.5:1 (4.48 and 4.40).
    assert not band_readable("#777777")
    assert not band_readable("#7a7a7a")
    assert band_readable("#6b6b6b")  # one step darker: white reads at 5.3:1


def test_a_stripe_must_stand_out_on_the_light_and_the_dark_page_and_the_projector():
    assert stripe_visible("#e4002b")  # a strong red shows everywhere
    assert not stripe_visible("#fafaf7")  # the light page's own colour vanishes on it
    assert not stripe_visible("#15171b")  # the dark page's own colour vanishes on it
    assert not stripe_visible("#ffffff")  # white is lost on the light page
