"""A competition's desk page through real requests (events/desk/views/competition.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.desk import HTMX, desk_url
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


DESK_GETS = ["competition_desk", "csv_import", "player_search"]


@pytest.mark.parametrize("name", DESK_GETS)
def test_anonymous_users_are_sent_to_log_in(client, competition, name):
    response = client.get(desk_url(name, competition))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize("name", DESK_GETS)
def test_other_organisers_are_refused(client, outsider, competition, name):
    client.force_login(outsider)
    assert client.get(desk_url(name, competition)).status_code == 403


def test_superusers_may_use_any_desk(client, competition, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    assert client.get(competition.get_desk_url()).status_code == 200


def test_the_desk_page_and_its_entries_fragment(desk_client, entries):
    competition = entries[0].competition
    page = desk_client.get(competition.get_desk_url()).content.decode()
    assert "<html" in page and entries[0].player.name in page
    fragment = desk_client.get(
        competition.get_desk_url(), headers={**HTMX, "HX-Target": "entries"}
    ).content.decode()
    assert "<html" not in fragment and 'id="entries"' in fragment


def test_settings_are_saved_and_bad_ones_kept_with_errors(desk_client, competition):
    url = desk_url("competition_settings", competition)
    data = {**competition.settings, "capacity": 16, "official_bonus": "on"}
    assert desk_client.post(url, data).status_code == 302
    competition.refresh_from_db()
    assert competition.settings["capacity"] == 16 and competition.settings["official_bonus"] is True
    response = desk_client.post(url, {**data, "capacity": 13})
    assert response.status_code == 400
    assert "multiple of 4" in response.content.decode()
    assert 'value="13"' in response.content.decode()
