"""Helpers for the tests of the formats' database seat checks (events/seat_checks.py)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from django.db import IntegrityError, connection, transaction

from events.models import Seat
from events.seat_checks import applied_checks, check_message, install_sql, trigger_names

SEAT_COLUMNS = ("position", "colour", "score", "points")


def migration(app: str, name: str) -> ModuleType:
    return importlib.import_module(f"{app}.migrations.{name}")


def accepted(write: Callable[[], Any]) -> bool:
    """Whether the database stores ``write``; a refusal must be a seat check's, in words."""
    try:
        with transaction.atomic():
            write()
    except IntegrityError as exc:
        assert check_message(str(exc)), f"not a seat check's refusal: {exc}"
        return False
    return True


def stored(seat: Seat) -> tuple[Any, ...]:
    return tuple(Seat.objects.filter(pk=seat.pk).values_list(*SEAT_COLUMNS).get())


def refused_everywhere(seat: Seat, **values: Any) -> None:
    """``values`` written to ``seat`` by ORM update, model save and raw SQL: each refused,
    the row left as it was."""
    before = stored(seat)

    def save() -> None:
        fresh = Seat.objects.get(pk=seat.pk)
        for name, value in values.items():
            setattr(fresh, name, value)
        fresh.save()

    def raw() -> None:
        columns = ", ".join(f"{name} = %s" for name in values)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Seat._meta.db_table} SET {columns} WHERE id = %s",
                [*values.values(), seat.pk],
            )

    for write in (lambda: Seat.objects.filter(pk=seat.pk).update(**values), save, raw):
        assert not accepted(write), values
        assert stored(seat) == before


@contextmanager
def check_off(key: str) -> Iterator[None]:
    """The format's seat check off for the block: a row written here stands for one restored
    from a backup older than the check (or a raw SQL fix with triggers disabled).

    PostgreSQL: the seat trigger's function is made a no-op and put back (ALTER TABLE ...
    DISABLE TRIGGER is refused while the test's transaction has deferred checks pending)."""
    check = next(c for c in applied_checks() if c.key == key)
    function = f"seat_check_{key}_seat"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql "
                "AS $f$ BEGIN RETURN NEW; END $f$"
            )
        else:
            for name in trigger_names(key, "sqlite"):
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
    try:
        yield
    finally:
        statements = install_sql(key, check.allowed, check.message, connection.vendor)
        if connection.vendor == "postgresql":
            statements = [
                s for s in statements if s.startswith(f"CREATE OR REPLACE FUNCTION {function}(")
            ]
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
