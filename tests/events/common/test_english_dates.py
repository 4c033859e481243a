"""English pages write dates day-month-year: the site's English is read in
Sweden, Estonia and the Netherlands (config/formats/en)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import formats, translation

from tests.support.factories import EventFactory

DAY = dt.date(2026, 12, 2)


@pytest.mark.parametrize(
    "language, short, long",
    [
        ("en", "02/12/2026", "2 Dec 2026"),
        ("sv", "2026-12-02", "2 december 2026"),
        ("nl", "2-12-2026", "2 december 2026"),
        ("et", "02.12.2026", "2. detsember 2026"),
    ],
)
def test_dates_read_day_month_year_in_every_language(language, short, long):
    with translation.override(language):
        assert formats.date_format(DAY, "SHORT_DATE_FORMAT") == short
        assert formats.date_format(DAY) == long


def test_an_english_event_page_says_2_december(client, db):
    event = EventFactory(starts_on=DAY, ends_on=DAY, language="en")
    page = client.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en")
    assert "2 Dec 2026" in page.content.decode()
    assert "Dec. 2, 2026" not in page.content.decode()


def test_english_forms_take_iso_and_day_month_year_dates():
    from django import forms

    class DayForm(forms.Form):
        day = forms.DateField()

    with translation.override("en"):
        for typed in ("2026-12-02", "02/12/2026"):
            form = DayForm({"day": typed})
            assert form.is_valid(), typed
            assert form.cleaned_data["day"] == DAY
