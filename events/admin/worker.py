"""The workers in the admin, read only: which are alive and when each periodic work comes round.
The jobs themselves are the task library's "Task results" (``django_tasks_db``'s admin): what
ran, when, on which worker, and the traceback of a job that failed."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from events.admin.base import SafeAdminMixin
from events.models import PeriodicSlot, WorkerBeat


class ReadOnlyAdmin(SafeAdminMixin, admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WorkerBeat)
class WorkerBeatAdmin(ReadOnlyAdmin):
    list_display = ["worker_id", "host", "pid", "started_at", "seen_at"]


@admin.register(PeriodicSlot)
class PeriodicSlotAdmin(ReadOnlyAdmin):
    list_display = ["name", "last_run_at", "due_at"]
