"""What a first evening at the desk tripped over: settings pointed to but closed, crumbs
without the event, the game's name three times over."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def test_a_new_competition_opens_on_its_settings_as_the_message_says(desk_client, event):
    answer = desk_client.post(
        reverse("events:competition_create", args=[event.slug]),
        {"name": "Sjoelen", "format": "shuffleboard"},
    )
    assert answer.status_code == 302
    assert answer["Location"].endswith("?new#settings")
    page = desk_client.get(answer["Location"]).content.decode()
    assert "Check its settings below." in page
    assert re.search(r'<details class="panel" id="settings" open>', page)
    # Later visits keep the desk short: settings closed.
    later = desk_client.get(answer["Location"].split("?")[0]).content.decode()
    assert '<details class="panel" id="settings">' in later


def test_the_sjoelen_desk_names_the_game_once_and_score_entry_crumbs_name_the_event(
    desk_client, event
):
    sjoelen = CompetitionFactory(event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard")
    desk = desk_client.get(sjoelen.get_desk_url()).content.decode()
    visible = re.sub(r'<h2 id="sjoelen-heading" class="sr-only">.*?</h2>', "", desk)
    visible = re.sub(r"<title>.*?</title>", "", visible)
    top = visible.split('id="register-heading"')[0]
    assert top.count(">Sjoelen<") == 1  # the h1 (the crumb names the event)
    assert "Sjoelen · " not in top
    entry = desk_client.get(reverse("shuffleboard:entry", args=[event.slug, sjoelen.slug]))
    crumbs = re.search(r'<p class="crumbs">(.*?)</p>', entry.content.decode()).group(1)
    assert event.name in crumbs and "Sjoelen" in crumbs
