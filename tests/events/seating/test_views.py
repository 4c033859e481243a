"""The desk's group page (``events.seating.views.groups``): organisers mark families, the
page says when keeping apart is off, a format without tables has no such page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from events.models import Entry, EventRole
from tests.support.factories import CompetitionFactory, EntryFactory

pytestmark = pytest.mark.django_db


def page(competition):
    return reverse("events:seating_groups", args=[competition.event.slug, competition.slug])


def test_the_organiser_marks_a_family_and_sees_it(desk_client, event):
    competition = CompetitionFactory(
        event=event, format="blokus", slug="side", settings={"seating_apart": "every_round"}
    )
    anna, bo = EntryFactory.create_batch(2, competition=competition)
    response = desk_client.get(page(competition))
    assert response.status_code == 200
    assert 'id="seating-off"' not in response.content.decode()
    response = desk_client.post(
        page(competition), {f"group_{anna.pk}": "Berg", f"group_{bo.pk}": "Berg"}, follow=True
    )
    assert response.redirect_chain[-1][0] == page(competition)
    assert "2 groups saved." in response.content.decode()
    assert set(Entry.objects.values_list("group", flat=True)) == {"Berg"}
    assert 'value="Berg"' in response.content.decode()


def test_a_refused_form_says_so_and_saves_nothing(desk_client, event):
    competition = CompetitionFactory(event=event, format="blokus", slug="side")
    anna = EntryFactory(competition=competition)
    response = desk_client.post(page(competition), {f"group_{anna.pk}": "x" * 41})
    assert response.status_code == 400
    assert 'aria-invalid="true"' in response.content.decode()
    assert Entry.objects.get(pk=anna.pk).group == ""
    # Off in the settings: the page says the draws ignore the groups.
    assert 'id="seating-off"' in response.content.decode()


def test_a_format_without_tables_has_no_group_page(desk_client, event):
    league = CompetitionFactory(event=event, format="roundrobin", slug="league")
    assert desk_client.get(page(league)).status_code == 404


def test_only_organisers_mark_groups(client, event, django_user_model):
    competition = CompetitionFactory(event=event, format="blokus", slug="side")
    assert "/accounts/login/" in Client().get(page(competition))["Location"]
    sam = django_user_model.objects.create(username="sam")
    event.organisers.add(sam, through_defaults={"role": EventRole.Role.SCOREKEEPER})
    client.force_login(sam)
    assert client.get(page(competition)).status_code == 403
