"""The desk's series forms: a new series, its formula, a competition joining. What is checked
here is the shape; the ranges and the format are the service's (one rule, also for the admin)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.formats import format_choices
from events.series.models import MAX_COUNTED, SeriesKind


class FormulaForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    info = forms.CharField(label=_("Information"), max_length=300, required=False)
    kind = forms.ChoiceField(label=_("Formula"), choices=SeriesKind.choices)
    table = forms.CharField(
        label=_("Placement points"),
        max_length=300,
        required=False,
        help_text=_(
            "Points for 1st, 2nd, 3rd … separated by commas; empty: field size − place + 1."
        ),
    )
    best = forms.IntegerField(
        label=_("Best results counted"),
        min_value=1,
        max_value=MAX_COUNTED,
        required=False,
        help_text=_("Empty: all results count."),
    )
    drop_worst = forms.IntegerField(
        label=_("Worst results dropped"), min_value=0, max_value=MAX_COUNTED, initial=0
    )
    min_events = forms.IntegerField(
        label=_("Events needed to be ranked"), min_value=1, max_value=MAX_COUNTED, initial=1
    )
    final_counts = forms.BooleanField(
        label=_("A final always counts"), required=False, initial=True
    )
    class_a = forms.IntegerField(
        label=_("Class A from average"), min_value=0, max_value=10_000, required=False
    )
    class_b = forms.IntegerField(
        label=_("Class B from average"),
        min_value=0,
        max_value=10_000,
        required=False,
        help_text=_("Classes by average per game: set both, or neither."),
    )
    is_public = forms.BooleanField(label=_("Listed publicly"), required=False, initial=True)

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["drop_worst"] = data.get("drop_worst") or 0
        data["min_events"] = data.get("min_events") or 1
        data.pop("version", None)
        data.pop("format", None)
        data.pop("host", None)
        return data


class SeriesCreateForm(FormulaForm):
    format = forms.ChoiceField(label=_("Format"), choices=format_choices)
    field_order = ["name", "format"]

    def __init__(self, *args: Any, hosts: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Whose series: one of the clubs the person runs (none: as a new event's, hosts.py).
        self.hosts = {club.slug: club for club in hosts}
        if len(hosts) > 1:
            self.fields["host"] = forms.ChoiceField(
                label=_("Hosting club"),
                choices=[(club.slug, club.name) for club in hosts],
                help_text=_("Its competitions come from this club's events."),
            )
            self.order_fields(["name", "host", "format"])

    def chosen_host(self) -> Any:
        return self.hosts.get(self.cleaned_data.get("host") or "")


class SeriesEditForm(FormulaForm):
    version = forms.IntegerField(widget=forms.HiddenInput)


class JoinForm(forms.Form):
    competition = forms.TypedChoiceField(label=_("Competition"), coerce=int, choices=())
    is_final = forms.BooleanField(label=_("This is the series' final"), required=False)

    def __init__(self, *args: Any, competitions: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["competition"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [
            (c.pk, f"{c.event.name} · {c.name} ({c.event.starts_on:%Y-%m-%d})")
            for c in competitions
        ]
