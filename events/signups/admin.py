"""Sign-ups before the day, read only here: their writes are the sign-up services
(``events.signups.services.lifecycle``: locks, caps, the waitlist), which the desk's pages
call; each sign-up's history shows every step."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _, ngettext

from events.admin.base import EventFilter, SafeAdminMixin, filter_on
from events.errors import ServiceError
from events.signups.models import SignUp, SignUpWindow
from events.signups.services import desk as signup_desk


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


@admin.action(description=_("Merge with the possible duplicate (the same person)"))
def merge_duplicates(modeladmin: Any, request: HttpRequest, queryset: QuerySet[SignUp]) -> None:
    """The desk's merge (events.signups.services.desk.signup_merge) for each chosen sign-up."""
    merged = 0
    for sign_up in queryset.filter(possible_duplicate__isnull=False):
        try:
            signup_desk.signup_merge(sign_up=sign_up)
        except ServiceError as exc:
            modeladmin.message_user(request, f"{sign_up.name}: {exc.text}", messages.ERROR)
        else:
            merged += 1
    modeladmin.message_user(
        request,
        ngettext("%(count)s sign-up merged.", "%(count)s sign-ups merged.", merged)
        % {"count": merged},
        messages.SUCCESS,
    )


@admin.register(SignUp)
class SignUpAdmin(ReadOnly, SafeAdminMixin, admin.ModelAdmin):
    actions = [merge_duplicates]
    list_display = ["name", "email", "window", "status", "created_at", "confirmed_at"]
    list_filter = [filter_on(EventFilter, "window__competition__event"), "status"]
    list_select_related = ["window__competition__event"]
    search_fields = ["name", "email", "club"]
