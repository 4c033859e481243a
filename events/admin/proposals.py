"""Results from players (issue 16) and the outbox in the admin: read only; the desk's page
decides proposals (events/desk/views/proposals.py, through events/services/proposals.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy, ngettext

from events.admin.base import CompetitionFilter, EventFilter, SafeAdminMixin, filter_on
from events.models import OutboxMessage, ResultProposal
from events.services import outbox


@admin.register(ResultProposal)
class ResultProposalAdmin(SafeAdminMixin, admin.ModelAdmin):
    list_display = ["created_at", "competition", "game", "entry", "status", "confirmed_by"]
    list_filter = [
        filter_on(EventFilter, "competition__event"),
        CompetitionFilter,
        "status",
    ]
    list_select_related = [
        "competition__event",
        "game__round__session",
        "entry__player",
        "entry__competition",
        "confirmed_by__player",
        "confirmed_by__competition",
    ]
    search_fields = ["entry__player__name", "note"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def view_on_site(self, obj: ResultProposal) -> str:
        return obj.competition.get_desk_url()


@admin.register(OutboxMessage)
class OutboxMessageAdmin(SafeAdminMixin, admin.ModelAdmin):
    """The outbox (events/services/outbox.py): read only; the deadline loop sends, the desk and
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
        count = outbox.retry(messages=queryset)
        self.message_user(
            request,
            ngettext("%(count)s e-mail goes out again.", "%(count)s e-mails go out again.", count)
            % {"count": count},
        )
