"""A competition's desk page through real requests (events/desk/views/competition.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


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
