"""The badge's frame on desk pages of an event only, and the help links of the formats taking
part."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template
from django.test import RequestFactory

from events.formats import all_formats, part
from events.help.contract import HelpTables
from tests.support.factories import CompetitionFactory, EntryFactory, UserFactory

pytestmark = pytest.mark.django_db


def _badge(path: str, user, **context) -> str:
    request = RequestFactory().get(path)
    return Template("{% load help_desk %}{% help_badge %}").render(
        Context({"request": request, "user": user, **context})
    )


def test_the_badge_frame_is_on_desk_pages_of_an_event_only():
    competition = CompetitionFactory()
    user = UserFactory()
    desk = _badge("/desk/x/", user, event=competition.event)
    assert f'hx-get="/desk/{competition.event.slug}/help/badge/"' in desk
    assert "help-desk" in desk and 'hx-trigger="every 10s"' in desk
    # Its first count comes with the page, so nothing moves when the first poll answers.
    assert 'data-help-count="0"' in desk and "0 calls" in desk
    assert f"/desk/{competition.event.slug}/help/badge/" in _badge(
        "/desk/x/y/", user, competition=competition
    )
    assert _badge("/e/x/", user, event=competition.event) == ""  # a public page
    assert _badge("/desk/x/", AnonymousUser(), event=competition.event) == ""
    assert _badge("/desk/", user) == ""  # no event
    assert _badge("/desk/", user, event="not an event") == ""


def test_help_links_only_for_a_format_taking_part():
    for game_format in all_formats():
        competition = CompetitionFactory(
            format=game_format.key, settings=game_format.default_settings()
        )
        entry = EntryFactory(competition=competition)
        html = Template(
            "{% load help_desk %}{% help_link c table=3 %}|{% help_link c entry=e %}|"
            "{% help_link c %}"
        ).render(Context({"c": competition, "e": entry}))
        if part(game_format, HelpTables) is None:
            assert html == "||"
            continue
        table, mine, nothing = html.split("|")
        assert "Help at table 3" in table and "/help/table/3/" in table
        assert "Help at my table" in mine and f"/help/player/{entry.pk}/" in mine
        assert nothing == ""
        competition.status = "finished"
        assert (
            Template("{% load help_desk %}{% help_link c table=3 %}").render(
                Context({"c": competition})
            )
            == ""
        )
