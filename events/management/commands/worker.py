"""``manage.py worker``: run background jobs (the outbox's deliveries, jobs at an instant, the
periodic work of the core and of every format) until stopped."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.crypto import get_random_string
from django_tasks_db.management.commands.db_worker import Worker

from events.management.worker import Pacemaker, run_all_periodic, run_due_jobs


class Command(BaseCommand):
    help = (
        "Run background jobs until stopped: e-mails, browser notifications and webhooks from "
        "the outbox (retried with back-off when the other side fails), jobs at their instant "
        "(an offer that runs out, a turn's deadline, a reminder) and the periodic work of the "
        "site and of every installed format, each period once however many workers run. Run "
        "as many as you like on as many machines as share the database; a job held by a "
        "worker that died runs again. SIGTERM or Ctrl+C ends it after the job in hand. "
        "--once: run every periodic work now and every job that is due, then exit (for cron)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--once",
            action="store_true",
            help="Run every periodic work now and every due job, then exit.",
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            metavar="SECONDS",
            help="How long an idle worker waits before it looks for due jobs again "
            "(default: TASK_WORKER_INTERVAL, 0.5).",
        )
        parser.add_argument(
            "--worker-id",
            default="",
            help="This worker's name, unique across all workers (default: a random one).",
        )

    def handle(
        self,
        *args,
        once: bool = False,
        interval: float | None = None,
        worker_id: str = "",
        **options,
    ) -> None:
        interval = settings.TASK_WORKER_INTERVAL if interval is None else interval
        if not 0 <= interval <= 3600:
            raise CommandError("--interval must be between 0 and 3600 seconds.")
        worker_id = (worker_id or get_random_string(32))[:64]
        verbose = options.get("verbosity", 1) >= 1
        worker = Worker(
            queue_names=["*"],
            interval=interval,
            batch=once,
            backend_name="default",
            startup_delay=not once,
            max_tasks=None,
            worker_id=worker_id,
            excluded_queue_names=[],
        )
        if once:
            for line in run_all_periodic():
                if verbose:
                    self.stdout.write(line)
            ran = run_due_jobs(worker)
            if verbose:
                self.stdout.write(f"tasks: {ran} due jobs run")
            return
        pacemaker = Pacemaker(worker_id)
        pacemaker.start()
        if verbose:
            self.stdout.write(f"worker {worker_id} waiting for jobs")
        try:
            worker.configure_signals()
            worker.run()
        finally:
            pacemaker.stop()
