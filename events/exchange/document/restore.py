"""A whole-event document read back into the database (``import_event``), all or nothing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import Q
from django.utils.text import slugify

from events import language
from events.errors import Conflict, Invalid, refuse
from events.exchange.document.series import series_restore
from events.exchange.document.tables import (
    BROKEN_DOCUMENT,
    COMPETITIONS,
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    EVENTS,
    NOT_A_DOCUMENT,
    PLAYERS,
    SLUG_TAKEN,
    UNKNOWN_FORMAT,
    UNKNOWN_VERSION,
    Codec,
    Table,
    all_tables,
    format_module,
    has_history,
    is_user_fk,
    relation_target,
    user_model,
)
from events.formats import get_format
from events.models import (
    Competition,
    Correction,
    Event,
    HostClub,
    Player,
    fold,
    person_key,
)
from events.services import games_changed
from events.versions import versions_bump


@dataclass
class ImportReport:
    event: Event
    players_created: int = 0
    players_matched: int = 0
    rows: int = 0
    history_rows: int = 0
    unknown_users: list[str] = field(default_factory=list)
    series_joined: list[str] = field(default_factory=list)  # addresses of series
    series_skipped: list[str] = field(default_factory=list)  # their address holds another format


FIRST_CLUB_NAME = "Our club"


class _Importer:
    def __init__(
        self, document: Mapping[str, Any], slug: str | None, host: HostClub | None = None
    ) -> None:
        self.doc = document
        self.slug = slug
        self.host = host
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
        users = user_model()
        self.users = {
            getattr(user, users.USERNAME_FIELD): user
            for user in users._default_manager.filter(
                **{f"{users.USERNAME_FIELD}__in": [u for u in usernames if u]}
            )
        }
        self.host = self.host or self._host()
        event = self._event()
        report = ImportReport(event=event)
        self._players(report)
        formats = {row["id"]: row["format"] for row in doc["tables"].get(COMPETITIONS, [])}
        for table in all_tables():
            rows = doc["tables"].get(table.label, [])
            report.rows += self._insert(table, rows, event, formats)
        report.history_rows = self._history(report)
        # Games came in at their place in time (the Blokus rating's order of games).
        games_changed(Competition.objects.filter(event=event))
        report.series_joined, report.series_skipped = series_restore(
            doc.get("series"), self.remap, self.user, formats, host=self.host
        )
        report.unknown_users = sorted(self.unknown_users)
        # New versions (published to the shared cache after commit): no page cached for an
        # earlier event at this address is served for this one.
        versions_bump(competitions=Q(event=event), events=Q(pk=event.pk))
        return report

    @property
    def _user_fields(self) -> set[str]:
        names = {"history_user"}
        for table in all_tables():
            names |= {f.name for f in table.model._meta.concrete_fields if is_user_fk(f)}
        return names

    def _host(self) -> HostClub:
        """Decided: without a club named, the file's club when the site has one at its address,
        else the site's only club, else a new club made from the file's description."""
        wanted = self.doc.get("host") or {}
        if not isinstance(wanted, Mapping):
            raise TypeError("host: an object expected")
        slug = str(wanted.get("slug") or "")
        found = HostClub.objects.filter(slug=slug).first() if slug else None
        if found is not None:
            return found
        clubs = list(HostClub.objects.order_by("pk")[:2])
        if len(clubs) == 1:
            return clubs[0]
        values = self._values(HostClub, wanted)
        values["name"] = values.get("name") or FIRST_CLUB_NAME
        taken = set(HostClub.objects.values_list("slug", flat=True))
        base = slugify(slug or values["name"])[:50] or "club"
        values["slug"], number = base, 2
        while values["slug"] in taken:
            values["slug"], number = f"{base}-{number}", number + 1
        club = HostClub(**values)
        club.full_clean()
        club.save()
        return club

    def _event(self) -> Event:
        data = dict(self.doc["event"])
        slug = self.slug or data.get("slug")
        data["slug"] = slug
        if Event.objects.filter(slug=slug).exists():
            raise refuse(SLUG_TAKEN, error_class=Conflict, code="slug_taken", slug=slug)
        self.old_slug = self.doc["event"].get("slug")
        event = Event(**self._values(Event, data), host=self.host)
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
            for p in Player.objects.filter(
                host=self.host, person_key__in=[key for key, _ in wanted]
            )
        }
        new = []
        for key, row in wanted.items():
            player = existing.get(key)
            if player is not None:
                self.new_ids[(PLAYERS, row["id"])] = player.pk
                report.players_matched += 1
                continue
            player = Player(**self._values(Player, row), host=self.host)
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
                data["payload"] = module.correction_payload(data["payload"], self.remap)
            values = self._values(model, data)
            for name, make in table.secrets.items():
                values[name] = make()
            for model_field in model._meta.concrete_fields:
                if not model_field.is_relation:
                    continue
                if model_field.related_model is Event:
                    values[model_field.attname] = event.pk
                elif model_field.related_model is HostClub:  # the club imported into
                    values[model_field.attname] = event.host_id
                elif is_user_fk(model_field):
                    user = self.user(data.get(model_field.name))
                    values[model_field.attname] = user.pk if user is not None else None
                elif model_field.related_model is model:
                    self_links.append((len(objs), model_field.attname, data.get(model_field.name)))
                else:
                    target = relation_target(model_field)
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
            if not has_history(model):
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
                    if name == "history_user" or is_user_fk(model_field):
                        user = self.user(data.get(name))
                        values[model_field.attname] = user.pk if user is not None else None
                    elif model_field.attname == pk_name:
                        values[model_field.attname] = object_id
                    elif model_field.is_relation:
                        if model_field.related_model is Event:
                            values[model_field.attname] = report.event.pk
                        elif model_field.related_model is HostClub:
                            values[model_field.attname] = report.event.host_id
                        else:
                            target = relation_target(model_field)
                            values[model_field.attname] = self.remap(target, data.get(name))
                    elif name in data:
                        values[model_field.attname] = model_field.to_python(data[name])
                objs.append(historical(**values))
            historical._default_manager.bulk_create(objs, batch_size=500)
            count += len(objs)
        return count


def import_event(
    document: Mapping[str, Any], *, slug: str | None = None, host: HostClub | None = None
) -> ImportReport:
    """Create the event of an export ``document`` (under ``slug`` if given) at hosting club
    ``host`` (else as ``_Importer._host`` decides), in one transaction. Refuses (``Invalid``,
    ``Conflict``) a file that is not an export, of an unknown version or format, or whose
    address is taken; any other problem in the file is an ``Invalid`` and nothing is
    written."""
    importer = _Importer(document, slug, host)
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
