"""Rows built once and written back many times.

A world that takes seconds to build through the services (every format's demo, built at a fixed
time) is built by the first test module of a process that needs it, taken as rows, and written
back by one bulk insert per table for every later module of that process, inside the module's
own transaction, as if built again: same rows, same keys, a fraction of the time.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Model


def tables() -> list[type[Model]]:
    """Every concrete table of the installed apps, the many-to-many ones included."""
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def keys_now() -> dict[type[Model], set[object]]:
    """The primary keys each table holds now (before the world is built)."""
    return {model: set(model._base_manager.values_list("pk", flat=True)) for model in tables()}


@dataclass(frozen=True)
class Snapshot:
    rows: dict[type[Model], list[Model]]

    @classmethod
    def since(cls, before: dict[type[Model], set[object]]) -> Snapshot:
        """The rows written since ``before`` was taken."""
        rows = {}
        for model in tables():
            new = [row for row in model._base_manager.all() if row.pk not in before.get(model, ())]
            if new:
                rows[model] = new
        return cls(rows)

    def write(self) -> None:
        """Insert the rows again, keys and all (the database checks foreign keys at commit, so
        the order of tables does not matter), and move each table's sequence past them."""
        for model, rows in self.rows.items():
            model._base_manager.bulk_create(rows, batch_size=500)
        reset = connection.ops.sequence_reset_sql(no_style(), list(self.rows))
        if reset:
            with connection.cursor() as cursor:
                for statement in reset:
                    cursor.execute(statement)
