"""Calls for help in the admin: read only (their writes are the room's services); each call's
history shows when it was made, taken and closed, and by whom."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from events.admin.base import EventFilter, SafeAdminMixin, filter_on
from events.help.models import HelpCall


@admin.register(HelpCall)
class HelpCallAdmin(SafeAdminMixin, admin.ModelAdmin):
    list_display = ["competition", "table", "reason", "created_at", "taken_at", "closed_at"]
    list_filter = [filter_on(EventFilter, "competition__event"), "reason"]
    list_select_related = ["competition__event"]
    readonly_fields = [
        "competition",
        "entry",
        "table",
        "reason",
        "note",
        "created_at",
        "taken_at",
        "taken_by",
        "closed_at",
        "closed_by",
    ]
    exclude = ["key"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
