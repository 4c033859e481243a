"""The machinery of the formats' database seat checks (events/seat_checks.py), whatever the
format: installed by the migrations, put back after a SQLite table rebuild, read in words."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.writer import MigrationWriter

from events.seat_checks import (
    MARK,
    SeatValuesCheck,
    applied_checks,
    check_message,
    install_sql,
    installed_triggers,
    reinstall_checks,
    remove_sql,
    trigger_names,
)

pytestmark = pytest.mark.django_db


def test_every_format_check_of_the_migrations_is_installed():
    checks = applied_checks()
    assert checks, "the format apps install their seat checks"
    present = installed_triggers()
    for check in checks:
        assert set(trigger_names(check.key, connection.vendor)) <= present, check.key


def test_a_check_dropped_by_a_table_rebuild_is_put_back_after_migrate():
    check = applied_checks()[0]
    with connection.cursor() as cursor:
        for statement in remove_sql(check.key, connection.vendor):
            cursor.execute(statement)
    assert not set(trigger_names(check.key, connection.vendor)) & installed_triggers()
    reinstall_checks(plan=[])
    if connection.vendor == "sqlite":
        assert set(trigger_names(check.key, "sqlite")) <= installed_triggers()
    else:  # PostgreSQL keeps triggers through ALTER TABLE: nothing to repair
        with connection.cursor() as cursor:
            for statement in install_sql(check.key, check.allowed, check.message, "postgresql"):
                cursor.execute(statement)
        assert set(trigger_names(check.key, "postgresql")) <= installed_triggers()


def test_the_sentence_is_found_in_each_database_error_text():
    sentence = "A seat holds a colour of its game."
    postgres = f"{sentence} {MARK}\nCONTEXT:  PL/pgSQL function seat_check_x_seat() line 3"
    assert check_message(postgres) == sentence
    assert check_message(f"{sentence} {MARK}") == sentence
    assert check_message("UNIQUE constraint failed: events_seat.game_id") is None


def test_the_operation_serialises_and_refuses_what_it_cannot_carry():
    operation = SeatValuesCheck(key="x", allowed="{seat}.score IS NULL", message="No score.")
    text, imports = MigrationWriter.serialize(operation)
    assert "events.seat_checks" in " ".join(imports) and "No score." in text
    for bad in [{"key": "x; DROP"}, {"message": "two\nlines"}, {"message": f"x {MARK}"}]:
        with pytest.raises(ValueError):
            SeatValuesCheck(**{"key": "x", "allowed": "1 = 1", "message": "m", **bad})
