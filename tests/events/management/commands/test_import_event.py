"""``manage.py import_event FILE``: reads back what ``export_event`` writes, into a club it is
told."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from events.models import Event
from tests.support.factories import EventFactory, HostClubFactory


def test_the_commands_write_and_read_a_file(demo, tmp_path):
    _, competitions = demo
    event = competitions[0].event
    path = tmp_path / "event.json"
    call_command("export_event", event.slug, output=str(path))
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["format"], document["version"]) == ("boardgame-events/event", 1)
    with pytest.raises(CommandError):  # a site with clubs: the command asks which one
        call_command("import_event", str(path), slug="restored")
    call_command("import_event", str(path), slug="restored", club=event.host.slug)
    restored = Event.objects.get(slug="restored")
    assert restored.name == event.name and restored.host == event.host
    assert restored.competitions.count() == event.competitions.count()


def test_a_club_that_is_not_there_or_not_approved_is_refused(db, tmp_path):
    event = EventFactory(name="Spring Open", slug="spring-open")
    path = tmp_path / "event.json"
    call_command("export_event", event.slug, output=str(path))
    with pytest.raises(CommandError, match="There is no hosting club at /c/nowhere/"):
        call_command("import_event", str(path), slug="copy", club="nowhere")
    HostClubFactory(slug="waiting", is_approved=False)
    with pytest.raises(CommandError, match="/c/waiting/ waits for approval"):
        call_command("import_event", str(path), slug="copy", club="waiting")
    assert not Event.objects.filter(slug="copy").exists()


def test_a_file_that_cannot_be_read_is_named(db, tmp_path):
    club = HostClubFactory()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="Cannot read .*broken.json"):
        call_command("import_event", str(broken), club=club.slug)
    with pytest.raises(CommandError, match="Cannot read .*missing.json"):
        call_command("import_event", str(tmp_path / "missing.json"), club=club.slug)


def test_a_refused_import_is_a_command_error_and_a_good_one_reports_its_counts(db, tmp_path):
    event = EventFactory(name="Spring Open", slug="spring-open")
    path = tmp_path / "event.json"
    call_command("export_event", event.slug, output=str(path))
    with pytest.raises(CommandError):  # the file's own address is taken by the event itself
        call_command("import_event", str(path), club=event.host.slug)
    assert Event.objects.filter(name="Spring Open").count() == 1
    out = io.StringIO()
    call_command("import_event", str(path), slug="spring-copy", club=event.host.slug, stdout=out)
    assert "Imported Spring Open at /e/spring-copy/" in out.getvalue()
    assert Event.objects.get(slug="spring-copy").host == event.host
