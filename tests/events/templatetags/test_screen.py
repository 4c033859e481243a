"""``{% screen_url %}`` (``events.templatetags.screen``): the address of a competition's projector
screen, or nothing where there is none."""

from __future__ import annotations

from types import SimpleNamespace

from django.template import Context, Template
from django.urls import reverse

from events.formats import all_formats
from tests.support.factories import CompetitionFactory


def render(**context) -> str:
    return Template("{% load screen %}{% screen_url %}").render(Context(context))


def test_the_page_competition_or_the_only_one_of_an_event_gets_its_screen(db):
    game_format = next(f for f in all_formats() if f.screen)
    competition = CompetitionFactory(format=game_format.key)
    url = reverse(game_format.screen, args=[competition.event.slug, competition.slug])
    assert render(competition=competition) == url
    assert render(only=competition) == url


def test_no_competition_or_an_unknown_format_is_no_address(db):
    assert render() == ""
    assert render(competition=CompetitionFactory.build(format="no-longer-installed")) == ""
    assert render(competition=SimpleNamespace(event=None, slug="c")) == ""
