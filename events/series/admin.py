"""Series in the admin: the formula and the membership, with the desk's checks (the service's
``formula_check`` and ``member_check``) and the desk's writes of members (``series_join``,
``series_member_set``), and every save bumping the series' public page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.forms.formsets import DELETION_FIELD_NAME
from django.http import HttpRequest

from events.admin.base import SafeAdminMixin, SafeWidgetsMixin
from events.errors import ServiceError
from events.series import services
from events.series.models import Series, SeriesCompetition
from events.series.services import FORMULA_FIELDS, formula_check
from events.versions import versions_bump


class SeriesAdminForm(forms.ModelForm):
    class Meta:
        model = Series
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A series stays with its club: its competitions are that club's.
        if self.instance.pk is not None and "host" in self.fields:
            self.fields["host"].disabled = True

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


class MemberForm(forms.ModelForm):
    """One competition of the series. A membership's competition is not changed in place (the
    desk has no such write either): the row is deleted and the other competition added."""

    class Meta:
        model = SeriesCompetition
        fields = ["competition", "is_final"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None and "competition" in self.fields:
            self.fields["competition"].disabled = True


def _deleted(form: forms.BaseForm) -> bool:
    return bool(getattr(form, "cleaned_data", {}).get(DELETION_FIELD_NAME))


class MemberFormSet(forms.BaseInlineFormSet):
    """The desk's rules and writes (``events.series.services``): each competition added is
    checked by ``member_check`` and shown beside its field when refused; the rows are written
    by ``series_join`` and ``series_member_set``, never by the form itself."""

    request: HttpRequest | None = None

    @property
    def by(self) -> Any:
        return getattr(self.request, "user", None)

    def clean(self) -> None:
        super().clean()
        series = self.instance
        touched = [form for form in self.forms if form.has_changed() or _deleted(form)]
        if touched and series.pk is not None:
            try:
                services.ensure_organiser(series, self.by)
            except ServiceError as exc:
                raise ValidationError(exc.messages) from None
        # The same competition in two new rows never gets here: Django's formset refuses it.
        for form in self.extra_forms:
            cleaned = getattr(form, "cleaned_data", None)
            if not cleaned or _deleted(form) or form.errors:
                continue
            try:
                services.member_check(
                    series=series, competition=cleaned.get("competition"), by=self.by
                )
            except ServiceError as exc:
                form.add_error(None, exc)

    def save_new(self, form: Any, commit: bool = True) -> SeriesCompetition:
        return services.series_join(
            series=self.instance,
            competition_id=form.cleaned_data["competition"].pk,
            by=self.by,
            is_final=bool(form.cleaned_data.get("is_final")),
        )

    def save_existing(self, form: Any, obj: Any, commit: bool = True) -> SeriesCompetition:
        services.series_member_set(
            series=self.instance,
            member_id=obj.pk,
            by=self.by,
            is_final=bool(form.cleaned_data.get("is_final")),
        )
        obj.refresh_from_db()
        return obj

    def delete_existing(self, obj: Any, commit: bool = True) -> None:
        services.series_member_set(series=self.instance, member_id=obj.pk, by=self.by, remove=True)


class MemberInline(SafeWidgetsMixin, admin.TabularInline):
    model = SeriesCompetition
    form = MemberForm
    formset = MemberFormSet
    extra = 0
    autocomplete_fields = ["competition"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        return type(formset.__name__, (formset,), {"request": request})


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
