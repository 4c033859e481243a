"""The correction trail in the reader's language: a line written while the
desk read English shows in Swedish, Estonian or Dutch to a reader of those (events.common.words).
Rows written before keep their text."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext_lazy, gettext_noop

from events.common.words import Words, render
from events.models import Correction
from events.services import correction_record
from tests.support.factories import CompetitionFactory

TABLE = gettext_lazy("Table %(number)s")


def test_words_keep_message_ids_and_values_and_render_in_the_active_language():
    words = Words(gettext_noop("Game %(number)s"), number=3)
    assert words.recipe == {"t": "Game %(number)s", "p": {"number": "3"}}
    nested = Words(
        gettext_noop("was game %(number)s of %(player)s"), number=Words(TABLE, number=2), player="Å"
    )
    assert nested.recipe["p"]["number"] == {"t": "Table %(number)s", "p": {"number": "2"}}
    with translation.override("sv"):
        assert str(Words(gettext_noop("Game %(number)s"), number=3)) == "Parti 3"
    assert render("plain text") == "plain text"
    assert render({"t": "Game %(number)s", "p": {}}) == "Game %(number)s"  # values missing
    assert render({"t": 5}) == str({"t": 5}) and render(None) == ""


@pytest.mark.parametrize(
    "language, item", [("en", "Game 3"), ("sv", "Parti 3"), ("nl", "Partij 3")]
)
def test_a_trail_line_written_in_english_reads_in_the_readers_language(db, client, language, item):
    competition = CompetitionFactory(format="shuffleboard", settings={})
    with translation.override("en"):
        correction_record(
            competition=competition,
            item=Words(gettext_noop("Game %(number)s"), number=3),
            before="112",
            after="121",
            source=Correction.Source.DESK,
        )
    stored = Correction.objects.get()
    assert stored.item == "Game 3"  # the writer's words, kept for admin and old readers
    with translation.override(language):
        assert stored.item_shown == item
    client.cookies["django_language"] = language
    page = client.get(competition.get_absolute_url()).content.decode()
    assert item in page and "112" in page and "121" in page


def test_rows_written_before_keep_their_text(db):
    competition = CompetitionFactory(format="shuffleboard", settings={})
    old = Correction.objects.create(
        competition=competition, item="Game 3", before="1", after="2", source="desk"
    )
    with translation.override("sv"):
        assert old.item_shown == "Game 3"
