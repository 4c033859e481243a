"""The sjoelen format's plug: typed settings with one set of defaults, read as attributes."""

from __future__ import annotations

import dataclasses

from events.formats import get_format
from shuffleboard.format import (
    RANK_BY_AVERAGE,
    SJOELEN,
    TIES_BEST_GAME,
    TIES_SHARE,
    SjoelenSettings,
)
from shuffleboard.forms import SjoelenSettingsForm
from shuffleboard.rules import TIEBREAKS


def test_the_settings_form_offers_the_dataclass_defaults():
    defaults = dataclasses.asdict(SjoelenSettings())
    form = SjoelenSettingsForm()
    assert {name: form.fields[name].initial for name in defaults} == defaults
    assert SJOELEN.default_settings() == defaults


def test_the_format_is_registered_under_its_key():
    assert get_format(SJOELEN.key) is SJOELEN
    assert SJOELEN.url_segment == "sjoelen"


def test_a_competition_reads_its_settings_as_attributes(sjoelen):
    sjoelen.settings = {"games": 5, "ranking": RANK_BY_AVERAGE, "tiebreaks": TIES_BEST_GAME}
    options = sjoelen.options
    assert (options.games, options.boards, options.bonus_disc) == (5, 4, False)
    assert options.by_average and options.tiebreak_chain == TIEBREAKS[:1]
    assert SjoelenSettings(tiebreaks=TIES_SHARE).tiebreak_chain == ()
    assert SjoelenSettings().tiebreak_chain == TIEBREAKS


def test_blank_choices_in_the_form_take_the_defaults():
    form = SjoelenSettingsForm(data={"games": 5, "boards": 2, "ranking": "", "tiebreaks": ""})
    assert form.is_valid(), form.errors
    defaults = SjoelenSettings()
    assert (form.cleaned_data["ranking"], form.cleaned_data["tiebreaks"]) == (
        defaults.ranking,
        defaults.tiebreaks,
    )
