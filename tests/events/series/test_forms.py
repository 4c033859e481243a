"""The desk's series forms (``events.series.forms``): the formula's values alone,
the hosting club asked only of someone who runs several, and the competitions offered to join."""

from __future__ import annotations

import datetime as dt

from events.series.forms import JoinForm, SeriesCreateForm
from tests.support.factories import CompetitionFactory, EventFactory, HostClubFactory

DATA = {
    "name": "Winter",
    "format": "shuffleboard",
    "kind": "placement",
    "drop_worst": "0",
    "min_events": "2",
}


def test_the_values_are_the_formulas_alone(db):
    form = SeriesCreateForm(DATA)
    assert form.is_valid(), form.errors
    values = form.values()
    assert (values["drop_worst"], values["min_events"], values["best"]) == (0, 2, None)
    assert "format" not in values and "host" not in values
    assert values["name"] == "Winter" and form.cleaned_data["format"] == "shuffleboard"


def test_the_club_is_asked_only_of_someone_who_runs_several(db):
    one = HostClubFactory(slug="one")
    assert "host" not in SeriesCreateForm(DATA, hosts=[one]).fields
    two = HostClubFactory(slug="two", name="Two")
    form = SeriesCreateForm({**DATA, "host": "two"}, hosts=[one, two])
    assert list(form.fields)[:3] == ["name", "host", "format"]
    assert form.is_valid(), form.errors
    assert form.chosen_host() == two
    assert not SeriesCreateForm({**DATA, "host": "three"}, hosts=[one, two]).is_valid()


def test_the_competitions_offered_name_their_event_and_day(db):
    event = EventFactory(name="Night 1", starts_on=dt.date(2026, 1, 5), ends_on=dt.date(2026, 1, 5))
    competition = CompetitionFactory(event=event, name="Sjoelen")
    form = JoinForm({"competition": str(competition.pk)}, competitions=[competition])
    assert form.fields["competition"].choices == [
        (competition.pk, "Night 1 · Sjoelen (2026-01-05)")
    ]
    assert form.is_valid() and form.cleaned_data["competition"] == competition.pk
    assert not JoinForm({"competition": "999999"}, competitions=[competition]).is_valid()
