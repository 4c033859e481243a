"""What a whole-event document is made of: its format marks, the tables it holds and how ids
in them are written."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext as _

from events.exchange.contract import ExportModule, Exports
from events.formats import all_formats, part
from events.help.models import HelpCall, new_call_key
from events.models import Competition, Correction, Entry, Event, Game, Player, Round, Seat, Session
from events.signups.models import SignUp, SignUpWindow

DOCUMENT_FORMAT = "boardgame-events/event"


DOCUMENT_VERSION = 1

# The hosting club's description in a file ("host"): an import finds the club again by its
# slug, or makes one from it (restore.py). Optional: files from before clubs have none.
HOST_FIELDS = ("slug", "name", "short_name", "country", "language", "time_zone")


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
    # Sign-ups: their links are signed, not stored, so nothing here is a secret.
    Table(SignUpWindow, "competition__event"),
    Table(SignUp, "window__competition__event"),
    # Calls for help and their times; the caller's page key is made anew on import.
    Table(HelpCall, "competition__event", secrets={"key": new_call_key}),
)


# Last: its undo data names rows of the format tables.
CORRECTION_TABLE = Table(Correction, "competition__event")


PLAYERS = Player._meta.label_lower


EVENTS = Event._meta.label_lower


CORRECTIONS = Correction._meta.label_lower


COMPETITIONS = Competition._meta.label_lower


def format_module(key: str) -> ExportModule:
    """The format's export module (its part in ``events.exchange.contract.Exports``); for a
    format that takes no part, the shared one (``events.exchange.shared``: the shared rows, no
    tables of its own)."""
    # Imported here: the shared export builds sheets, and the sheets module reads this one.
    from events.exchange import shared

    taking_part = part(key, Exports)
    return taking_part.export if taking_part else shared


def all_tables() -> list[Table]:
    tables = list(CORE_TABLES)
    for game_format in all_formats():
        tables += list(format_module(game_format.key).TABLES)
    return [*tables, CORRECTION_TABLE]


def user_model() -> Any:
    return get_user_model()


def relation_target(model_field: Any) -> str:
    """The label of the table a foreign key points into (``events.entry``)."""
    return str(model_field.related_model._meta.label_lower)


def is_user_fk(model_field: models.Field) -> bool:
    return model_field.is_relation and model_field.related_model is user_model()


def plain_value(value: Any) -> Any:
    """A field value as JSON: times and dates as ISO text (to the microsecond), decimals as
    text."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def has_history(model: type[models.Model]) -> bool:
    return hasattr(model, "history") and hasattr(model.history, "model")
