"""The JSON Schema (draft 2020-12) of the event document, generated from the models and the
``Table`` specs so that it follows them: ``archive_schema()``. The committed copy is
``events/exchange/document/schema.json`` (``manage.py archive_schema -o`` writes it; a test
checks it is current).

It describes the document as this version of the application writes it: every table and every
field of a row is there (``additionalProperties`` false, all required), foreign keys are file ids
(``id`` of a row of the named table) or null, users are usernames, times are ISO text, decimals
and series points are text, JSON fields are any JSON. Secrets (``Table.secrets``) are never in
a file, so they are not in the schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import models

from events.exchange.document.series import SERIES_FIELDS
from events.exchange.document.tables import (
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    EVENTS,
    HOST_FIELDS,
    PLAYERS,
    all_tables,
    has_history,
    is_user_fk,
    relation_target,
)
from events.models import Event, HostClub, Player
from events.series.models import Series

SCHEMA_ID = "https://boardgame-events.example/schema/event-archive-v1.schema.json"

# The committed copy (``manage.py archive_schema -o`` writes it).
SCHEMA_FILE = Path(__file__).with_name("schema.json")
SCHEMA_PATH = "events/exchange/document/schema.json"  # from the repository's root

FILE_ID = {"type": "integer", "minimum": 1}

# Field classes by their JSON form (subclasses match: an EmailField is a CharField).
_STRINGS = (models.CharField, models.TextField, models.UUIDField)
_INTEGERS = (models.IntegerField, models.AutoField)  # every *IntegerField, *AutoField
_FORMATS: tuple[tuple[type[models.Field], dict[str, Any]], ...] = (
    # DateTimeField before DateField: it is one.
    (models.DateTimeField, {"type": "string", "format": "date-time"}),
    (models.DateField, {"type": "string", "format": "date"}),
    (models.TimeField, {"type": "string", "format": "time"}),
    (models.DecimalField, {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"}),
)


def _nullable(schema: dict[str, Any], null: bool) -> dict[str, Any]:
    if not null:
        return schema
    if "type" in schema:
        return {**schema, "type": [schema["type"], "null"]}
    return schema


def field_schema(model_field: Any, *, history: bool = False) -> dict[str, Any]:
    """One plain (not a relation) field's value as the document writes it. Raises TypeError for
    a field class it does not know (add it here: the document must not hold what the schema
    does not describe)."""
    if isinstance(model_field, models.JSONField):
        return {}
    if isinstance(model_field, models.BooleanField):
        schema: dict[str, Any] = {"type": "boolean"}
    elif isinstance(model_field, _INTEGERS):
        schema = {"type": "integer"}
    elif isinstance(model_field, models.FloatField):
        schema = {"type": "number"}
    else:
        for field_class, form in _FORMATS:
            if isinstance(model_field, field_class):
                schema = dict(form)
                break
        else:
            if not isinstance(model_field, _STRINGS):
                raise TypeError(f"{model_field!r}: no JSON form for {type(model_field).__name__}")
            schema = {"type": "string"}
            if isinstance(model_field, models.UUIDField):
                schema["format"] = "uuid"
    if model_field.choices and not history:  # history keeps states renamed since
        values = [value for value, _label in model_field.flatchoices]
        if model_field.blank and "" not in values and isinstance(model_field, _STRINGS):
            values.append("")
        schema["enum"] = values + ([None] if model_field.null else [])
    return _nullable(schema, model_field.null)


def _relation(model_field: Any, *, history: bool = False) -> dict[str, Any]:
    if is_user_fk(model_field):
        return {"type": ["string", "null"], "description": "a username"}
    target = relation_target(model_field)
    # A history row may name a row deleted before the export: null.
    null = history or model_field.null
    return {**_nullable(dict(FILE_ID), null), "description": f"the id of a row of {target}"}


def _object(properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object"}
    if description:
        schema["description"] = description
    schema |= {
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    return schema


def row_schema(model: type[models.Model], secrets: frozenset[str] = frozenset()) -> dict:
    """A row of ``model``'s table (``_Exporter.row``)."""
    properties: dict[str, Any] = {"id": {**FILE_ID, "description": "the row's id in this file"}}
    for model_field in model._meta.concrete_fields:
        name = model_field.name
        if name in secrets:
            continue
        if model_field.is_relation:
            if model_field.related_model in (Event, HostClub):
                continue
            properties[name] = _relation(model_field)
        elif not model_field.primary_key:
            properties[name] = field_schema(model_field)
    return _object(properties, model._meta.label_lower)


def history_row_schema(model: type[models.Model], secrets: frozenset[str] = frozenset()) -> dict:
    """A row of ``model``'s history (``_Exporter._history_row``)."""
    historical = model.history.model  # type: ignore[attr-defined]
    pk_name = model._meta.pk.attname
    properties: dict[str, Any] = {"id": {**FILE_ID, "description": "the id of the row it is of"}}
    for model_field in historical._meta.concrete_fields:
        name = model_field.name
        if name == "history_id" or name in secrets:
            continue
        if name == "history_user" or is_user_fk(model_field):
            properties[name] = {"type": ["string", "null"], "description": "a username"}
        elif model_field.attname == pk_name and not model_field.is_relation:
            continue  # written as "id"
        elif model_field.is_relation:
            if model_field.related_model in (Event, HostClub):
                continue
            properties[name] = _relation(model_field, history=True)
        else:
            properties[name] = field_schema(model_field, history=True)
    return _object(properties, f"a historical row of {model._meta.label_lower}")


def _series_schema() -> dict[str, Any]:
    fields = {f.name: f for f in Series._meta.concrete_fields}
    properties: dict[str, Any] = {"slug": field_schema(fields["slug"])}
    properties |= {name: field_schema(fields[name]) for name in SERIES_FIELDS}
    properties["organisers"] = {
        "type": "array",
        "items": {"type": "string"},
        "description": "usernames of the series' organisers who organise this event too",
    }
    competition = {**FILE_ID, "description": "the id of a row of events.competition"}
    player = {**FILE_ID, "description": "the id of a row of events.player"}
    properties["competitions"] = {
        "type": "array",
        "items": _object({"competition": competition, "is_final": {"type": "boolean"}}),
    }
    properties["results"] = {
        "type": "array",
        "description": "what the series counted from this event (not read on import)",
        "items": _object(
            {
                "competition": competition,
                "player": player,
                "place": {"type": "integer", "minimum": 1},
                "field": {"type": "integer", "minimum": 0},
                "points": {
                    "type": "string",
                    "pattern": r"^-?[0-9]+(/[0-9]+)?$",
                    "description": "a fraction as text: 9, 19/2",
                },
                "total": {"type": "integer"},
                "games": {"type": "integer", "minimum": 0},
            }
        ),
    }
    return _object(properties, "a series a competition of this event counts in, by address")


def archive_schema() -> dict[str, Any]:
    """The JSON Schema of ``export_event``'s document (see the module's docstring)."""
    specs: list[tuple[str, type[models.Model], frozenset[str]]] = [
        (PLAYERS, Player, frozenset[str]())
    ] + [(table.label, table.model, frozenset(table.secrets)) for table in all_tables()]
    tables = {
        label: {"type": "array", "items": row_schema(model, secrets)}
        for label, model, secrets in specs
    }
    with_event: list[tuple[str, type[models.Model], frozenset[str]]] = [
        (EVENTS, Event, frozenset[str]()),
        *specs,
    ]
    history = {
        label: {"type": "array", "items": history_row_schema(model, secrets)}
        for label, model, secrets in with_event
        if has_history(model)
    }
    event = {
        f.name: field_schema(f)
        for f in Event._meta.concrete_fields
        if not f.primary_key and f.related_model is not HostClub
    }
    host = {name: {"type": "string"} for name in HOST_FIELDS}
    through = Event.organisers.through
    role: dict[str, Any] = {"username": {"type": ["string", "null"]}}
    role |= {
        f.name: field_schema(f)
        for f in through._meta.concrete_fields
        if not f.is_relation and not f.primary_key
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Board-game event archive",
        "description": (
            "A whole event as one JSON document (manage.py export_event, the desk's "
            "'Download event (JSON)'), read back by manage.py import_event. References are "
            "file ids: each table's rows are numbered 1, 2, ... and a foreign key holds the id "
            "of the row it names in the table named by its description. Users are named by "
            "username. Private-link tokens are never in the file. Generated by "
            "events.exchange.document.schema.archive_schema (manage.py archive_schema)."
        ),
        "type": "object",
        "properties": {
            "format": {"const": DOCUMENT_FORMAT},
            "version": {"const": DOCUMENT_VERSION},
            "exported_at": {"type": "string", "format": "date-time"},
            "event": _object(event, "the event's fields"),
            "host": _object(host, "the hosting club, found again by its slug when imported"),
            "organisers": {"type": "array", "items": _object(role, "an organiser's role")},
            "tables": _object(tables, "every table's rows, by app label and model"),
            "history": {
                "type": "object",
                "description": "each table's history (django-simple-history), when it has any",
                "properties": history,
                "additionalProperties": False,
            },
            "series": {"type": "array", "items": _series_schema()},
        },
        "required": [
            "format",
            "version",
            "exported_at",
            "event",
            "organisers",
            "tables",
            "history",
            "series",
        ],
        "additionalProperties": False,
    }


def schema_text() -> str:
    """``archive_schema()`` as the committed file holds it (two-space indents, a final newline)."""
    return json.dumps(archive_schema(), ensure_ascii=False, indent=2) + "\n"
