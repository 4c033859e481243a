"""``manage.py process_deadlines``: close expired turns of the correspondence round robins."""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand, CommandParser

from events.outbox import queue
from events.signups.services import lifecycle as signups
from roundrobin import services


class Command(BaseCommand):
    help = (
        "Close every expired turn of every correspondence round robin: record the missed moves, "
        "end games lost on time (two missed turns in a row) or double forfeited (the second "
        "double timeout), open the next turns, queue reminders to players whose deadline is "
        "near, end the sign-ups' seat holds and offers that ran out (a freed seat is offered "
        "to the next on the waitlist), and send what the outbox holds (reminders and other "
        "messages, retried when the mail server fails). Idempotent and safe to run from cron "
        "on several machines at once; --loop SECONDS keeps it running."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--loop",
            type=int,
            metavar="SECONDS",
            default=0,
            help="Sweep again every SECONDS seconds until stopped (default: sweep once).",
        )
        parser.add_argument(
            "--no-reminders", action="store_true", help="Do not queue reminder e-mails."
        )
        parser.add_argument(
            "--no-outbox", action="store_true", help="Do not send what the outbox holds."
        )

    def handle(
        self,
        *args,
        loop: int = 0,
        no_reminders: bool = False,
        no_outbox: bool = False,
        **options,
    ) -> None:
        if loop < 0:
            self.stderr.write("--loop must be 0 or more seconds.")
            return
        # SIGTERM (systemd, `make serve`) ends the loop between sweeps, with exit status 0.
        stop = threading.Event()
        if loop and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
        while not stop.is_set():
            report = services.deadlines_process()
            reminded = 0 if no_reminders else services.reminders_send()
            seats = signups.signups_sweep()
            sent = queue.DrainReport() if no_outbox else queue.drain()
            if not no_outbox:
                queue.purge()
            if options.get("verbosity", 1) >= 1:
                self.stdout.write(
                    f"closed {report.closed} turns, finished {report.finished} games "
                    f"in {report.competitions} competitions, queued {reminded} reminders; "
                    f"sign-ups: {seats.expired_offers} offers ended, "
                    f"{seats.holds_released} holds ended, {seats.offered} seats offered; "
                    f"outbox: {sent.sent} sent, {sent.retried} to retry, {sent.failed} failed"
                )
            if not loop:
                return
            stop.wait(loop)
