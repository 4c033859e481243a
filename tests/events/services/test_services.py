from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError

from events import services
from events.errors import ServiceError
from events.exchange import players as players_import
from events.formats import all_formats
from events.models import Competition, Entry, Event, Player, fold
from tests.support.factories import CompetitionFactory, EntryFactory, HostClubFactory, PlayerFactory


def test_it_folds_case_and_accents():
    assert fold("Õie SÖÖT") == "oie soot"
    assert fold("  Åsa   Øberg ") == "asa oberg"
    assert fold("Straße Łódź") == "strasse lodz"


def test_it_creates_an_event_with_its_organiser_and_a_unique_slug(organiser):
    first = services.event_create(
        name="LinCon 2026",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 8),
        time_zone="Europe/Stockholm",
        organiser=organiser,
    )
    second = services.event_create(
        name="LinCon 2026",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 5),
        time_zone="Europe/Stockholm",
        organiser=organiser,
    )
    assert (first.slug, second.slug) == ("lincon-2026", "lincon-2026-2")
    assert list(first.organisers.all()) == [organiser]


def test_it_never_gives_an_event_a_slug_the_desk_urls_use(organiser):
    event = services.event_create(
        name="New",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 5),
        time_zone="UTC",
        organiser=organiser,
    )
    assert event.slug == "new-2"


def test_it_refuses_an_event_that_ends_before_it_starts(organiser):
    with pytest.raises(services.ValidationError) as info:
        services.event_create(
            name="Backwards",
            starts_on=dt.date(2026, 5, 5),
            ends_on=dt.date(2026, 5, 4),
            time_zone="Europe/Tallinn",
            organiser=organiser,
        )
    assert "ends_on" in info.value.message_dict
    assert not Event.objects.filter(name="Backwards").exists()


def test_it_refuses_an_unknown_time_zone(organiser):
    with pytest.raises(services.ValidationError):
        services.event_create(
            name="Nowhere",
            starts_on=dt.date(2026, 5, 5),
            ends_on=dt.date(2026, 5, 5),
            time_zone="Mars/Olympus",
            organiser=organiser,
        )


@pytest.mark.parametrize("fmt", [f.key for f in all_formats()])
def test_it_creates_a_competition_with_default_settings(event, fmt):
    competition = services.competition_create(event=event, name="Main", format=fmt)
    assert competition.settings
    competition.full_clean()


def test_it_bumps_the_event_version_when_a_competition_is_added(event):
    before = event.version
    services.competition_create(event=event, name="Sjoelen", format="shuffleboard")
    event.refresh_from_db()
    assert event.version == before + 1


def test_it_refuses_settings_the_format_forbids(competition):
    with pytest.raises(ServiceError):
        services.competition_update_settings(
            competition=competition, settings={**competition.settings, "capacity": 10}
        )
    competition.refresh_from_db()
    assert competition.settings["capacity"] == 12


def test_it_refuses_stored_settings_with_unknown_keys(competition):
    competition.settings = {**competition.settings, "colour": "pink"}
    with pytest.raises(services.ValidationError):
        competition.full_clean()


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


CSV_OK = (
    "\ufeffname;club;email;rating\n"
    "Õie Sööt;Tallinna Lauamänguklubi;oie@example.ee;1620\n"
    "Anna Lindqvist;LinCon;;\n"
).encode()


def test_it_imports_a_csv_with_bom_and_semicolons(competition):
    result = players_import.players_import_csv(competition=competition, data=CSV_OK)
    assert (result.created, result.reused) == (2, 0)
    oie = Player.objects.get(name="Õie Sööt")
    assert (oie.rating, oie.email) == (1620, "oie@example.ee")
    assert Player.objects.get(name="Anna Lindqvist").rating == 1500
    assert Entry.objects.filter(competition=competition).count() == 2


def test_it_imports_a_csv_with_commas_and_no_header_reusing_known_players(competition):
    known = PlayerFactory(name="Jüri Tamm", club="Tartu")
    data = b'JURI TAMM,tartu,,\n"Mari Kask, jr",Tartu,,1700\n'
    result = players_import.players_import_csv(competition=competition, data=data)
    assert (result.created, result.reused) == (1, 1)
    assert Entry.objects.filter(competition=competition, player=known).exists()
    assert Player.objects.filter(name="Mari Kask, jr").exists()


def test_it_lists_every_bad_row_and_imports_nothing(competition):
    EntryFactory(competition=competition, player=PlayerFactory(name="Taken", club=""))
    data = (
        b"name,club,email,rating\n"
        b"Good Person,Club,,\n"
        b",Club,,\n"
        b"Bad Mail,Club,nope,\n"
        b"Bad Rating,Club,,-5\n"
        b"Good Person,club,,\n"
        b"Taken,,,\n"
        b"Too,Many,Columns,1500,extra\n"
    )
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    lines = [p.line for p in info.value.problems]
    assert lines == [3, 4, 5, 6, 7, 8]
    reasons = {p.line: p.reason for p in info.value.problems}
    assert "name is missing" in reasons[3]
    assert "“nope” is not an e-mail address" in reasons[4]
    assert "“-5” is not a whole number" in reasons[5]
    assert "same player as line 2" in reasons[6]
    assert "already registered" in reasons[7]
    assert "5 columns" in reasons[8]
    assert not Player.objects.filter(name="Good Person").exists()
    assert Entry.objects.filter(competition=competition).count() == 1


def test_it_reads_a_csv_that_is_not_utf8_as_windows_1252(competition):
    players_import.players_import_csv(competition=competition, data="Sööt;x".encode("cp1252"))
    assert Player.objects.filter(name="Sööt", club="x").exists()


def test_it_refuses_a_binary_file(competition):
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=b"\x00\x01binary")
    assert "not text" in info.value.problems[0].reason


def test_it_refuses_an_empty_csv(competition):
    with pytest.raises(players_import.CsvImportError):
        players_import.players_import_csv(
            competition=competition, data=b"name,club,email,rating\n\n"
        )


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


def test_settings_are_locked_once_the_competition_runs(competition):
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    competition.refresh_from_db()
    with pytest.raises(ServiceError) as info:
        services.competition_update_settings(competition=competition, settings=competition.settings)
    assert info.value.code == "settings_locked"


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


# --- review findings ------------------------------------------------------------------------


@pytest.mark.parametrize("rating", ["²", "١٢٣", "1e3", "+5"])
def test_csv_refuses_ratings_that_are_not_plain_digits(competition, rating):
    data = f"name,club,email,rating\nSup Er,X,,{rating}\n".encode()
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    assert info.value.problems[0].line == 2


def test_csv_refuses_an_email_longer_than_the_register_keeps(competition):
    email = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"
    data = f"name,club,email\nLong Mail,X,{email}\n".encode()
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=data)
    assert "is not an e-mail address" in info.value.problems[0].reason
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "text",
    [
        "\nname,club\nReal Two,X\n",
        "Player,Club\nReal Two,X\n",
        "sep=;\nname;club\nReal Two;X\n",
        "name\tclub\nReal Two\tX\n",
    ],
)
def test_csv_headers_and_separators_are_not_imported_as_players(competition, text):
    players_import.players_import_csv(competition=competition, data=text.encode())
    assert list(Player.objects.values_list("name", "club")) == [("Real Two", "X")]


def test_csv_refuses_an_unterminated_quote(competition):
    with pytest.raises(players_import.CsvImportError):
        players_import.players_import_csv(competition=competition, data=b'"unterminated,X\nB,Y\n')
    assert not Player.objects.exists()


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


# --- one person, one row --------------------------------------------------------------------


def test_the_person_key_is_folded_name_bar_folded_club_and_cannot_be_faked():
    from events.models import person_key

    assert services.person_key(" Õie  SÖÖT ", "Tallinn") == "oie soot|tallinn"
    assert person_key("Anna|Berg", "") != person_key("Anna", "Berg|")
    assert person_key("A\\", "|B") != person_key("A\\|", "B")


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


def test_a_true_homonym_is_recorded_with_a_number_and_the_desk_still_refuses_a_third(competition):
    Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund")
    Player.objects.create(
        host=HostClubFactory(), name="Bo Ek", club="Lund", homonym=1
    )  # what an admin does
    with pytest.raises(ServiceError) as info:
        services.player_register_new(competition=competition, name="Bo Ek", club="Lund")
    assert info.value.code == "player_exists"
    assert Player.objects.count() == 2


def test_a_csv_row_names_the_first_of_homonyms(competition):
    first = Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund")
    Player.objects.create(host=HostClubFactory(), name="Bo Ek", club="Lund", homonym=1)
    result = players_import.players_import_csv(competition=competition, data=b"Bo Ek,Lund\n")
    assert (result.created, result.reused) == (0, 1)
    assert Entry.objects.get(competition=competition).player == first


def test_a_csv_whose_rows_are_all_registered_reports_each_row(competition):
    players_import.players_import_csv(competition=competition, data=b"Bo Ek,Lund\nCe Dur,\n")
    with pytest.raises(players_import.CsvImportError) as info:
        players_import.players_import_csv(competition=competition, data=b"Bo Ek,Lund\nCe Dur,\n")
    assert [p.line for p in info.value.problems] == [1, 2]
    assert Entry.objects.filter(competition=competition).count() == 2


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


# --- submission tokens and one transaction per action ---------------------------------------


def test_a_submission_token_works_once_and_remembers_where_it_led(competition):
    services.player_register_new(competition=competition, name="Ann", submission="t1")
    with pytest.raises(services.AlreadySubmitted) as info:
        services.player_register_new(competition=competition, name="Ann", submission="t1")
    assert info.value.code == "already_submitted"
    assert info.value.url == competition.get_desk_url()
    assert Entry.objects.filter(competition=competition).count() == 1


def test_old_submission_tokens_are_removed(db):
    from django.utils import timezone

    from events.models import SubmissionToken

    old = SubmissionToken.objects.create(token="old")
    SubmissionToken.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - dt.timedelta(days=2)
    )
    services.submission_use("new")
    assert list(SubmissionToken.objects.values_list("token", flat=True)) == ["new"]


def test_new_event_makes_the_event_and_its_competition_or_neither(organiser):
    from django.core.exceptions import ValidationError

    args = {
        "name": "Sjoel Open",
        "starts_on": dt.date(2026, 5, 5),
        "ends_on": dt.date(2026, 5, 5),
        "time_zone": "Europe/Amsterdam",
        "organiser": organiser,
        "competition_name": "Main",
    }
    with pytest.raises(ValidationError):
        services.event_create_with_competition(**args, competition_format="no-such-format")
    assert not Event.objects.exists()
    competition = services.event_create_with_competition(**args, competition_format="blokus")
    assert competition.event.organisers.get() == organiser
