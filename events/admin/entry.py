"""Sign-ups before the day (issue 29), read only here: their writes are the sign-up services
(``events.services.signups``: locks, caps, the waitlist), which the desk's pages call; each
sign-up's history shows every step."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from events.admin.base import EventFilter, SafeAdminMixin, filter_on
from events.models import SignUp, SignUpWindow


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SignUpWindow)
class SignUpWindowAdmin(ReadOnly, SafeAdminMixin, admin.ModelAdmin):
    list_display = ["competition", "opens_at", "closes_at", "cap", "waitlist_limit"]
    list_filter = [filter_on(EventFilter, "competition__event")]
    list_select_related = ["competition__event"]
    search_fields = ["competition__name", "competition__event__name"]


@admin.register(SignUp)
class SignUpAdmin(ReadOnly, SafeAdminMixin, admin.ModelAdmin):
    list_display = ["name", "email", "window", "status", "created_at", "confirmed_at"]
    list_filter = [filter_on(EventFilter, "window__competition__event"), "status"]
    list_select_related = ["window__competition__event"]
    search_fields = ["name", "email", "club"]
