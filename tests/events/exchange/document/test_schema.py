"""The event document's JSON Schema: generated from the models and the exported
tables, committed, and every demo event's export valid against it."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from django.core.management import call_command

from events.exchange import document as exchange
from events.exchange.document.schema import SCHEMA_FILE, SCHEMA_PATH, archive_schema, schema_text
from events.formats import all_formats


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    """The schema of the installed formats (the committed file's parts are checked against it
    below; a format the file does not hold yet is in it too)."""
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA_FILE.read_text("utf-8")))
    schema = archive_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def parts(schema: dict) -> dict[str, dict]:
    """The schema by app: "" for the document's frame, then each app's tables and history rows
    (by the app label that starts a table's name), so that each can be compared alone."""
    frame = copy.deepcopy(schema)
    found: dict[str, dict] = {"": frame}
    for section in ("tables", "history"):
        properties = frame["properties"][section].pop("properties")
        frame["properties"][section].pop("required", None)  # every table, as _object says
        for label, table in properties.items():
            found.setdefault(label.split(".")[0], {}).setdefault(section, {})[label] = table
    return found


def format_keys(node: Any, installed: set[str]) -> set[str]:
    """The format keys the schema's lists of them hold (the choices of Competition.format,
    of Series.format): every enum naming an installed format."""
    if isinstance(node, dict):
        enum = node.get("enum")
        found = set(enum) if isinstance(enum, list) and installed & set(enum) else set()
        return found.union(*(format_keys(value, installed) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(format_keys(value, installed) for value in node))
    return set()


def formats_cut(node: Any, installed: set[str], keep: set[str]) -> Any:
    """The schema with each list of format keys (an enum naming an installed format holds
    nothing else) cut to ``keep``: the formats both the file and this installation know."""
    if isinstance(node, dict):
        cut = {key: formats_cut(value, installed, keep) for key, value in node.items()}
        enum = node.get("enum")
        if isinstance(enum, list) and installed & set(enum):
            cut["enum"] = [value for value in enum if value in keep]
        return cut
    if isinstance(node, list):
        return [formats_cut(value, installed, keep) for value in node]
    return node


def test_the_committed_schema_is_the_generated_one():
    """Part by part: the frame and the shared tables, and each installed format's tables the
    file holds. A format the file does not hold (a new one, a format installed from elsewhere)
    is published by running the command; it does not make the others' parts wrong."""
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    tables = committed["properties"]["tables"]
    assert tables["required"] == list(tables["properties"])
    installed = {f.key for f in all_formats()}
    keep = installed & format_keys(committed, installed)
    committed_parts = parts(formats_cut(committed, installed, keep))
    generated = parts(formats_cut(archive_schema(), installed, keep))
    checked = ["", "events", *(f.key.rsplit(".", 1)[-1] for f in all_formats())]
    stale = [
        app or "the frame"
        for app in checked
        if app in committed_parts and committed_parts[app] != generated.get(app)
    ]
    assert not stale, (
        f"{SCHEMA_PATH} is not current for {stale}: run "
        f"`manage.py archive_schema -o {SCHEMA_PATH}` and commit the file"
    )
    assert {"", "events"} <= set(committed_parts)


def test_the_committed_schema_of_the_installed_formats_is_the_whole_file():
    """Where the file holds every installed format (this repository's own), it is exactly what
    the command writes."""
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    installed = {f.key for f in all_formats()}
    if format_keys(committed, installed) != installed:
        pytest.skip("the committed file is of other formats than those installed here")
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        f"{SCHEMA_PATH} is not current: run `manage.py archive_schema -o {SCHEMA_PATH}` "
        "and commit the file"
    )


def errors(validator: jsonschema.Draft202012Validator, document: dict) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


def test_the_schema_describes_every_exported_table():
    schema = archive_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] and schema["title"] and schema["description"]
    labels = set(schema["properties"]["tables"]["properties"])
    assert labels == {exchange.PLAYERS, *(table.label for table in exchange.all_tables())}
    for table in exchange.all_tables():  # a secret (a private link's token) is never in a file
        row = schema["properties"]["tables"]["properties"][table.label]["items"]["properties"]
        assert not set(table.secrets) & set(row), table.label


def test_every_demo_event_export_is_valid(demo, validator):
    _, competitions = demo
    assert {c.format for c in competitions} == {f.key for f in all_formats()}
    for competition in competitions:
        document = json.loads(json.dumps(exchange.export_event(competition.event)))
        assert errors(validator, document) == [], competition.event.slug
        assert document["tables"]["events.entry"] and document["history"]


def test_a_broken_document_is_not_valid(demo, validator):
    _, competitions = demo
    document = json.loads(json.dumps(exchange.export_event(competitions[0].event)))
    assert errors(validator, document) == []

    def broken(change) -> list[str]:
        changed = copy.deepcopy(document)
        change(changed)
        return errors(validator, changed)

    def wrong_type(doc):
        doc["tables"]["events.entry"][0]["id"] = "1"

    def missing_key(doc):
        del doc["event"]["slug"]

    def unknown_table(doc):
        doc["tables"]["events.secret"] = []

    def a_foreign_key_not_a_file_id(doc):
        doc["tables"]["events.seat"][0]["game"] = 0

    def a_bad_date(doc):
        doc["event"]["starts_on"] = "12 June"

    def another_version(doc):
        doc["version"] = 2

    secret = next((t for t in exchange.all_tables() if t.secrets), None)

    def a_token(doc):
        if secret is None:  # no installed format keeps a secret: a made-up field instead
            doc["tables"]["events.entry"][0]["token"] = "x"
            return
        doc["tables"][secret.label] = [{"id": 1, **dict.fromkeys(secret.secrets, "x")}]

    for change in (
        wrong_type,
        missing_key,
        unknown_table,
        a_foreign_key_not_a_file_id,
        a_bad_date,
        another_version,
        a_token,
    ):
        assert broken(change), change.__name__


def test_the_command_writes_the_schema(tmp_path):
    path = tmp_path / "schema.json"
    call_command("archive_schema", output=str(path))
    assert json.loads(path.read_text(encoding="utf-8")) == archive_schema()
