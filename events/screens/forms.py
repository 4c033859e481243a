"""The desk's forms of the screens room: pairing a screen and choosing what it shows."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.models import Competition
from events.screens.models import CODE_LENGTH, MAX_ANNOUNCEMENT, MAX_NAME, Shows


class PairForm(forms.Form):
    code = forms.CharField(
        label=_("Code on the screen"),
        max_length=CODE_LENGTH * 2,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )
    name = forms.CharField(
        label=_("Name of the screen"),
        max_length=MAX_NAME,
        help_text=_("Where it stands, e.g. “Hall left”."),
    )


class ShowForm(forms.Form):
    shows = forms.ChoiceField(label=_("Show"), choices=Shows.choices, widget=forms.RadioSelect)
    announcement = forms.CharField(
        label=_("Text of the announcement"),
        max_length=MAX_ANNOUNCEMENT,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    competition = forms.ModelChoiceField(
        label=_("Competition"), queryset=Competition.objects.none(), required=False
    )

    def __init__(self, *args: Any, competitions: list[Competition], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["competition"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Competition.objects.filter(pk__in=[c.pk for c in competitions])
        if len(competitions) < 2:
            field.widget = forms.HiddenInput()
