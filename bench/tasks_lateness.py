"""Jobs at their instant: 10,000 jobs due at scattered instants over 10 minutes (no more than
50 due in any one second), taken by two workers (``manage.py worker``, two processes as
production runs them), on a scratch PostgreSQL database of its own (created, migrated,
dropped). Reports the lateness of each job (when a worker started it, minus when it was due,
both recorded by the task library), its p50, p99 and maximum, jobs run more than once (a job's
``worker_ids`` holds every worker that claimed it) and jobs not run; then the memory (RSS) and
CPU time of the two workers over a minute of idling, when every job is done.

    .venv/bin/python bench/tasks_lateness.py [--jobs 10000] [--minutes 10] [--workers 2]

(BENCH_POSTGRES as for ``run.py``: postgres://postgres@127.0.0.1:5432.) Exit status 1 when the
p99 is over 5 s (a job should run within one poll of its instant) or a job ran twice or
not at all.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
P99_TARGET = 5.0  # seconds
PER_SECOND = 50  # at most this many jobs due in any one second
IDLE_SECONDS = 60


def instants(jobs: int, seconds: int, rng: random.Random) -> list[float]:
    """``jobs`` offsets in [0, seconds), scattered, never more than PER_SECOND in one second."""
    if jobs > seconds * PER_SECOND:
        raise SystemExit(f"{jobs} jobs do not fit in {seconds} s at {PER_SECOND} a second")
    per_second = [0] * seconds
    offsets = []
    while len(offsets) < jobs:
        second = rng.randrange(seconds)
        if per_second[second] < PER_SECOND:
            per_second[second] += 1
            offsets.append(second + rng.random())
    return sorted(offsets)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def process_usage(pid: int) -> tuple[float, float]:
    """(RSS in MB, CPU seconds used so far) of a process, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        rss_kb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss_kb / 1024, (int(fields[11]) + int(fields[12])) / ticks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from scratch import Services, log

    postgres = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432").rstrip("/")
    services = Services(postgres, "redis://127.0.0.1:6379/13")
    workers: list[subprocess.Popen] = []
    try:
        database_url = services.create_database()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url,
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "LOG_LEVEL": "WARNING",
        }
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import transaction
        from django.utils import timezone
        from django_tasks_db.models import DBTaskResult

        from events.management.worker import probe

        log(f"scratch database {services.database}")
        call_command("migrate", verbosity=0)
        seconds = int(args.minutes * 60)
        start = timezone.now() + timedelta(seconds=15)  # the workers start meanwhile
        offsets = instants(args.jobs, seconds, random.Random(44))
        with transaction.atomic():
            for number, offset in enumerate(offsets):
                probe.using(run_after=start + timedelta(seconds=offset)).enqueue(number)
        log(f"{args.jobs} jobs due over {seconds} s from {start:%H:%M:%S}")
        for number in range(args.workers):
            workers.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "worker", "-v0", f"--worker-id=bench-{number}"],
                    cwd=ROOT,
                    env=env,
                )
            )
        deadline = time.monotonic() + 15 + seconds + 120
        while time.monotonic() < deadline:
            left = DBTaskResult.objects.filter(task_path__endswith=".probe").exclude(
                status="SUCCESSFUL"
            )
            if not left.exists():
                break
            time.sleep(2)
        rows = list(
            DBTaskResult.objects.filter(task_path__endswith=".probe").values_list(
                "status", "run_after", "started_at", "worker_ids"
            )
        )
        done = [r for r in rows if r[0] == "SUCCESSFUL"]
        late = [(r[2] - r[1]).total_seconds() for r in done]
        twice = sum(1 for r in rows if len(r[3]) > 1)
        per_worker = {
            w: sum(1 for r in done if r[3] and r[3][-1] == w)
            for w in {r[3][-1] for r in done if r[3]}
        }
        before = [process_usage(w.pid) for w in workers]
        time.sleep(IDLE_SECONDS)
        after = [process_usage(w.pid) for w in workers]
        p50, p99, worst = percentile(late, 0.5), percentile(late, 0.99), max(late)
        print(
            f"jobs at their instant: {len(done):,} of {args.jobs:,} run by {args.workers} workers "
            f"({per_worker}); lateness p50 {p50:.2f} s, p99 {p99:.2f} s, max {worst:.2f} s; "
            f"{twice} run twice, {args.jobs - len(done)} not run"
        )
        for number, ((rss, cpu0), (_rss, cpu1)) in enumerate(zip(before, after, strict=True)):
            print(
                f"idle worker {number}: {rss:.0f} MB resident, "
                f"{(cpu1 - cpu0) / IDLE_SECONDS * 100:.2f} % of a core over {IDLE_SECONDS} s"
            )
        return 0 if p99 <= P99_TARGET and not twice and len(done) == args.jobs else 1
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()
        services.close()


if __name__ == "__main__":
    sys.exit(main())
