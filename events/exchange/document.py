"""A whole event as one versioned JSON document, and back: ``export_event`` / ``import_event``.

The document::

    {"format": "boardgame-events/event", "version": 1, "exported_at": "...",
     "event": {...the event's fields...},
     "organisers": [{"username": "anna", ...the role's fields}],
     "tables": {"events.player": [{"id": 1, "name": ..., ...}], "events.competition": [...],
                ..., "<app>.<model>": [...]},
     "history": {"events.entry": [{"id": 3, "history_type": "~", "history_user": "anna", ...}]}}

References are natural, never database ids: each row has an ``id`` local to the file (1, 2, ...
per table) and a foreign key holds the file id of the row it names, so a document imports into
a database that already holds other events. Players are matched on import by who they are
(``person_key`` + ``homonym``) and created only when missing (an existing player keeps their
current rating); users (organisers, who corrected, who entered a result, who changed a
history row) are named by username and matched on import; a username the target database does
not know is left out (and listed). Private-link tokens are secrets: they are not exported, and
the import makes new ones (old links stop working).

What a format adds (its own tables, and the ids its JSON values hold) comes from its
``GameFormat.export`` module: ``TABLES`` (:class:`Table`, in insertion order),
``correction_payload(payload, remap)`` (the ids in its correction undo data) and
``standings(competition)`` / ``results(competition)`` (``events.exchange.sheets.Sheet``, for the
CSV and
XLSX downloads of ``events.exchange.sheets``).
``events`` never names a format.

Export costs a constant number of queries per table, whatever the number of players; import
runs in one transaction (nothing is left half-written on an error) with bulk inserts.
History (django-simple-history) comes along for every row that still exists; the history of
rows deleted before the export and the organisers' history are not exported. A player is shared
by every event they play in, so their history also holds edits made at other events' desks: it
is exported whole (their ratings over time), but a row names its user only when that user
organises the exported event; anyone else (another event's organiser, site staff) is exported
as ``null``, as the import already reads an unknown user. Old files, which named everyone,
import as before.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import import_module
from types import ModuleType
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from events import language
from events.errors import Conflict, Invalid, refuse
from events.formats import all_formats, get_format
from events.models import (
    Competition,
    Correction,
    Entry,
    Event,
    Game,
    Player,
    Round,
    Seat,
    Session,
    fold,
    person_key,
)
from events.versions import versions_bump

DOCUMENT_FORMAT = "boardgame-events/event"
DOCUMENT_VERSION = 1

NOT_A_DOCUMENT = _("This file is not an event export of this application.")
UNKNOWN_VERSION = _(
    "This file is version %(version)s of the event export; this version of the application "
    "reads version %(known)s."
)
SLUG_TAKEN = _("An event with the address “%(slug)s” already exists; import it under another one.")
UNKNOWN_FORMAT = _("The file holds a competition of a format this site does not have: %(key)s.")
BROKEN_DOCUMENT = _("The file could not be imported: %(problem)s")

# (label of the table a value points into, the value in the source) -> the value in the target
Remap = Callable[[str, Any], Any]
Codec = Callable[[Any, Remap], Any]


@dataclass(frozen=True)
class Table:
    """One table an event export carries.

    ``event_path`` is the lookup from a row to its event (``"entry__competition__event"``).
    ``codecs`` name the fields whose values hold ids of other rows inside them (a JSON list of
    entry ids): the codec rewrites them with the ``remap`` it is given (to file ids on export,
    to new ids on import). ``secrets`` are fields never exported; on import each gets a fresh
    value from its function.
    """

    model: type[models.Model]
    event_path: str
    codecs: Mapping[str, Codec] = field(default_factory=dict)
    secrets: Mapping[str, Callable[[], Any]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.model._meta.label_lower


def new_token() -> str:
    """A fresh secret for a private link (what the format's own services make)."""
    return secrets.token_urlsafe(32)


def id_list(label: str) -> Codec:
    """A codec for a JSON list of ids of ``label`` rows (ids it cannot map are left out)."""

    def codec(value: Any, remap: Remap) -> Any:
        if not isinstance(value, list):
            return value
        mapped = (remap(label, item) for item in value)
        return [item for item in mapped if item is not None]

    return codec


def id_text(label: str, separator: str = ",") -> Codec:
    """A codec for ids of ``label`` rows joined in a text ("3,7,12"), kept sorted."""

    def codec(value: Any, remap: Remap) -> Any:
        if not isinstance(value, str):
            return value
        mapped = (remap(label, int(item)) for item in value.split(separator) if item.isdigit())
        return separator.join(str(item) for item in sorted(i for i in mapped if i is not None))

    return codec


# The shared tables, in insertion order (players come first and are matched, not copied).
CORE_TABLES: tuple[Table, ...] = (
    Table(Competition, "event"),
    Table(Entry, "competition__event"),
    Table(Session, "competition__event"),
    Table(Round, "session__competition__event"),
    Table(Game, "round__session__competition__event"),
    Table(Seat, "game__round__session__competition__event"),
)
# Last: its undo data names rows of the format tables.
CORRECTION_TABLE = Table(Correction, "competition__event")
PLAYERS = Player._meta.label_lower
EVENTS = Event._meta.label_lower
CORRECTIONS = Correction._meta.label_lower
COMPETITIONS = Competition._meta.label_lower


def format_module(key: str) -> ModuleType | None:
    """The format's export module (``GameFormat.export``), or None when it declares none."""
    game_format = get_format(key)
    return import_module(game_format.export) if game_format.export else None


def all_tables() -> list[Table]:
    tables = list(CORE_TABLES)
    for game_format in all_formats():
        if game_format.export:
            tables += list(import_module(game_format.export).TABLES)
    return [*tables, CORRECTION_TABLE]


def _user_model() -> Any:
    return get_user_model()


def _target(model_field: Any) -> str:
    """The label of the table a foreign key points into (``events.entry``)."""
    return str(model_field.related_model._meta.label_lower)


def _is_user_fk(model_field: models.Field) -> bool:
    return model_field.is_relation and model_field.related_model is _user_model()


def _plain(value: Any) -> Any:
    """A field value as JSON: times and dates as ISO text (to the microsecond), decimals as
    text."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _has_history(model: type[models.Model]) -> bool:
    return hasattr(model, "history") and hasattr(model.history, "model")


# --- export ------------------------------------------------------------------------------------


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
                if model_field.related_model is Event:
                    continue
                if _is_user_fk(model_field):
                    data[name] = self.username(value)
                    continue
                target = _target(model_field)
                mapped = self.remap(target, value)
                if value is not None and mapped is None:
                    raise RuntimeError(f"{label}.{name} points outside the event: {value}")
                data[name] = mapped
            elif model_field.primary_key:
                continue
            else:
                data[name] = _plain(value)
        for name, codec in codecs.items():
            data[name] = codec(data[name], self.remap)
        return data

    def dump(self) -> dict[str, Any]:
        event = self.event
        users = _user_model()
        through = Event.organisers.through
        roles = list(through.objects.filter(event=event).select_related("user").order_by("pk"))
        tables: dict[str, list[dict]] = {}
        history: dict[str, list[dict]] = {}
        players = list(
            Player.objects.filter(entries__competition__event=event).distinct().order_by("pk")
        )
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
                if _is_user_fk(model_field):
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
            "exported_at": _plain(timezone.now()),
            "event": {
                f.name: _plain(getattr(event, f.attname))
                for f in Event._meta.concrete_fields
                if not f.primary_key
            },
            "organisers": [self._role(role) for role in roles],
            "tables": tables,
            "history": {label: rows for label, rows in history.items() if rows},
        }

    def _role(self, role: Any) -> dict[str, Any]:
        data = {"username": self.username(role.user_id)}
        for model_field in type(role)._meta.concrete_fields:
            if not model_field.is_relation and not model_field.primary_key:
                data[model_field.name] = _plain(getattr(role, model_field.attname))
        return data

    def _payload(self, competition_id: int, payload: Any) -> Any:
        module = format_module(self.formats[competition_id])
        if module is None or not isinstance(payload, dict):
            return payload
        return module.correction_payload(payload, self.remap)

    def _history(self, model: type[models.Model], objs: list[Any]) -> list[Any]:
        if not _has_history(model) or not objs:
            return []
        historical = model.history.model  # type: ignore[attr-defined]
        pk_name = model._meta.pk.attname
        # The same rows as a subquery by the event's path (no long list of ids).
        ids: QuerySet[Any, Any]
        if model is Event:
            ids = Event.objects.filter(pk=self.event.pk).values("pk")
        elif model is Player:
            ids = Player.objects.filter(entries__competition__event=self.event).values("pk")
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
            if name == "history_user" or _is_user_fk(model_field):
                if label == PLAYERS and value not in self.organiser_ids:
                    value = None  # an edit made at another event's desk, or by staff
                data[name] = self.username(value)
            elif model_field.attname == pk_name and not model_field.is_relation:
                data["id"] = self.remap(label, value)
            elif model_field.is_relation:
                target = _target(model_field)
                if model_field.related_model is Event:
                    continue
                data[name] = self.remap(target, value)
            else:
                data[name] = _plain(value)
        if model_field_is_pk_relation(model):
            data["id"] = self.remap(label, getattr(row, pk_name))
        for name, codec in codecs.items():
            if name in data:
                data[name] = codec(data[name], self.remap)
        return data


def model_field_is_pk_relation(model: type[models.Model]) -> bool:
    """Whether the model's primary key is a one-to-one link (a format's per-game detail)."""
    return bool(model._meta.pk and model._meta.pk.is_relation)


def export_event(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready document (see the module's docstring)."""
    with transaction.atomic():  # one consistent snapshot on PostgreSQL's repeatable reads too
        return _Exporter(event).dump()


# --- import ------------------------------------------------------------------------------------


@dataclass
class ImportReport:
    event: Event
    players_created: int = 0
    players_matched: int = 0
    rows: int = 0
    history_rows: int = 0
    unknown_users: list[str] = field(default_factory=list)


class _Importer:
    def __init__(self, document: Mapping[str, Any], slug: str | None) -> None:
        self.doc = document
        self.slug = slug
        self.new_ids: dict[tuple[str, Any], Any] = {}
        self.users: dict[str, Any] = {}
        self.unknown_users: set[str] = set()
        self.created_players: set[int] = set()
        self.old_slug: str | None = None

    def remap(self, label: str, file_id: Any) -> Any:
        return self.new_ids.get((label, file_id))

    def user(self, username: Any) -> Any:
        if username is None:
            return None
        found = self.users.get(username)
        if found is None:
            self.unknown_users.add(str(username))
        return found

    def check(self) -> None:
        doc = self.doc
        if not isinstance(doc, Mapping) or doc.get("format") != DOCUMENT_FORMAT:
            raise refuse(NOT_A_DOCUMENT, error_class=Invalid, code="not_an_export")
        if doc.get("version") != DOCUMENT_VERSION:
            raise refuse(
                UNKNOWN_VERSION,
                error_class=Invalid,
                code="unknown_version",
                version=doc.get("version"),
                known=DOCUMENT_VERSION,
            )
        for row in doc.get("tables", {}).get(COMPETITIONS, []):
            try:
                get_format(row["format"])
            except KeyError:
                raise refuse(
                    UNKNOWN_FORMAT, error_class=Invalid, code="unknown_format", key=row["format"]
                ) from None

    def load(self) -> ImportReport:
        self.check()
        doc = self.doc
        usernames = {role.get("username") for role in doc.get("organisers", [])}
        for rows in [*doc["tables"].values(), *doc.get("history", {}).values()]:
            for row in rows:
                usernames |= {v for k, v in row.items() if k in self._user_fields}
        users = _user_model()
        self.users = {
            getattr(user, users.USERNAME_FIELD): user
            for user in users._default_manager.filter(
                **{f"{users.USERNAME_FIELD}__in": [u for u in usernames if u]}
            )
        }
        event = self._event()
        report = ImportReport(event=event)
        self._players(report)
        formats = {row["id"]: row["format"] for row in doc["tables"].get(COMPETITIONS, [])}
        for table in all_tables():
            rows = doc["tables"].get(table.label, [])
            report.rows += self._insert(table, rows, event, formats)
        report.history_rows = self._history(report)
        report.unknown_users = sorted(self.unknown_users)
        # New versions (published to the shared cache after commit): no page cached for an
        # earlier event at this address is served for this one.
        versions_bump(competitions=Q(event=event), events=Q(pk=event.pk))
        return report

    @property
    def _user_fields(self) -> set[str]:
        names = {"history_user"}
        for table in all_tables():
            names |= {f.name for f in table.model._meta.concrete_fields if _is_user_fk(f)}
        return names

    def _event(self) -> Event:
        data = dict(self.doc["event"])
        slug = self.slug or data.get("slug")
        data["slug"] = slug
        if Event.objects.filter(slug=slug).exists():
            raise refuse(SLUG_TAKEN, error_class=Conflict, code="slug_taken", slug=slug)
        self.old_slug = self.doc["event"].get("slug")
        event = Event(**self._values(Event, data))
        event.full_clean(validate_unique=False, validate_constraints=False)
        Event.objects.bulk_create([event])
        language.forget_event(event.slug)  # bulk_create sends no post_save
        self._restore_auto_times(Event, [event], [data])
        through = Event.organisers.through
        roles = []
        for role in self.doc.get("organisers", []):
            user = self.user(role.get("username"))
            if user is None:
                continue
            values = {k: v for k, v in role.items() if k != "username"}
            roles.append(through(event=event, user=user, **self._values(through, values)))
        through.objects.bulk_create(roles)
        self.new_ids[(EVENTS, 1)] = event.pk
        return event

    def _values(self, model: type[models.Model], data: Mapping[str, Any]) -> dict[str, Any]:
        """Plain field values from a row, each through its field's ``to_python``."""
        values = {}
        for model_field in model._meta.concrete_fields:
            if model_field.is_relation or model_field.primary_key:
                continue
            if model_field.name in data:
                values[model_field.attname] = model_field.to_python(data[model_field.name])
        return values

    def _players(self, report: ImportReport) -> None:
        rows = self.doc["tables"].get(PLAYERS, [])
        wanted = {
            (person_key(row["name"], row.get("club", "")), row.get("homonym") or 0): row
            for row in rows
        }
        existing = {
            (p.person_key, p.homonym): p
            for p in Player.objects.filter(person_key__in=[key for key, _ in wanted])
        }
        new = []
        for key, row in wanted.items():
            player = existing.get(key)
            if player is not None:
                self.new_ids[(PLAYERS, row["id"])] = player.pk
                report.players_matched += 1
                continue
            player = Player(**self._values(Player, row))
            if player.language not in language.codes():  # a file from a site with others
                player.language = ""
            player.search_text = fold(f"{player.name} {player.club}")
            player.person_key, player.homonym = key
            new.append((row, player))
        Player.objects.bulk_create([player for _, player in new])
        self._restore_auto_times(Player, [p for _, p in new], [row for row, _ in new])
        for row, player in new:
            self.new_ids[(PLAYERS, row["id"])] = player.pk
        report.players_created = len(new)
        self.created_players = {player.pk for _, player in new}

    def _insert(self, table: Table, rows: list[dict], event: Event, formats: dict[Any, str]) -> int:
        model = table.model
        objs: list[Any] = []
        self_links: list[tuple[int, str, Any]] = []
        for row in rows:
            data = dict(row)
            for name, codec in table.codecs.items():
                if name in data:
                    data[name] = codec(data[name], self.remap)
            if model is Correction and isinstance(data.get("payload"), dict):
                module = format_module(formats[row["competition"]])
                if module is not None:
                    data["payload"] = module.correction_payload(data["payload"], self.remap)
            values = self._values(model, data)
            for name, make in table.secrets.items():
                values[name] = make()
            for model_field in model._meta.concrete_fields:
                if not model_field.is_relation:
                    continue
                if model_field.related_model is Event:
                    values[model_field.attname] = event.pk
                elif _is_user_fk(model_field):
                    user = self.user(data.get(model_field.name))
                    values[model_field.attname] = user.pk if user is not None else None
                elif model_field.related_model is model:
                    self_links.append((len(objs), model_field.attname, data.get(model_field.name)))
                else:
                    target = _target(model_field)
                    file_id = data.get(model_field.name)
                    mapped = self.remap(target, file_id)
                    if file_id is not None and mapped is None:
                        raise ValueError(f"{table.label} {row.get('id')}: {model_field.name}")
                    values[model_field.attname] = mapped
            objs.append(model(**values))
        model._default_manager.bulk_create(objs)
        for obj, row in zip(objs, rows, strict=True):
            self.new_ids[(table.label, row["id"])] = obj.pk
        self._restore_auto_times(model, objs, rows)
        if self_links:
            for index, attname, file_id in self_links:
                setattr(objs[index], attname, self.remap(table.label, file_id))
            model._default_manager.bulk_update(objs, list({a for _, a, _ in self_links}))
        return len(objs)

    def _restore_auto_times(
        self, model: type[models.Model], objs: list[Any], rows: Iterable[Mapping[str, Any]]
    ) -> None:
        """``bulk_create`` stamps auto_now(_add) fields with the import's time: put back the
        exported ones (``bulk_update`` stores the values as they are)."""
        auto = [
            f
            for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        if not objs or not auto:
            return
        for obj, row in zip(objs, rows, strict=True):
            for model_field in auto:
                if row.get(model_field.name) is not None:
                    setattr(obj, model_field.attname, model_field.to_python(row[model_field.name]))
        model._default_manager.bulk_update(objs, [f.name for f in auto], batch_size=500)

    def _history(self, report: ImportReport) -> int:
        count = 0
        models_by_label = {t.label: t for t in all_tables()}
        for label, rows in self.doc.get("history", {}).items():
            codecs: Mapping[str, Codec] = {}
            if label in (PLAYERS, EVENTS):
                model: type[models.Model] = Player if label == PLAYERS else Event
            elif label in models_by_label:
                model, codecs = models_by_label[label].model, models_by_label[label].codecs
            else:
                continue
            if not _has_history(model):
                continue
            historical = model.history.model  # type: ignore[attr-defined]
            pk_name = model._meta.pk.attname
            objs = []
            for row in rows:
                object_id = self.remap(label, row.get("id"))
                if object_id is None:
                    continue
                if label == PLAYERS and object_id not in self.created_players:
                    continue  # a player already here keeps their own history
                data = dict(row)
                for name, codec in codecs.items():
                    if name in data:
                        data[name] = codec(data[name], self.remap)
                if label == EVENTS and data.get("slug") == self.old_slug:
                    data["slug"] = report.event.slug  # imported under a new address
                values = {}
                for model_field in historical._meta.concrete_fields:
                    name = model_field.name
                    if name == "history_id":
                        continue
                    if name == "history_user" or _is_user_fk(model_field):
                        user = self.user(data.get(name))
                        values[model_field.attname] = user.pk if user is not None else None
                    elif model_field.attname == pk_name:
                        values[model_field.attname] = object_id
                    elif model_field.is_relation:
                        if model_field.related_model is Event:
                            values[model_field.attname] = report.event.pk
                        else:
                            target = _target(model_field)
                            values[model_field.attname] = self.remap(target, data.get(name))
                    elif name in data:
                        values[model_field.attname] = model_field.to_python(data[name])
                objs.append(historical(**values))
            historical._default_manager.bulk_create(objs, batch_size=500)
            count += len(objs)
        return count


def import_event(document: Mapping[str, Any], *, slug: str | None = None) -> ImportReport:
    """Create the event of an export ``document`` (under ``slug`` if given), in one
    transaction. Refuses (``Invalid``, ``Conflict``) a file that is not an export, of an unknown
    version or format, or whose address is taken; any other problem in the file is an
    ``Invalid`` and nothing is written."""
    importer = _Importer(document, slug)
    try:
        with transaction.atomic():
            return importer.load()
    except (Invalid, Conflict):
        raise
    except (KeyError, TypeError, ValueError, AttributeError, ValidationError, DatabaseError) as exc:
        problem = exc.messages[0] if isinstance(exc, ValidationError) else repr(exc)
        raise refuse(
            BROKEN_DOCUMENT, error_class=Invalid, code="broken_file", problem=problem
        ) from exc
