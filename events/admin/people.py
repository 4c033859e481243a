"""Players, events, competitions and entries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy as _

from events.desk.views.downloads import admin_competition_xlsx, admin_event_json
from events.formats import default_settings
from events.models import (
    Competition,
    Entry,
    Event,
    EventRole,
    Game,
    Player,
)
from events.services import competition_touch, games_changed
from events.versions import versions_bump

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


from events.admin.base import (
    CompetitionFilter,
    EntriesTotal,
    EventFilter,
    ProtectResultsMixin,
    SafeAdmin,
    SafeWidgetsMixin,
    TouchingAdmin,
    filter_on,
)


@admin.register(Player)
class PlayerAdmin(SafeAdmin):
    list_display = ["name", "club", "email", "language", "rating", "rated_games", "created_at"]
    search_fields = ["name", "club", "email", "search_text"]
    list_filter = ["club", "language"]

    def get_readonly_fields(self, request, obj=None):
        # A register row stays in its club: its entries are at that club's events.
        fields = super().get_readonly_fields(request, obj)
        return [*fields, "host"] if obj is not None else fields

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # A player's name and rating show on every competition they are in.
        for competition in Competition.objects.filter(entries__player=obj).distinct():
            competition_touch(competition)


class CompetitionInlineForm(forms.ModelForm):
    """The event's inline edits name, address, format and status; a competition added here
    starts with its format's default settings, and a settings problem (after a format change)
    is shown on the row instead of crashing the page."""

    class Meta:
        model = Competition
        fields = ["name", "slug", "format", "status"]

    def clean(self):
        cleaned: dict[str, Any] = super().clean() or {}
        key = cleaned.get("format")
        if key and (self.instance.pk is None or "format" in self.changed_data):
            try:
                self.instance.settings = default_settings(key)
            except KeyError:
                pass
        return cleaned

    def _update_errors(self, errors: ValidationError) -> None:
        if hasattr(errors, "error_dict") and "settings" in errors.error_dict:
            moved = dict(errors.error_dict)
            moved[NON_FIELD_ERRORS] = [*moved.get(NON_FIELD_ERRORS, []), *moved.pop("settings")]
            errors = ValidationError(moved)
        super()._update_errors(errors)  # type: ignore[misc]


class CompetitionInline(SafeWidgetsMixin, admin.TabularInline):
    model = Competition
    form = CompetitionInlineForm
    fields = ["name", "slug", "format", "status"]
    extra = 0
    show_change_link = True


class EventAdmin(ProtectResultsMixin, SafeAdmin):
    list_display = ["name", "slug", "starts_on", "ends_on", "venue", "language", "is_public"]
    list_filter = ["is_public", "language", "starts_on"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    # Roles (owner, organiser, scorekeeper) are EventRole rows: the owner manages them on the
    # desk's "People" page, an admin under "Event roles".
    inlines = [CompetitionInline]
    actions = [admin_event_json]

    def get_readonly_fields(self, request, obj=None):
        # Events do not move between clubs: their players are the club's register.
        fields = super().get_readonly_fields(request, obj)
        return [*fields, "host"] if obj is not None else fields

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(round__session__competition__event__in=pks)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if "language" in form.base_fields:
            # A form drawn before events had a language posts none: the stored one stays.
            form.base_fields["language"].required = False
        return form

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        # The event's name, venue and its competitions show on every public page of it.
        versions_bump(competitions=Q(event=form.instance), events=Q(pk=form.instance.pk))
        if change and "starts_on" in form.changed_data:
            games_changed(Competition.objects.filter(event=form.instance))


admin.site.register(Event, EventAdmin)


@admin.register(EventRole)
class EventRoleAdmin(SafeAdmin):
    list_display = ["event", "user", "role"]
    list_filter = ["role"]
    list_select_related = ["event", "user"]
    search_fields = ["event__name", "user__username"]
    autocomplete_fields = ["event", "user"]


class SettingsField(forms.JSONField):
    """A JSON field that refuses nesting too deep to parse instead of crashing."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except RecursionError:
            raise ValidationError(
                gettext("Settings must be plain values."), code="invalid"
            ) from None

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return forms.fields.InvalidJSONInput(data)


class CompetitionForm(forms.ModelForm):
    class Meta:
        model = Competition
        fields = "__all__"
        field_classes = {"settings": SettingsField}


class EntryInline(SafeWidgetsMixin, admin.TabularInline):
    model = Entry
    fields = ["player", "registered_at", "checked_in_at", "withdrawn_at"]
    readonly_fields = ["registered_at"]
    autocomplete_fields = ["player"]
    extra = 0

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("player")


@admin.register(Competition)
class CompetitionAdmin(ProtectResultsMixin, TouchingAdmin):
    form = CompetitionForm
    list_display = ["name", "event", "format", "status", "entry_count"]
    list_filter = [EventFilter, "format", "status"]
    list_select_related = ["event"]
    search_fields = ["name", "event__name"]
    autocomplete_fields = ["event"]
    inlines = [EntryInline]
    actions = [admin_competition_xlsx]

    def competition_of(self, obj: Competition) -> Competition:
        return obj

    def games_of(self, pks: list[Any]) -> QuerySet[Game]:
        return Game.objects.filter(round__session__competition__in=pks)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return super().get_queryset(request).annotate(entries_total=Count("entries"))

    @admin.display(description=_("entries"), ordering="entries_total")
    def entry_count(self, obj: WithAnnotations[Competition, EntriesTotal]) -> int:
        return obj.entries_total


@admin.register(Entry)
class EntryAdmin(TouchingAdmin):
    list_display = ["player", "competition", "registered_at", "checked_in_at", "withdrawn_at"]
    list_filter = [
        filter_on(EventFilter, "competition__event"),
        CompetitionFilter,
        "competition__format",
        ("withdrawn_at", admin.EmptyFieldListFilter),
    ]
    list_select_related = ["player", "competition__event"]
    search_fields = [
        "player__name",
        "player__club",
        "competition__name",
        "competition__event__name",
    ]
    autocomplete_fields = ["player", "competition"]

    def competition_of(self, obj: Entry) -> Competition:
        return obj.competition

    def get_search_results(self, request, queryset, search_term):
        queryset, distinct = super().get_search_results(request, queryset, search_term)
        # The autocomplete of a seat's entry names the competition too.
        return queryset.select_related("player", "competition"), distinct


# --- sessions, rounds, games, seats ------------------------------------------------------
