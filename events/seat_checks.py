"""Database checks of what one seat may state, per format: the last line behind the
formats' services, so that no path (admin, raw ORM ``update()``, ``bulk_create``, raw SQL)
stores a seat no rule of its format allows.

The shared ``events.Seat`` holds every format's results, and ``events`` never names a format:
so each format app installs its own check from a migration with :class:`SeatValuesCheck`,
giving its key, a SQL condition on one seat (``{seat}.position``, ``.colour``, ``.score``,
``.points``; the values inlined in the migration, which is frozen history) and the sentence a
person reads when it is broken. The operation installs database triggers (PostgreSQL: plpgsql
functions raising ``check_violation``; SQLite: ``RAISE(ABORT, ...)``), both of which reach
Python as ``IntegrityError``, refusing:

- a seat written (insert or update) in a game of a competition of that format whose values
  break the condition;
- a game, round or session moved into a competition of that format, or a competition's
  ``format`` changed to it, while a seat below it breaks the condition.

Rows stored before a check was installed are not checked (a migration never fails on an old
backup); they are still shown as "needs attention" by the selectors and refused as soon as
they are written again other than into an allowed state.

``check_message(error_text)`` finds the sentence in a database error text (the trigger ends it
with :data:`MARK`), translated, so a page shows it instead of a constraint name or a 500.

SQLite drops a table's triggers when a migration rebuilds the table (most ``AlterField`` and
``AddConstraint`` operations do). ``reinstall_checks`` runs after every ``migrate`` (the
``post_migrate`` signal, connected in ``EventsConfig.ready``) and puts back, from the applied
migrations, any check that went missing that way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.utils.translation import gettext

from events.errors import Invalid, refuse

MARK = "[seat check]"
_KEY = re.compile(r"^[a-z][a-z0-9_]{0,30}$")
_MESSAGE = re.compile(r"([^\n]*?)\s*" + re.escape(MARK))

# The shared tables and the columns that link them (events' own; no format is named here).
SEAT, GAME, ROUND, SESSION, COMPETITION = (
    "events_seat",
    "events_game",
    "events_round",
    "events_session",
    "events_competition",
)


def check_message(error_text: str) -> str | None:
    """The sentence of a seat check in a database error text, translated; None for any other
    error."""
    found = _MESSAGE.search(error_text)
    if found is None:
        return None
    sentence = found.group(1).strip()
    # PostgreSQL prefixes nothing; some drivers add "ERROR:  " before the message.
    sentence = sentence.removeprefix("ERROR:").strip()
    return gettext(sentence)


@contextmanager
def seat_writes() -> Iterator[None]:
    """Seat writes of a service, in a savepoint: a seat check the database refuses becomes
    ``Invalid`` with the check's sentence (the services check every value first, so this meets
    only a seat an old backup or a raw SQL fix left impossible, written again)."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        message = check_message(str(exc))
        if message is None:
            raise
        raise refuse(message, error_class=Invalid, code="seat_check") from exc


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _broken(allowed: str, seat: str) -> str:
    """True when the seat breaks ``allowed``; a NULL (unknown) counts as broken."""
    return f"(CASE WHEN ({allowed.format(seat=seat)}) THEN 0 ELSE 1 END = 1)"


def _conditions(key: str, allowed: str) -> dict[str, tuple[str, str]]:
    """Per table: (the condition on NEW and OLD that refuses the row, the column an UPDATE
    must set to be checked; none for a seat, checked on every insert and update)."""
    fmt = _quoted(key)
    seat_format = (
        f"(SELECT c.format FROM {GAME} g JOIN {ROUND} r ON r.id = g.round_id "
        f"JOIN {SESSION} se ON se.id = r.session_id "
        f"JOIN {COMPETITION} c ON c.id = se.competition_id WHERE g.id = NEW.game_id)"
    )
    game_format = (
        f"(SELECT c.format FROM {ROUND} r JOIN {SESSION} se ON se.id = r.session_id "
        f"JOIN {COMPETITION} c ON c.id = se.competition_id WHERE r.id = NEW.round_id)"
    )
    round_format = (
        f"(SELECT c.format FROM {SESSION} se JOIN {COMPETITION} c ON c.id = se.competition_id "
        f"WHERE se.id = NEW.session_id)"
    )
    session_format = f"(SELECT c.format FROM {COMPETITION} c WHERE c.id = NEW.competition_id)"
    bad = _broken(allowed, "s")
    below_game = f"EXISTS (SELECT 1 FROM {SEAT} s WHERE s.game_id = NEW.id AND {bad})"
    below_round = (
        f"EXISTS (SELECT 1 FROM {SEAT} s JOIN {GAME} g ON g.id = s.game_id "
        f"WHERE g.round_id = NEW.id AND {bad})"
    )
    below_session = (
        f"EXISTS (SELECT 1 FROM {SEAT} s JOIN {GAME} g ON g.id = s.game_id "
        f"JOIN {ROUND} r ON r.id = g.round_id WHERE r.session_id = NEW.id AND {bad})"
    )
    below_competition = (
        f"EXISTS (SELECT 1 FROM {SEAT} s JOIN {GAME} g ON g.id = s.game_id "
        f"JOIN {ROUND} r ON r.id = g.round_id JOIN {SESSION} se ON se.id = r.session_id "
        f"WHERE se.competition_id = NEW.id AND {bad})"
    )
    return {
        SEAT: (f"{seat_format} = {fmt} AND {_broken(allowed, 'NEW')}", ""),
        GAME: (
            f"NEW.round_id <> OLD.round_id AND {game_format} = {fmt} AND {below_game}",
            "round_id",
        ),
        ROUND: (
            f"NEW.session_id <> OLD.session_id AND {round_format} = {fmt} AND {below_round}",
            "session_id",
        ),
        SESSION: (
            f"NEW.competition_id <> OLD.competition_id AND {session_format} = {fmt} "
            f"AND {below_session}",
            "competition_id",
        ),
        COMPETITION: (
            f"NEW.format <> OLD.format AND NEW.format = {fmt} AND {below_competition}",
            "format",
        ),
    }


def _name(key: str, table: str, suffix: str = "") -> str:
    return f"seat_check_{key}_{table.removeprefix('events_')}{suffix}"


def trigger_names(key: str, vendor: str) -> list[str]:
    """The database triggers of a format's check (what tests and the repair look for)."""
    names = []
    for table in (SEAT, GAME, ROUND, SESSION, COMPETITION):
        if vendor == "sqlite" and table == SEAT:
            names += [_name(key, table, "_insert"), _name(key, table, "_update")]
        else:
            names.append(_name(key, table))
    return names


def install_sql(key: str, allowed: str, message: str, vendor: str) -> list[str]:
    """The statements that install (or replace) a format's check on ``vendor``."""
    text = f"{message} {MARK}"
    sql: list[str] = []
    for table, (condition, update_of) in _conditions(key, allowed).items():
        if vendor == "postgresql":
            function = _name(key, table)
            event = "INSERT OR UPDATE" if table == SEAT else f"UPDATE OF {update_of}"
            raise_it = (
                f"RAISE EXCEPTION USING ERRCODE = 'check_violation', MESSAGE = {_quoted(text)}"
            )
            sql += [
                f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $f$\n"
                f"BEGIN\n  IF {condition} THEN\n    {raise_it};\n  END IF;\n"
                "  RETURN NEW;\nEND\n$f$",
                f"DROP TRIGGER IF EXISTS {function} ON {table}",
                f"CREATE TRIGGER {function} BEFORE {event} ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {function}()",
            ]
        elif vendor == "sqlite":
            events = ["INSERT", "UPDATE"] if table == SEAT else [f"UPDATE OF {update_of}"]
            for event in events:
                name = (
                    _name(key, table, "_" + event.lower()) if table == SEAT else _name(key, table)
                )
                sql += [
                    f"DROP TRIGGER IF EXISTS {name}",
                    f"CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW "
                    f"WHEN {condition} BEGIN SELECT RAISE(ABORT, {_quoted(text)}); END",
                ]
        else:
            raise NotImplementedError(
                f"Seat checks are written for PostgreSQL and SQLite, not {vendor}."
            )
    return sql


def remove_sql(key: str, vendor: str) -> list[str]:
    sql = []
    for table in (SEAT, GAME, ROUND, SESSION, COMPETITION):
        if vendor == "postgresql":
            function = _name(key, table)
            sql += [
                f"DROP TRIGGER IF EXISTS {function} ON {table}",
                f"DROP FUNCTION IF EXISTS {function}()",
            ]
    if vendor == "sqlite":
        sql += [f"DROP TRIGGER IF EXISTS {name}" for name in trigger_names(key, vendor)]
    return sql


def _run(schema_editor: BaseDatabaseSchemaEditor, statements: list[str]) -> None:
    for statement in statements:
        schema_editor.execute(statement, params=None)


class SeatValuesCheck(Operation):
    """Install (or replace) the database check of what a seat of format ``key`` may state.

    ``allowed``: a SQL condition, portable between PostgreSQL and SQLite, on ``{seat}``'s
    ``position``, ``colour``, ``score`` and ``points``; a NULL result counts as broken.
    ``message``: the sentence shown when a write breaks it (mark it with ``gettext_noop``).
    ``previous``: the (allowed, message) this replaces, put back when the migration is reversed;
    without it, reversing removes the check.
    """

    reversible = True
    reduces_to_sql = True

    def __init__(
        self,
        key: str,
        allowed: str,
        message: str,
        previous: tuple[str, str] | None = None,
    ) -> None:
        if not _KEY.match(key):
            raise ValueError(f"A format key for a seat check is a short identifier, not {key!r}.")
        if "\n" in message or "%" in message or MARK in message:
            raise ValueError("A seat check's message is one line of plain words.")
        self.key, self.allowed, self.message, self.previous = key, allowed, message, previous

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {"key": self.key, "allowed": self.allowed, "message": self.message}
        if self.previous is not None:
            kwargs["previous"] = self.previous
        return self.__class__.__qualname__, [], kwargs

    def state_forwards(self, app_label: str, state: Any) -> None:
        pass  # triggers are no part of the model state

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: Any,
        to_state: Any,
    ) -> None:
        vendor = schema_editor.connection.vendor
        _run(schema_editor, install_sql(self.key, self.allowed, self.message, vendor))

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: Any,
        to_state: Any,
    ) -> None:
        vendor = schema_editor.connection.vendor
        if self.previous is None:
            _run(schema_editor, remove_sql(self.key, vendor))
        else:
            _run(schema_editor, install_sql(self.key, *self.previous, vendor))

    def describe(self) -> str:
        return f"Database check of the values a {self.key} seat may state"

    @property
    def migration_name_fragment(self) -> str:
        return f"seat_check_{self.key}"


# --- the SQLite repair after migrate ------------------------------------------------------


_APPLIED: dict[str, list[SeatValuesCheck]] = {}


def applied_checks(using: str = DEFAULT_DB_ALIAS) -> list[SeatValuesCheck]:
    """The check of each format as the applied migrations leave it (the last one, in the order
    the migrations ran)."""
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(connections[using], ignore_no_migrations=True)
    order: dict[tuple[str, str], None] = {}
    for leaf in sorted(loader.graph.leaf_nodes()):
        for node in loader.graph.forwards_plan(leaf):
            order.setdefault(node, None)
    last: dict[str, SeatValuesCheck] = {}
    for node in order:
        if node in loader.applied_migrations:
            for operation in loader.graph.nodes[node].operations:
                if isinstance(operation, SeatValuesCheck):
                    last[operation.key] = operation
    return list(last.values())


def installed_triggers(using: str = DEFAULT_DB_ALIAS) -> set[str]:
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        return {row[0] for row in cursor.fetchall()}


def reinstall_checks(using: str = DEFAULT_DB_ALIAS, plan: Any = None, **kwargs: Any) -> None:
    """Put back the checks whose triggers a table rebuild dropped (SQLite only: PostgreSQL
    keeps a table's triggers through ``ALTER TABLE``). Connected to ``post_migrate``; after a
    ``flush`` (no migration plan) the checks found by the last ``migrate`` are reused."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return
    if plan is not None or using not in _APPLIED:
        _APPLIED[using] = applied_checks(using)
    present = installed_triggers(using)
    with connection.cursor() as cursor:
        for check in _APPLIED[using]:
            if not set(trigger_names(check.key, "sqlite")) <= present:
                for statement in install_sql(check.key, check.allowed, check.message, "sqlite"):
                    cursor.execute(statement)
