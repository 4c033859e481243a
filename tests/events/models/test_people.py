"""The register's people (``events.models.people``): folding names, one row per person, homonyms."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from events.models import Player, fold
from tests.support.factories import HostClubFactory, PlayerFactory


def test_it_folds_case_and_accents():
    assert fold("Õie SÖÖT") == "oie soot"
    assert fold("  Åsa   Øberg ") == "asa oberg"
    assert fold("Straße Łódź") == "strasse lodz"


def test_every_saved_player_carries_their_key(db):
    player = PlayerFactory(name="Åsa Öberg", club="Kumla")
    assert (player.person_key, player.homonym) == ("asa oberg|kumla", 0)
    player.name = "Åsa Lund"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert player.person_key == "asa lund|kumla"


def test_the_database_refuses_a_second_row_of_one_person(db):
    Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund")
    with pytest.raises(IntegrityError):
        Player.objects.create(host=HostClubFactory(), name="BO EK", club="lund")


def test_the_migration_numbers_existing_duplicates_as_homonyms(db):
    import importlib

    from django.apps import apps as global_apps

    migration = importlib.import_module("events.migrations.0005_player_person_key")
    first = Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund")
    second = Player.objects.create(host=HostClubFactory(), name="Cé Dur", club="")
    # As the rows were before the key: blank, and a second record of the first person.
    Player.objects.filter(pk=second.pk).update(name="bo ek", club="LUND", person_key="", homonym=7)
    Player.objects.filter(pk=first.pk).update(person_key="x")
    migration.fill_person_keys(global_apps, None)
    rows = list(Player.objects.order_by("pk").values_list("person_key", "homonym"))
    assert rows == [("bo ek|lund", 0), ("bo ek|lund", 1)]
