"""Badges: ten cards of 85 × 54 mm to an A4 sheet, name, number, club and a QR code each."""

from __future__ import annotations

import pytest

from events.printing.badges import COLUMNS, ROWS
from events.printing.contract import NoSuchItem
from events.printing.documents import print_document
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory
from tests.support.printing import embedded_fonts, opened, page_sizes_mm, text_of

pytestmark = pytest.mark.django_db


def test_ten_badges_to_an_a4_page_with_name_number_and_club():
    competition = CompetitionFactory()
    for n in range(23):
        player = PlayerFactory(name=f"Žanna Õun {n}", club=f"Klubi {n}")
        EntryFactory(competition=competition, player=player)
    reader = opened(print_document(competition, "badges", "", "et").content)
    assert COLUMNS * ROWS == 10
    assert page_sizes_mm(reader) == [(210, 297)] * 3
    text = text_of(reader)
    for n in range(23):
        assert f"Žanna Õun {n}" in text and f"Klubi {n}" in text
    numbers = [line for line in text.splitlines() if line.strip().isdigit()]
    assert len(numbers) == 23


def test_one_players_badge_and_an_unknown_one():
    competition = CompetitionFactory()
    entry = EntryFactory(competition=competition, player=PlayerFactory(name="Ülle"))
    EntryFactory(competition=competition, player=PlayerFactory(name="Other"))
    text = text_of(opened(print_document(competition, "badges", f"entry-{entry.pk}", "en").content))
    assert "Ülle" in text and "Other" not in text
    with pytest.raises(NoSuchItem):
        print_document(competition, "badges", "entry-0", "en")


def test_no_players_yet_is_said_on_one_page():
    competition = CompetitionFactory()
    reader = opened(print_document(competition, "badges", "", "en").content)
    assert len(reader.pages) == 1
    assert "Nobody is registered yet." in text_of(reader)


def test_the_badges_embed_only_the_shipped_fonts(caplog):
    competition = CompetitionFactory()
    for name in ("Tõnu Šmidt", "Žanna Ülle", "Иван Петров", "Γιώργος Παπαδόπουλος"):
        EntryFactory(competition=competition, player=PlayerFactory(name=name))
    reader = opened(print_document(competition, "badges", "", "et").content)
    assert embedded_fonts(reader) <= {"DejaVuSansBook", "DejaVuSansBold"}
    assert "missing" not in caplog.text.lower()
    for name in ("Tõnu Šmidt", "Žanna Ülle", "Иван Петров", "Γιώργος Παπαδόπουλος"):
        assert name in text_of(reader)
