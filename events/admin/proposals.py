"""Results from players in the admin: read only; the desk's page
decides proposals (events/desk/views/proposals.py, through events/services/proposals.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from events.admin.base import CompetitionFilter, EventFilter, SafeAdminMixin, filter_on
from events.models import ResultProposal


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
