"""A competition's settings (``events.formats.settings``): read back from what is stored, text
and values the form refuses included."""

from __future__ import annotations

import pytest

from events.formats import all_formats, get_format
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_numbers_stored_as_text_are_read_as_numbers():
    sjoelen = get_format("shuffleboard")
    options = sjoelen.read_settings({"games": "10", "boards": "3"})
    assert options.games == 10
    assert options.boards == 3


@pytest.mark.parametrize("stored", [{"boards": "many"}, {"boards": None}, {"boards": [1]}, "x"])
def test_values_the_form_refuses_take_their_defaults(stored):
    sjoelen = get_format("shuffleboard")
    assert sjoelen.read_settings(stored).boards == sjoelen.settings_class().boards


def test_every_format_reads_its_own_defaults_back():
    for game_format in all_formats():
        assert game_format.read_settings(game_format.default_settings()) == (
            game_format.settings_class()
        )


def test_an_admin_save_stores_the_cleaned_settings():
    competition = CompetitionFactory(format="shuffleboard", settings={})
    competition.settings = {"games": "5", "boards": "3"}
    competition.full_clean()
    assert competition.settings["games"] == 5
    assert competition.settings["boards"] == 3


def test_pages_follow_settings_stored_as_text(client):
    from django.urls import reverse

    competition = CompetitionFactory(format="shuffleboard", settings={})
    type(competition).objects.filter(pk=competition.pk).update(
        settings={"games": "10", "boards": "3"}
    )
    args = [competition.event.slug, competition.slug]
    for name in ["shuffleboard:standings", "shuffleboard:rota"]:
        assert client.get(reverse(name, args=args)).status_code == 200
