"""Certificates: the podium's players (from the standings, every format's demo), any one player
on request, the format's line, the date in the event's language, an optional signature."""

from __future__ import annotations

import pytest
from django.utils import translation

from events.formats.registry import part
from events.printing.certificates import place_words
from events.printing.contract import CertificateDetails
from events.printing.documents import print_document
from events.printing.selectors import certificate_rows
from tests.support.printing import opened, page_sizes_mm, png_signature, text_of


def test_place_words():
    assert place_words(1, False) == "First place"
    assert place_words(3, True) == "Third place (shared)"
    assert place_words(7, False) == "Place 7"
    assert place_words(None, False) == "Participant"


def test_certificates_go_to_the_podium_and_to_any_player_asked_for(demo):
    _organiser, competitions = demo
    for competition in competitions:
        podium = certificate_rows(competition)
        assert podium, competition.format
        assert all(row.place in (1, 2, 3) for row in podium)
        assert all(row.entry_id for row in podium)
        one = podium[-1]
        again = certificate_rows(competition, f"entry-{one.entry_id}")
        assert [(r.name, r.place, r.entry_id) for r in again] == [
            (one.name, one.place, one.entry_id)
        ]
        assert certificate_rows(competition, "entry-0") == []


def test_one_a4_landscape_page_per_podium_player_with_place_score_and_date(demo):
    _organiser, competitions = demo
    for competition in competitions:
        podium = certificate_rows(competition)
        reader = opened(print_document(competition, "certificates", "", "et").content)
        assert len(reader.pages) == len(podium)
        assert set(page_sizes_mm(reader)) == {(297, 210)}
        for page, row in zip(reader.pages, podium, strict=True):
            text = page.extract_text()
            assert row.name in text
            assert competition.event.name in text
            assert "2026" in text
        details = part(competition.format, CertificateDetails)
        if details is not None:
            with translation.override("et"):  # the language the certificates printed in
                lines = details.certificate_details(competition)
            for page, row in zip(reader.pages, podium, strict=True):
                if lines.get(row.entry_id):
                    assert lines[row.entry_id] in page.extract_text()


def test_one_players_certificate_and_the_signature(demo):
    _organiser, competitions = demo
    competition = competitions[0]
    entry_id = certificate_rows(competition)[0].entry_id
    plain = print_document(competition, "certificates", f"entry-{entry_id}", "sv").content
    signed = print_document(
        competition, "certificates", f"entry-{entry_id}", "sv", signature=png_signature()
    ).content
    assert len(opened(plain).pages) == 1
    assert "/XObject" not in opened(plain).pages[0]["/Resources"]
    assert "/XObject" in opened(signed).pages[0]["/Resources"]
    assert text_of(opened(signed)) == text_of(opened(plain))


@pytest.mark.parametrize("language,month", [("en", "Jun"), ("sv", "juni"), ("et", "juuni")])
def test_the_date_is_in_the_language_printed(demo, language, month):
    _organiser, competitions = demo
    text = text_of(opened(print_document(competitions[0], "certificates", "", language).content))
    assert month in text
