"""Hosting clubs in Django admin, for site staff: the settings (through the same checks as the
desk) and the roles; a club's roles change here only as the desk's rules allow."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.forms import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _, ngettext

from events.admin.base import SafeAdmin, SafeWidgetsMixin
from events.clubs.models import ClubInvitation
from events.clubs.services import club_approve
from events.models import ClubRole, HostClub
from events.versions import versions_bump


class ClubRoleFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        kept = [
            form.cleaned_data
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        if self.instance.pk and not any(row.get("role") == ClubRole.Role.OWNER for row in kept):
            raise ValidationError(_("A club always has an owner: keep or name one."))


class ClubRoleInline(SafeWidgetsMixin, admin.TabularInline):
    model = ClubRole
    formset = ClubRoleFormSet
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(HostClub)
class HostClubAdmin(SafeAdmin):
    list_display = [
        "name",
        "slug",
        "country",
        "language",
        "is_listed",
        "is_approved",
        "deletion_requested_at",
    ]
    list_filter = ["is_approved", "country", "language", "is_listed"]
    search_fields = ["name", "short_name", "slug"]
    readonly_fields = ["is_approved", "deletion_requested_at", "created_at"]
    inlines = [ClubRoleInline]
    actions = ["approve"]

    @admin.action(description=_("Approve the chosen clubs (their owners are told)"))
    def approve(self, request: Any, queryset: Any) -> None:
        approved = sum(club_approve(club=club, by=request.user) for club in queryset)
        self.message_user(
            request,
            ngettext("%(count)s club approved.", "%(count)s clubs approved.", approved)
            % {"count": approved},
        )

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).defer("logo")

    def save_model(self, request: Any, obj: HostClub, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # Its name and colours are on its events' pages: they re-render, as after the desk.
        versions_bump(events=Q(host=obj), competitions=Q(event__host=obj))


@admin.register(ClubInvitation)
class ClubInvitationAdmin(SafeAdmin):
    """Invitations as the owners sent them: read, never written here (a link's secret is not
    stored, so a new one is sent from the club's people page)."""

    list_display = ["email", "club", "role", "created_at", "expires_at", "accepted_at"]
    list_filter = ["role"]
    search_fields = ["email", "club__name"]
    list_select_related = ["club"]
    readonly_fields = [
        "club",
        "email",
        "role",
        "invited_by",
        "created_at",
        "expires_at",
        "accepted_at",
        "accepted_by",
        "withdrawn_at",
    ]
    exclude = ["token_hash"]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
