"""The widget's sites in the admin, for site staff: the same checks as the desk's form (every
refused line named) and the same services, which bump the versions the framing header is keyed
on, so a widget's framing follows an admin's edit as it follows the desk's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from events.admin.base import SafeAdminMixin
from events.embed.forms import SITES_HELP, sites_errors
from events.embed.models import ClubEmbed, EventEmbed
from events.embed.origins import parse_sites
from events.embed.services import club_sites_save, event_sites_save


class SitesAdminForm(forms.ModelForm):
    def clean_sites(self) -> str:
        parsed, errors = parse_sites(self.cleaned_data.get("sites") or "")
        if errors:
            raise ValidationError(sites_errors(errors))
        return "\n".join(parsed)


class SitesAdmin(SafeAdminMixin, admin.ModelAdmin):
    form = SitesAdminForm
    readonly_fields = ("changed_at", "changed_by")

    def get_form(self, request: Any, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        if "sites" in form.base_fields:
            form.base_fields["sites"].help_text = SITES_HELP
        return form

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # The event or club of a row is fixed once it exists: the row is that one's list.
        owner = "event" if self.model is EventEmbed else "club"
        return (*self.readonly_fields, owner) if obj is not None else self.readonly_fields


@admin.register(EventEmbed)
class EventEmbedAdmin(SitesAdmin):
    list_display = ("event", "with_club_sites", "changed_at")
    search_fields = ("event__name", "event__slug")
    autocomplete_fields = ("event",)

    def save_model(self, request: Any, obj: EventEmbed, form: Any, change: bool) -> None:
        saved = event_sites_save(
            obj.event, sites=obj.sites, with_club_sites=obj.with_club_sites, by=request.user
        )
        obj.pk, obj.changed_at, obj.changed_by = saved.pk, saved.changed_at, saved.changed_by


@admin.register(ClubEmbed)
class ClubEmbedAdmin(SitesAdmin):
    list_display = ("club", "changed_at")
    search_fields = ("club__name", "club__slug")
    autocomplete_fields = ("club",)

    def save_model(self, request: Any, obj: ClubEmbed, form: Any, change: bool) -> None:
        saved = club_sites_save(obj.club, sites=obj.sites, by=request.user)
        obj.pk, obj.changed_at, obj.changed_by = saved.pk, saved.changed_at, saved.changed_by
