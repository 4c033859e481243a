"""Registering players and the life of an entry (``events.services.entries``): check-in,
withdrawal, reinstatement, and the versions every entry write moves."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from events import services
from events.errors import ServiceError
from events.exchange import players as players_import
from events.models import Competition, Entry, Player
from tests.support.factories import CompetitionFactory, EntryFactory, HostClubFactory, PlayerFactory


def test_it_registers_a_known_player_and_bumps_the_versions(competition):
    player = PlayerFactory()
    before = (competition.version, competition.event.version)
    entry = services.player_register(competition=competition, player=player)
    competition.refresh_from_db()
    competition.event.refresh_from_db()
    assert entry.player == player
    assert (competition.version, competition.event.version) == (before[0] + 1, before[1] + 1)


def test_it_refuses_a_duplicate_registration_naming_the_player(competition):
    player = PlayerFactory(name="Õie Sööt", club="Tallinn")
    services.player_register(competition=competition, player=player)
    with pytest.raises(ServiceError) as info:
        services.player_register(competition=competition, player=player)
    assert info.value.code == "already_registered"
    assert "Õie Sööt (Tallinn)" in info.value.text
    assert Entry.objects.filter(competition=competition).count() == 1


def test_the_database_refuses_a_duplicate_entry_too(competition):
    player = PlayerFactory()
    Entry.objects.create(competition=competition, player=player)
    with pytest.raises(IntegrityError):
        Entry.objects.create(competition=competition, player=player)


def test_it_registers_a_new_player_in_one_step(competition):
    entry = services.player_register_new(
        competition=competition, name="  Anna   Lindqvist ", club="LinCon", rating=1620
    )
    assert entry.player.name == "Anna Lindqvist"
    assert entry.player.rating == 1620
    assert entry.player.search_text == "anna lindqvist lincon"


def test_it_refuses_a_second_record_of_a_known_person(competition):
    PlayerFactory(name="Õie Sööt", club="Tallinn")
    with pytest.raises(ServiceError) as info:
        services.player_register_new(competition=competition, name="OIE SOOT", club="tallinn")
    assert info.value.code == "player_exists"
    assert Player.objects.count() == 1
    assert not Entry.objects.exists()


def test_it_refuses_a_new_player_with_a_bad_email(competition):
    with pytest.raises(services.ValidationError):
        services.player_register_new(competition=competition, name="X", email="not-an-address")
    assert not Player.objects.exists()


def test_it_checks_in_and_undoes_it(competition):
    entry = EntryFactory(competition=competition)
    services.entry_check_in(entry=entry)
    entry.refresh_from_db()
    assert entry.is_checked_in
    services.entry_undo_check_in(entry=entry)
    entry.refresh_from_db()
    assert entry.checked_in_at is None


def test_it_refuses_a_stale_check_in(competition):
    entry = EntryFactory(competition=competition)
    services.entry_check_in(entry=entry)
    with pytest.raises(ServiceError) as info:
        services.entry_check_in(entry=entry)
    assert info.value.code == "already_checked_in"
    with pytest.raises(ServiceError):
        services.entry_undo_check_in(entry=EntryFactory(competition=competition))


def test_it_withdraws_and_reinstates(competition):
    entry = EntryFactory(competition=competition)
    services.entry_withdraw(entry=entry)
    with pytest.raises(ServiceError):
        services.entry_check_in(entry=entry)
    with pytest.raises(ServiceError):
        services.entry_withdraw(entry=entry)
    services.entry_reinstate(entry=entry)
    entry.refresh_from_db()
    assert entry.withdrawn_at is None
    with pytest.raises(ServiceError):
        services.entry_reinstate(entry=entry)


def test_it_refuses_changes_to_a_finished_competition(competition):
    entry = EntryFactory(competition=competition)
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.FINISHED)
    competition.refresh_from_db()
    with pytest.raises(ServiceError):
        services.player_register(competition=competition, player=PlayerFactory())
    with pytest.raises(ServiceError):
        services.entry_check_in(entry=entry)


def test_competition_version_moves_with_every_entry_write(competition):
    versions = [Competition.objects.get(pk=competition.pk).version]
    entry = services.player_register(competition=competition, player=PlayerFactory())
    for action in (services.entry_check_in, services.entry_withdraw, services.entry_reinstate):
        action(entry=entry)
        versions.append(Competition.objects.get(pk=competition.pk).version)
    assert versions == sorted(set(versions))
    assert len(versions) == 4


def test_other_competitions_are_untouched(competition):
    other = CompetitionFactory()
    before = other.version
    services.player_register(competition=competition, player=PlayerFactory())
    other.refresh_from_db()
    assert other.version == before


def test_a_running_round_robin_withdraws_through_its_own_page(db):
    competition = CompetitionFactory(
        format="roundrobin",
        settings={"max_table_size": 7, "hours_per_move": 24, "rated": True, "colours": "random"},
        status=Competition.Status.RUNNING,
    )
    entry = EntryFactory(competition=competition)
    with pytest.raises(ServiceError) as info:
        services.entry_withdraw(entry=entry)
    assert info.value.code == "withdraw_through_format"
    entry.withdrawn_at = entry.registered_at
    entry.save()
    with pytest.raises(ServiceError):
        services.entry_reinstate(entry=entry)


def test_a_round_robin_in_registration_withdraws_at_the_desk(db):
    competition = CompetitionFactory(
        format="roundrobin",
        settings={"max_table_size": 7, "hours_per_move": 24, "rated": True, "colours": "random"},
    )
    entry = services.entry_withdraw(entry=EntryFactory(competition=competition))
    assert entry.is_withdrawn


def test_a_check_in_cannot_be_undone_once_the_competition_runs(competition):
    entry = services.entry_check_in(entry=EntryFactory(competition=competition))
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    with pytest.raises(ServiceError) as info:
        services.entry_undo_check_in(entry=entry)
    assert info.value.code == "undo_while_running"
    entry.refresh_from_db()
    assert entry.is_checked_in


def test_invisible_characters_do_not_make_a_name(competition):
    with pytest.raises(services.ValidationError):
        services.player_register_new(competition=competition, name="\u200b")
    entry = services.player_register_new(competition=competition, name="An\u200bna")
    assert entry.player.name == "An na"


def test_a_name_and_a_club_are_not_confused_with_a_longer_name(competition):
    services.player_register_new(competition=competition, name="Anna Berg")
    entry = services.player_register_new(competition=competition, name="Anna", club="Berg")
    assert (entry.player.name, entry.player.club) == ("Anna", "Berg")
    data = b"name,club\nAnna,Berg\nAnna Berg,\n"
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    assert [p.line for p in info.value.problems] == [2, 3]
    assert all("already registered" in p.reason for p in info.value.problems)
    assert Player.objects.count() == 2


def test_a_true_homonym_is_recorded_with_a_number_and_the_desk_still_refuses_a_third(competition):
    Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund")
    Player.objects.create(
        host=HostClubFactory(), name="Bo Ek", club="Lund", homonym=1
    )  # what an admin does
    with pytest.raises(ServiceError) as info:
        services.player_register_new(competition=competition, name="Bo Ek", club="Lund")
    assert info.value.code == "player_exists"
    assert Player.objects.count() == 2
