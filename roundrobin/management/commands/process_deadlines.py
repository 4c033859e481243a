"""``manage.py process_deadlines``: kept for the cron lines and units that name it; it is
``manage.py worker --once`` now (events owns the workers; the round robin's deadlines are its
periodic work and jobs at their instants)."""

from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = (
        "An old name for `manage.py worker --once`: run every periodic work now (the round "
        "robins' expired turns and reminders, the sign-ups' holds and offers, the outbox) and "
        "every job that is due, then exit. Run `manage.py worker` beside the server instead."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", type=int, default=0, help="Ignored: run manage.py worker.")

    def handle(self, *args, loop: int = 0, **options) -> None:
        self.stderr.write("process_deadlines is `manage.py worker --once` now.")
        if loop:
            self.stderr.write("For a loop, run `manage.py worker` (it runs until stopped).")
        call_command("worker", once=True, verbosity=options.get("verbosity", 1))
