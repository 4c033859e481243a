"""The series admin's member inline: any posted value answers 200 with the error beside the field
(or 302 when saved), never 500; the rows are checked and written by the desk's services."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from events.errors import Invalid
from events.formats import default_settings
from events.series import services
from events.series.models import Series, SeriesCompetition
from tests.support.factories import (
    CompetitionFactory,
    EventFactory,
    HostClubFactory,
    UserFactory,
)
from tests.support.shuffleboard import SjoelenFactory

HUGE = "99999999999999999999"


@pytest.fixture
def league(organiser):
    """A sjoelen series with one competition; another sjoelen competition free to join, a
    Blokus one (another format), all at an event of the organiser."""
    event = EventFactory(organisers=[organiser])
    member = SjoelenFactory(event=event)
    free = SjoelenFactory(event=event)  # no entries, no results
    blokus = CompetitionFactory(event=event, format="blokus", settings=default_settings("blokus"))
    series = services.series_create(by=organiser, name="League", format_key="shuffleboard")
    services.series_join(series=series, competition_id=member.pk, by=organiser)
    return Series.objects.get(pk=series.pk), member, free, blokus


def form_data(series: Series | None, rows: list[dict[str, str]], initial: int = 0) -> dict:
    data = {
        "name": series.name if series else "New league",
        "slug": series.slug if series else "new-league",
        "format": "shuffleboard",
        "host": str(series.host_id if series else HostClubFactory().pk),
        "kind": "placement",
        "drop_worst": "0",
        "min_events": "1",
        "final_counts": "on",
        "is_public": "on",
        "members-TOTAL_FORMS": str(len(rows)),
        "members-INITIAL_FORMS": str(initial),
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        data.update({f"members-{i}-{key}": value for key, value in row.items()})
    return data


def existing_row(series: Series) -> dict[str, str]:
    member = SeriesCompetition.objects.get(series=series)
    return {
        "id": str(member.pk),
        "series": str(series.pk),
        "competition": str(member.competition_id),
    }


# What a new row's competition may hold: named cases are resolved against the league. (A NUL
# never reaches the admin: the middleware answers 400, see the test of the other fields.)
ODD = [
    "another format",
    "in the series already",
    "no such competition",
    "abc",
    HUGE,
    "0",
    "-1",
    "1.5",
    "[1]",
    " ",
]


def resolve(value: str, league) -> str:
    _series, member, _free, blokus = league
    named = {
        "another format": str(blokus.pk),
        "in the series already": str(member.pk),
        "no such competition": "987654",
    }
    return named.get(value, value)


@pytest.mark.parametrize("value", ODD, ids=repr)
def test_an_odd_competition_in_a_new_row_is_refused_beside_the_field(league, admin_client, value):
    series, member, _free, _blokus = league
    before = Series.objects.get(pk=series.pk).version
    url = reverse("admin:events_series_change", args=[series.pk])
    rows = [existing_row(series), {"competition": resolve(value, league)}]
    response = admin_client.post(url, form_data(series, rows, initial=1))
    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    assert formset.forms[1].errors  # beside the field (a duplicate: above the row)
    members = SeriesCompetition.objects.filter(series=series).values_list("competition", flat=True)
    assert list(members) == [member.pk]
    assert Series.objects.get(pk=series.pk).version == before


@pytest.mark.parametrize("value", [v for v in ODD if v != "in the series already"], ids=repr)
def test_an_odd_competition_on_the_add_page_answers_the_form(league, admin_client, value):
    data = form_data(None, [{"competition": resolve(value, league), "is_final": "on"}])
    response = admin_client.post(reverse("admin:events_series_add"), data)
    assert response.status_code == 200
    formset = response.context["inline_admin_formsets"][0].formset
    assert formset.forms[0].errors
    assert not Series.objects.filter(slug="new-league").exists()


@pytest.mark.parametrize("page", ["change", "add"])
def test_the_same_competition_twice_is_refused(league, admin_client, page):
    series, _member, free, _blokus = league
    twice = [{"competition": str(free.pk)}, {"competition": str(free.pk)}]
    if page == "add":
        url, data = reverse("admin:events_series_add"), form_data(None, twice)
    else:
        url = reverse("admin:events_series_change", args=[series.pk])
        data = form_data(series, [existing_row(series), *twice], initial=1)
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "duplicate" in response.content.decode()
    assert not SeriesCompetition.objects.filter(competition=free).exists()


def test_a_competition_joins_through_the_service(league, admin_client):
    series, member, free, _blokus = league
    url = reverse("admin:events_series_change", args=[series.pk])
    rows = [existing_row(series), {"competition": str(free.pk), "is_final": "on"}]
    response = admin_client.post(url, form_data(series, rows, initial=1))
    assert response.status_code == 302
    joined = SeriesCompetition.objects.get(series=series, competition=free)
    assert joined.is_final
    assert Series.objects.get(pk=series.pk).version > series.version


def test_a_new_series_with_its_competition(league, admin_client):
    _series, _member, free, _blokus = league
    response = admin_client.post(
        reverse("admin:events_series_add"), form_data(None, [{"competition": str(free.pk)}])
    )
    assert response.status_code == 302
    created = Series.objects.get(slug="new-league")
    assert list(created.members.values_list("competition", flat=True)) == [free.pk]


def test_final_and_removal_go_through_the_service_and_the_competition_stays(league, admin_client):
    series, member, free, _blokus = league
    url = reverse("admin:events_series_change", args=[series.pk])
    row = existing_row(series) | {"competition": str(free.pk), "is_final": "on"}
    assert admin_client.post(url, form_data(series, [row], initial=1)).status_code == 302
    stored = SeriesCompetition.objects.get(series=series)
    # A membership's competition is not changed in place (as on the desk): the value is ignored.
    assert (stored.competition_id, stored.is_final) == (member.pk, True)
    row = existing_row(series) | {"DELETE": "on"}
    assert admin_client.post(url, form_data(series, [row], initial=1)).status_code == 302
    assert not SeriesCompetition.objects.filter(series=series).exists()


@pytest.mark.parametrize(
    "total, initial",
    [
        ("abc", "1"),
        ("-1", "1"),
        (HUGE, "1"),
        ("", ""),
        ("5", "1"),
        ("1", "5"),
        ("1", HUGE),
        ("0", "1"),
    ],
)
def test_odd_management_form_values_answer_the_form(league, admin_client, total, initial):
    series, member, _free, _blokus = league
    url = reverse("admin:events_series_change", args=[series.pk])
    data = form_data(series, [existing_row(series)], initial=1)
    data |= {"members-TOTAL_FORMS": total, "members-INITIAL_FORMS": initial}
    response = admin_client.post(url, data)
    assert response.status_code in (200, 302)
    assert SeriesCompetition.objects.filter(series=series, competition=member).exists()


@pytest.mark.parametrize("field", ["id", "series", "is_final", "DELETE"])
@pytest.mark.parametrize("value", ["abc", "", "987654", "-1", "\x00", HUGE])
def test_odd_values_in_a_rows_other_fields_answer_the_form(league, admin_client, field, value):
    series, member, _free, _blokus = league
    url = reverse("admin:events_series_change", args=[series.pk])
    row = existing_row(series) | {field: value}
    response = admin_client.post(url, form_data(series, [row], initial=1))
    # 400: the middleware refuses a NUL in a posted body before any view.
    assert response.status_code in ((400,) if value == "\x00" else (200, 302))


def test_a_staff_member_adds_only_competitions_of_events_they_manage(league, client):
    """The desk's rule: a series organiser cannot pull in another club's competition."""
    series, _member, _free, _blokus = league
    staff = UserFactory(username="staff-organiser", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="events", codename__contains="series")
    )
    series.organisers.add(staff)
    foreign = SjoelenFactory()  # at an event staff does not organise
    client.force_login(staff)
    url = reverse("admin:events_series_change", args=[series.pk])
    rows = [existing_row(series), {"competition": str(foreign.pk)}]
    response = client.post(url, form_data(series, rows, initial=1))
    assert response.status_code == 200
    assert "events you organise" in response.content.decode()
    assert not SeriesCompetition.objects.filter(competition=foreign).exists()


def test_a_staff_member_changes_only_series_they_organise(league, client):
    series, member, _free, _blokus = league
    staff = UserFactory(username="staff-stranger", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="events", codename__contains="series")
    )
    client.force_login(staff)
    url = reverse("admin:events_series_change", args=[series.pk])
    row = existing_row(series) | {"DELETE": "on"}
    response = client.post(url, form_data(series, [row], initial=1))
    assert response.status_code == 200
    assert "Only the series&#x27; organisers may change it." in response.content.decode()
    assert SeriesCompetition.objects.filter(series=series, competition=member).exists()


def test_a_refusal_at_save_time_is_a_message_not_a_500(league, admin_client, monkeypatch):
    """The service refuses what changed between the form's check and the write (a race):
    nothing is written and the page says why."""
    series, _member, free, _blokus = league

    def refused(**kwargs):
        raise Invalid({"competition": ["That competition does not exist (any more)."]})

    monkeypatch.setattr(services, "series_join", refused)
    url = reverse("admin:events_series_change", args=[series.pk])
    rows = [existing_row(series), {"competition": str(free.pk)}]
    response = admin_client.post(url, form_data(series, rows, initial=1), follow=True)
    assert response.status_code == 200
    assert "does not exist (any more)" in response.content.decode()
    assert not SeriesCompetition.objects.filter(competition=free).exists()
    assert Series.objects.get(pk=series.pk).name == "League"


def test_the_admin_checks_the_formula_and_the_format(season, admin_client):
    series, nights, _players = season
    url = reverse("admin:events_series_change", args=[series.pk])
    assert admin_client.get(url).status_code == 200
    data = {
        "name": "Winter",
        "slug": series.slug,
        "kind": "placement",
        "table": "3,x",
        "drop_worst": "0",
        "min_events": "1",
        "final_counts": "on",
        "is_public": "on",
        "members-TOTAL_FORMS": "0",
        "members-INITIAL_FORMS": "0",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "whole numbers separated by commas" in response.content.decode()
    assert Series.objects.get(pk=series.pk).table == ""
