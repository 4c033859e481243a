"""Under ``make bench`` (``bench/run.py``): the outbox delivering 1,000 messages.

``run`` starts ``WORKERS`` (two) workers as production runs them (``manage.py worker``, each
its own process), waits until both have said they are alive, then queues ``MESSAGES`` (1,000)
e-mails with ``events.outbox.queue.enqueue`` in one transaction, as the site's writes do (each
message with its job), and times from the commit until every message is marked sent. The task
library's claim (``select_for_update(skip_locked)``) gives each job to one worker, and the
message's lease keeps two deliveries from sending it. The e-mail backend is Django's file one
(a folder of this run): a subject seen twice is a duplicate (there must be none), a message not
marked sent is missing. One row of ``run.py``'s table: messages per second, the time from the
commit to the last mark, duplicates plus missing as its errors.

Alone, on a scratch PostgreSQL database of its own (created, migrated, dropped; no gunicorn,
no wrk), without make:

    .venv/bin/python bench/outbox.py

(BENCH_POSTGRES as for ``run.py``: postgres://postgres@127.0.0.1:5432.)
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

MESSAGES = 1000
WORKERS = 2


def run(Row) -> list:  # noqa: N803 - bench/run.py's Row class
    from django.db import connection, transaction
    from django_tasks_db.models import DBTaskResult

    from events.models import WorkerBeat
    from events.outbox import queue
    from events.outbox.models import OutboxMessage, OutboxStatus

    tag = secrets.token_hex(4)
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as mail_dir:
        env = {
            **os.environ,
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": mail_dir,
            "TASK_WORKER_INTERVAL": "0.1",
        }
        workers = [
            subprocess.Popen(
                [sys.executable, "manage.py", "worker", "-v0", f"--worker-id=bench-{tag}-{n}"],
                cwd=root,
                env=env,
            )
            for n in range(WORKERS)
        ]
        try:
            deadline = time.monotonic() + 120
            while (
                WorkerBeat.objects.filter(worker_id__startswith=f"bench-{tag}-").count() < WORKERS
            ):
                if time.monotonic() > deadline:
                    raise RuntimeError("the workers did not start")
                time.sleep(0.1)
            with transaction.atomic():
                for number in range(MESSAGES):
                    queue.enqueue(
                        key=f"bench:{tag}:{number}",
                        to=f"player{number}@example.org",
                        subject=f"bench {tag} {number}",
                        body="A message of the outbox bench.",
                    )
            started = time.perf_counter()  # the jobs exist from the commit on
            mine = OutboxMessage.objects.filter(key__startswith=f"bench:{tag}:")
            while mine.exclude(status=OutboxStatus.SENT).exists():
                if time.monotonic() > deadline + 300:
                    break
                time.sleep(0.02)
            seconds = time.perf_counter() - started
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=30)
        connection.close()
        subjects = Counter(
            line.removeprefix("Subject: ")
            for path in Path(mail_dir).iterdir()
            for line in path.read_text().splitlines()
            if line.startswith(f"Subject: bench {tag} ")
        )
        rounds = sorted(
            Counter(
                r.worker_ids[-1]
                for r in DBTaskResult.objects.filter(task_path__startswith="events.outbox.tasks.")
            ).values()
        )
    duplicates = sum(count - 1 for count in subjects.values())
    sent = OutboxMessage.objects.filter(
        key__startswith=f"bench:{tag}:", status=OutboxStatus.SENT
    ).count()
    missing = MESSAGES - sent
    print(
        f"-- outbox: {MESSAGES} e-mails queued, drained by {WORKERS} workers in "
        f"{seconds:.2f} s ({MESSAGES / seconds:,.0f}/s, jobs per worker {rounds}); "
        f"{sum(subjects.values())} delivered, {duplicates} duplicates, {missing} not sent",
        flush=True,
    )
    ms = seconds * 1000
    return [
        Row(
            f"outbox, {MESSAGES:,} e-mails, {WORKERS} workers",
            MESSAGES / seconds,
            ms,
            ms,
            duplicates + missing,
            "outbox",
            f"{duplicates} duplicates, {missing} not sent",
        )
    ]


def main() -> int:
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(root / "bench"))
    from dataclasses import dataclass

    from scratch import Services, log

    @dataclass
    class Row:
        request: str
        rate: float
        p50: float
        p99: float
        errors: int
        kind: str
        note: str = ""

    postgres = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432").rstrip("/")
    services = Services(postgres, os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"))
    try:
        database_url = services.create_database()
        services.start_redis()
        os.environ.update(services.production_env(database_url))
        import django

        django.setup()
        from django.core.management import call_command

        log(f"scratch database {services.database}")
        call_command("migrate", verbosity=0)
        (row,) = run(Row)
        print(f"{row.request}: {row.p50 / 1000:.2f} s, {row.rate:,.0f}/s, {row.note}")
        return 1 if row.errors else 0
    finally:
        services.close()


if __name__ == "__main__":
    sys.exit(main())
