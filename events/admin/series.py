"""Series in the admin: the formula and the membership, with the desk's checks (the service's
``formula_check`` and the format rule), and every save bumping the series' public page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.admin.base import SafeAdminMixin
from events.errors import ServiceError
from events.models import Series, SeriesCompetition
from events.series.services import FORMULA_FIELDS, formula_check
from events.versions import versions_bump


class SeriesAdminForm(forms.ModelForm):
    class Meta:
        model = Series
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        values = {f: cleaned.get(f) for f in FORMULA_FIELDS}
        try:
            formula_check(values)
        except ServiceError as exc:
            raise ValidationError(
                exc.message_dict if hasattr(exc, "error_dict") else exc.messages
            ) from None
        return cleaned


class MemberFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        series_format = self.instance.format if self.instance else None
        for form in self.forms:
            if not getattr(form, "cleaned_data", None) or form.cleaned_data.get("DELETE"):
                continue
            competition = form.cleaned_data.get("competition")
            if competition is not None and series_format and competition.format != series_format:
                form.add_error(
                    "competition", _("Only competitions of the series' format can join it.")
                )


class MemberInline(admin.TabularInline):
    model = SeriesCompetition
    formset = MemberFormSet
    extra = 0
    autocomplete_fields = ["competition"]


@admin.register(Series)
class SeriesAdmin(SafeAdminMixin, admin.ModelAdmin):
    form = SeriesAdminForm
    list_display = ["name", "format", "kind", "is_public"]
    list_filter = ["format", "kind", "is_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [MemberInline]

    def get_readonly_fields(self, request, obj=None):
        # A series' format stays once competitions have joined (they are of that format).
        return ["format"] if obj is not None and obj.members.exists() else []

    def save_related(self, request, form, formsets, change) -> None:
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            versions_bump(series=Q(pk=form.instance.pk))
