"""The correction trail (``events.models.trail``): a line kept as its recipe reads in the reader's
language, and a database refusal is told in words, never by a constraint's name."""

from __future__ import annotations

from django.utils import translation

from events.models import Correction
from events.models.trail import constraint_message
from tests.support.factories import CompetitionFactory


def test_a_line_with_a_recipe_reads_in_the_readers_language_and_text_stays_text(db):
    correction = Correction.objects.create(
        competition=CompetitionFactory(),
        item="Table 3",
        before="12",
        after="14",
        note="typo",
        source="desk",
        words={"item": {"t": "Table %(number)s", "p": {"number": "3"}}},
    )
    with translation.override("et"):
        assert correction.item_shown == "Laud 3"
        assert (correction.before_shown, correction.after_shown) == ("12", "14")
        assert correction.note_shown == "typo"
    with translation.override("en"):
        assert correction.item_shown == "Table 3"
    correction.words = ["not", "a", "recipe"]  # an old row: its texts as they are
    assert correction.item_shown == "Table 3"


def test_a_database_refusal_is_told_in_words():
    # SQLite names a unique constraint's columns, PostgreSQL its name.
    sqlite = "UNIQUE constraint failed: events_seat.game_id, events_seat.entry_id"
    assert constraint_message(sqlite) == "The player already has a seat in this game."
    postgres = 'duplicate key value violates unique constraint "entry_one_per_player"'
    assert constraint_message(postgres) == "The player is already entered in this competition."
    check = 'new row violates check constraint "seat_points_not_negative"'
    assert constraint_message(check) == "Points cannot be negative."
    assert constraint_message("disk I/O error").startswith("it conflicts with data stored")
