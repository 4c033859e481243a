"""Erasure and its marks (events/signups/services/privacy.py): an
erased person's pseudonym, where it sorts, and how an erased player is told apart."""

from __future__ import annotations

import re

import pytest

from events import selectors
from events.models import Entry
from events.signups.services import (
    privacy,
)
from tests.support.factories import EntryFactory, PlayerFactory


@pytest.mark.django_db
def test_an_erased_person_has_a_pseudonym_without_a_word_sorted_after_real_names(
    client, competition
):
    for name, email in (
        ("Anna Berg", "anna@example.org"),
        ("Öie Tamm", "oie@example.org"),
        ("Aaron Erased", "aaron@example.org"),
    ):
        EntryFactory(competition=competition, player=PlayerFactory(name=name, email=email))
    privacy.person_erase("aaron@example.org")
    erased = Entry.objects.get(competition=competition, player__email="").player
    assert erased.name == f"№ {erased.pk}"
    assert not re.search(r"[A-Za-z]", erased.name)  # no word of any one language
    assert privacy.is_erased(erased)
    names = [e.player.name for e in selectors.entries_for_competition(competition)]
    assert names == ["Anna Berg", "Öie Tamm", erased.name]
    # In the register's search too (a language collation may sort the mark first).
    PlayerFactory(name="Nora Nordin", email="nora@example.org")
    found = [p.name for p in selectors.players_search("no", competition=competition)]
    # "№" folds to "No" in SQLite's search text and not in PostgreSQL's: found or not, it is
    # never before a real name.
    assert found in (["Nora Nordin", erased.name], ["Nora Nordin"])
    # Erased before the change: still erased (a calendar link stays dead).
    old = PlayerFactory(name="x", email="")
    old.name = f"Anonymous {old.pk}"
    old.save()
    assert privacy.is_erased(old)
