"""``manage.py archive_schema [-o FILE]``: the JSON Schema of export_event's document."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from events.exchange.document.schema import SCHEMA_PATH, schema_text


class Command(BaseCommand):
    help = (
        "Write the JSON Schema (draft 2020-12) of the event document that export_event writes "
        "and import_event reads, generated from the models and the exported tables. After a "
        f"change to them, run `manage.py archive_schema -o {SCHEMA_PATH}` and commit the "
        "file: a test fails while it is not current."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "-o", "--output", default="-", help="file to write (default: standard output)"
        )

    def handle(self, *args, output: str, **options) -> None:
        text = schema_text()
        if output == "-":
            sys.stdout.write(text)
            return
        with open(output, "w", encoding="utf-8") as file:
            file.write(text)
        self.stderr.write(self.style.SUCCESS(f"The event document's schema written to {output}."))
