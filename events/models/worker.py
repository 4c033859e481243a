"""What the workers keep beside the task library's own table (``django_tasks_db``): who is alive
and when each periodic job last started. The library claims, runs and records jobs; it has no
periodic jobs and leaves a job "running" when its worker dies, so these two tables cover that
(``events/management/worker.py``)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class WorkerBeat(models.Model):
    """A worker process says it is alive every few seconds. A job whose worker has not been
    heard from for ``TASK_WORKER_STALE_SECONDS`` was held by a process that died: it runs again."""

    worker_id = models.CharField(_("worker"), max_length=64, primary_key=True)
    host = models.CharField(_("host"), max_length=255, blank=True)
    pid = models.PositiveIntegerField(_("process"), default=0)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    seen_at = models.DateTimeField(_("last seen at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("worker")
        verbose_name_plural = _("workers")
        ordering = ["-seen_at"]

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}"


class PeriodicSlot(models.Model):
    """When a periodic job is next due. The worker that moves ``due_at`` forward (a conditional
    update) enqueues the job: once per period, however many workers run."""

    name = models.CharField(_("job"), max_length=100, primary_key=True)
    due_at = models.DateTimeField(_("next run at"), default=timezone.now)
    last_run_at = models.DateTimeField(_("last run at"), null=True, blank=True)

    class Meta:
        verbose_name = _("periodic job")
        verbose_name_plural = _("periodic jobs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
