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
CSV and XLSX downloads of ``events.exchange.sheets``).
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

from events.exchange.document.export import export_event, model_field_is_pk_relation
from events.exchange.document.restore import ImportReport, import_event
from events.exchange.document.tables import (
    BROKEN_DOCUMENT,
    COMPETITIONS,
    CORE_TABLES,
    CORRECTION_TABLE,
    CORRECTIONS,
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    EVENTS,
    NOT_A_DOCUMENT,
    PLAYERS,
    SLUG_TAKEN,
    UNKNOWN_FORMAT,
    UNKNOWN_VERSION,
    Codec,
    Remap,
    Table,
    all_tables,
    format_module,
    has_history,
    id_list,
    id_text,
    is_user_fk,
    new_token,
    plain_value,
    relation_target,
    user_model,
)

__all__ = [
    "BROKEN_DOCUMENT",
    "COMPETITIONS",
    "CORE_TABLES",
    "CORRECTIONS",
    "CORRECTION_TABLE",
    "Codec",
    "DOCUMENT_FORMAT",
    "DOCUMENT_VERSION",
    "EVENTS",
    "ImportReport",
    "NOT_A_DOCUMENT",
    "PLAYERS",
    "Remap",
    "SLUG_TAKEN",
    "Table",
    "UNKNOWN_FORMAT",
    "UNKNOWN_VERSION",
    "all_tables",
    "export_event",
    "format_module",
    "has_history",
    "id_list",
    "id_text",
    "import_event",
    "is_user_fk",
    "model_field_is_pk_relation",
    "new_token",
    "plain_value",
    "relation_target",
    "user_model",
]
