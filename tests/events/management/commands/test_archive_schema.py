"""``manage.py archive_schema`` (``events.management.commands.archive_schema``): the event
document's JSON Schema to standard output or to a file, as the committed file holds it."""

from __future__ import annotations

import io
import json

from django.core.management import call_command

from events.exchange.document.schema import schema_text


def test_the_schema_goes_to_standard_output(capsys):
    call_command("archive_schema")
    out = capsys.readouterr().out
    assert out == schema_text()
    assert json.loads(out)["$schema"].startswith("https://json-schema.org/draft/2020-12")


def test_the_schema_is_written_to_a_file_and_named(tmp_path):
    path = tmp_path / "schema.json"
    err = io.StringIO()
    call_command("archive_schema", output=str(path), stderr=err)
    assert path.read_text(encoding="utf-8") == schema_text()
    assert f"schema written to {path}" in err.getvalue()
