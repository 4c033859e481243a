"""The outbox in the admin: read only; the workers send, the desk and the action here
put failed messages back in the queue."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from events.admin.base import EventFilter, SafeAdminMixin, filter_on
from events.outbox import queue
from events.outbox.models import OutboxMessage


@admin.register(OutboxMessage)
class OutboxMessageAdmin(SafeAdminMixin, admin.ModelAdmin):
    """The outbox (events/outbox/queue.py): read only; the workers send, the desk and
    the action here put failed messages back in the queue."""

    list_display = ["created_at", "event", "to", "subject", "status", "attempts", "sent_at"]
    list_filter = [filter_on(EventFilter, "event"), "status", "channel"]
    list_select_related = ["event"]
    search_fields = ["to", "subject", "key"]
    actions = ["try_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=gettext_lazy("Try the failed messages again"))
    def try_again(self, request: HttpRequest, queryset: Any) -> None:
        count = queue.retry(messages=queryset)
        self.message_user(
            request,
            ngettext("%(count)s e-mail goes out again.", "%(count)s e-mails go out again.", count)
            % {"count": count},
        )
