"""The event document's JSON Schema (issue 32): generated from the models and the exported
tables, committed, and every demo event's export valid against it."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from django.core.management import call_command

from events.exchange import document as exchange
from events.exchange.document.schema import SCHEMA_FILE, SCHEMA_PATH, archive_schema, schema_text


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def errors(validator: jsonschema.Draft202012Validator, document: dict) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(document)
    ]


def test_the_committed_schema_is_the_generated_one():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        f"{SCHEMA_PATH} is not current: run `manage.py archive_schema -o {SCHEMA_PATH}` "
        "and commit the file"
    )


def test_the_schema_describes_every_exported_table():
    schema = archive_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] and schema["title"] and schema["description"]
    labels = set(schema["properties"]["tables"]["properties"])
    assert labels == {exchange.PLAYERS, *(table.label for table in exchange.all_tables())}
    token = schema["properties"]["tables"]["properties"]["roundrobin.playertoken"]
    assert "token" not in token["items"]["properties"]  # a secret is never in a file


def test_every_demo_event_export_is_valid(demo, validator):
    _, competitions = demo
    assert {c.format for c in competitions} >= {"blokus", "shuffleboard", "roundrobin"}
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

    def a_token(doc):
        doc["tables"]["roundrobin.playertoken"] = [{"id": 1, "entry": 1, "token": "x"}]

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
