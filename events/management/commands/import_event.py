"""``manage.py import_event FILE [--slug NEW] [--club CLUB]``: restore an event written by
``export_event``."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from events.errors import ServiceError
from events.exchange.document import import_event
from events.models import HostClub


class Command(BaseCommand):
    help = (
        "Create an event from a file written by export_event, in one transaction (nothing is "
        "written if anything is wrong). Players already in the register (same name and club) "
        "are reused (in the hosting club's register); organisers and other users are matched "
        "by username; private links get new tokens."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the JSON file ('-' for standard input)")
        parser.add_argument("--slug", help="import under this address instead of the file's")
        parser.add_argument(
            "--club",
            help="the address of the hosting club to import into; needed once the site has "
            "any club (a site without one gets the file's club)",
        )

    def handle(
        self, *args, file: str, slug: str | None, club: str | None = None, **options
    ) -> None:
        host = None
        if club:
            host = HostClub.objects.filter(slug=club).first()
            if host is None:
                raise CommandError(f"There is no hosting club at /c/{club}/.")
            if not host.is_approved:
                raise CommandError(f"/c/{club}/ waits for approval (admin › Hosting clubs).")
        elif HostClub.objects.exists():
            # A file from another site may name a club whose address is taken here by another
            # club: its players would be matched against the wrong register.
            raise CommandError("Name the hosting club to import into: --club <address>.")
        try:
            if file == "-":
                document = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    document = json.load(handle)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from exc
        try:
            report = import_event(document, slug=slug, host=host)
        except ServiceError as exc:
            raise CommandError(exc.text) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {report.event.name} at /e/{report.event.slug}/: "
                f"{report.players_created} players created, {report.players_matched} matched, "
                f"{report.rows} rows, {report.history_rows} history rows."
            )
        )
        if report.series_joined:
            self.stdout.write(f"In the series: {', '.join(report.series_joined)}")
        if report.series_skipped:
            self.stdout.write(
                "Left out of their series (the address holds a series of another format): "
                f"{', '.join(report.series_skipped)}"
            )
        if report.unknown_users:
            self.stdout.write(
                "Users not in this database (left out as organisers, and as authors of "
                f"corrections and history): {', '.join(report.unknown_users)}"
            )
