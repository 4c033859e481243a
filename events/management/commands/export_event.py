"""``manage.py export_event <slug> [-o FILE]``: the whole event as one versioned JSON file."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from events.exchange.document import export_event
from events.models import Event


class Command(BaseCommand):
    help = (
        "Write an event (players, entries, every result, rating changes, corrections, history) "
        "as one versioned JSON file that import_event reads back. Private-link tokens are left "
        "out (the import makes new ones)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="the event's address (/e/<slug>/)")
        parser.add_argument(
            "-o", "--output", default="-", help="file to write (default: standard output)"
        )

    def handle(self, *args, slug: str, output: str, **options) -> None:
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"No event has the address {slug!r}.")
        text = json.dumps(export_event(event), ensure_ascii=False, indent=1)
        if output == "-":
            sys.stdout.write(text + "\n")
            return
        with open(output, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        self.stderr.write(self.style.SUCCESS(f"{event.name} written to {output}."))
