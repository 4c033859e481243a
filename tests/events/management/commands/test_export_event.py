"""``manage.py export_event <slug> [-o FILE]``: the whole event as one JSON file, to a file or to
standard output."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.support.factories import EntryFactory, EventFactory


def test_an_unknown_address_is_refused(db):
    with pytest.raises(CommandError, match="No event has the address 'nowhere'"):
        call_command("export_event", "nowhere")


def test_the_event_goes_to_standard_output_without_a_file(db, capsys):
    entry = EntryFactory(competition__event=EventFactory(name="Spring Open", slug="spring-open"))
    call_command("export_event", "spring-open")
    out = capsys.readouterr().out
    document = json.loads(out)
    assert (document["format"], document["version"]) == ("boardgame-events/event", 1)
    assert entry.player.name in out


def test_a_file_is_written_and_named(db, tmp_path):
    EventFactory(name="Spring Open", slug="spring-open")
    path = tmp_path / "out.json"
    err = io.StringIO()
    call_command("export_event", "spring-open", output=str(path), stderr=err)
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "boardgame-events/event"
    assert f"Spring Open written to {path}." in err.getvalue()
