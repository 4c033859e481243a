"""A whole event written out as one versioned JSON document (``export_event``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from events.exchange.document.series import series_section
from events.exchange.document.tables import (
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    EVENTS,
    HOST_FIELDS,
    PLAYERS,
    Codec,
    Table,
    all_tables,
    format_module,
    has_history,
    is_user_fk,
    plain_value,
    relation_target,
    user_model,
)
from events.models import Competition, Correction, Event, HostClub, Player
from events.signups.models import SignUp


class _Exporter:
    def __init__(self, event: Event) -> None:
        self.event = event
        self.file_ids: dict[tuple[str, Any], int] = {}
        self.usernames: dict[Any, str] = {}
        self.organiser_ids: set[Any] = set()  # who may be named in a player's history
        self.formats: dict[int, str] = {}  # competition pk -> format key

    def remap(self, label: str, pk: Any) -> int | None:
        return self.file_ids.get((label, pk))

    def username(self, pk: Any) -> str | None:
        return self.usernames.get(pk) if pk is not None else None

    def row(self, table_model: type[models.Model], obj: Any, codecs: Mapping[str, Codec]) -> dict:
        label = table_model._meta.label_lower
        data: dict[str, Any] = {"id": self.file_ids[(label, obj.pk)]}
        for model_field in table_model._meta.concrete_fields:
            name, value = model_field.name, getattr(obj, model_field.attname)
            if model_field.is_relation:
                if model_field.related_model in (Event, HostClub):  # the file's own club
                    continue
                if is_user_fk(model_field):
                    data[name] = self.username(value)
                    continue
                target = relation_target(model_field)
                mapped = self.remap(target, value)
                if value is not None and mapped is None:
                    raise RuntimeError(f"{label}.{name} points outside the event: {value}")
                data[name] = mapped
            elif model_field.primary_key:
                continue
            else:
                data[name] = plain_value(value)
        for name, codec in codecs.items():
            data[name] = codec(data[name], self.remap)
        return data

    def dump(self) -> dict[str, Any]:
        event = self.event
        users = user_model()
        through = Event.organisers.through
        roles = list(through.objects.filter(event=event).select_related("user").order_by("pk"))
        tables: dict[str, list[dict]] = {}
        history: dict[str, list[dict]] = {}
        players = list(event_players(event).order_by("pk"))
        rows_by_table: list[tuple[Table | None, list[Any]]] = [(None, players)]
        for spec in all_tables():
            queryset = spec.model._default_manager.filter(**{spec.event_path: event})
            rows_by_table.append((spec, list(queryset.order_by("pk"))))
        # Every user any row names, in one query.
        self.organiser_ids = {role.user_id for role in roles}
        user_ids: set[Any] = set(self.organiser_ids)
        for table, objs in rows_by_table:
            model = table.model if table else Player
            for model_field in model._meta.concrete_fields:
                if is_user_fk(model_field):
                    user_ids |= {getattr(obj, model_field.attname) for obj in objs}
        history_rows = {
            (table.label if table else PLAYERS): self._history(
                table.model if table else Player, objs
            )
            for table, objs in rows_by_table
        }
        history_rows[EVENTS] = self._history(Event, [event])
        self.file_ids[(EVENTS, event.pk)] = 1
        for label, rows in history_rows.items():
            if label != PLAYERS:  # a player's history names only the organisers (see above)
                user_ids |= {getattr(row, "history_user_id", None) for row in rows}
        user_ids.discard(None)
        self.usernames = dict(
            users._default_manager.filter(pk__in=user_ids).values_list("pk", users.USERNAME_FIELD)
        )
        for table, objs in rows_by_table:
            model = table.model if table else Player
            label = model._meta.label_lower
            for index, obj in enumerate(objs, start=1):
                self.file_ids[(label, obj.pk)] = index
            codecs = dict(table.codecs) if table else {}
            secret = set(table.secrets) if table else set()
            rows = []
            for obj in objs:
                if model is Competition:
                    self.formats[obj.pk] = obj.format
                data = self.row(model, obj, codecs)
                for name in secret:
                    data.pop(name, None)
                if model is Correction:
                    data["payload"] = self._payload(obj.competition_id, data["payload"])
                rows.append(data)
            tables[label] = rows
        for label, rows in history_rows.items():
            history[label] = [self._history_row(label, row) for row in rows]
        return {
            "format": DOCUMENT_FORMAT,
            "version": DOCUMENT_VERSION,
            "exported_at": plain_value(timezone.now()),
            "event": {
                f.name: plain_value(getattr(event, f.attname))
                for f in Event._meta.concrete_fields
                if not f.primary_key and f.related_model is not HostClub
            },
            # The hosting club, so that an import can find it again (by its address).
            "host": {name: plain_value(getattr(event.host, name)) for name in HOST_FIELDS},
            "organisers": [self._role(role) for role in roles],
            "tables": tables,
            "history": {label: rows for label, rows in history.items() if rows},
            "series": series_section(event, self.remap, self.usernames, self.organiser_ids),
        }

    def _role(self, role: Any) -> dict[str, Any]:
        data = {"username": self.username(role.user_id)}
        for model_field in type(role)._meta.concrete_fields:
            if not model_field.is_relation and not model_field.primary_key:
                data[model_field.name] = plain_value(getattr(role, model_field.attname))
        return data

    def _payload(self, competition_id: int, payload: Any) -> Any:
        if not isinstance(payload, dict):
            return payload
        return format_module(self.formats[competition_id]).correction_payload(payload, self.remap)

    def _history(self, model: type[models.Model], objs: list[Any]) -> list[Any]:
        if not has_history(model) or not objs:
            return []
        historical = model.history.model  # type: ignore[attr-defined]
        pk_name = model._meta.pk.attname
        # The same rows as a subquery by the event's path (no long list of ids).
        ids: QuerySet[Any, Any]
        if model is Event:
            ids = Event.objects.filter(pk=self.event.pk).values("pk")
        elif model is Player:
            ids = event_players(self.event).values("pk")
        else:
            table = next(t for t in all_tables() if t.model is model)
            ids = model._default_manager.filter(**{table.event_path: self.event}).values("pk")
        return list(
            historical._default_manager.filter(**{f"{pk_name}__in": ids}).order_by(
                "history_date", "history_id"
            )
        )

    def _history_row(self, label: str, row: Any) -> dict[str, Any]:
        historical = type(row)
        model = historical.instance_type
        pk_name = model._meta.pk.attname
        codecs: Mapping[str, Codec] = {}
        secret: set[str] = set()
        for table in all_tables():
            if table.model is model:
                codecs, secret = table.codecs, set(table.secrets)
        data: dict[str, Any] = {}
        for model_field in historical._meta.concrete_fields:
            name, value = model_field.name, getattr(row, model_field.attname)
            if name == "history_id" or name in secret:
                continue
            if name == "history_user" or is_user_fk(model_field):
                if label == PLAYERS and value not in self.organiser_ids:
                    value = None  # an edit made at another event's desk, or by staff
                data[name] = self.username(value)
            elif model_field.attname == pk_name and not model_field.is_relation:
                data["id"] = self.remap(label, value)
            elif model_field.is_relation:
                target = relation_target(model_field)
                if model_field.related_model in (Event, HostClub):
                    continue
                data[name] = self.remap(target, value)
            else:
                data[name] = plain_value(value)
        if model_field_is_pk_relation(model):
            data["id"] = self.remap(label, getattr(row, pk_name))
        for name, codec in codecs.items():
            if name in data:
                data[name] = codec(data[name], self.remap)
        return data


def event_players(event: Event) -> QuerySet[Player]:
    """The players a document holds: those entered, and those a sign-up names (the register
    person the desk joined it to, or its possible duplicate)."""
    named = SignUp.objects.filter(window__competition__event=event)
    return Player.objects.filter(
        Q(entries__competition__event=event)
        | Q(pk__in=named.values("register_person"))
        | Q(pk__in=named.values("possible_duplicate"))
    ).distinct()


def model_field_is_pk_relation(model: type[models.Model]) -> bool:
    """Whether the model's primary key is a one-to-one link (a format's per-game detail)."""
    return bool(model._meta.pk and model._meta.pk.is_relation)


def export_event(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready document (see the module's docstring)."""
    with transaction.atomic():  # one consistent snapshot on PostgreSQL's repeatable reads too
        return _Exporter(event).dump()
