"""The player's call for help: a reason and an optional note."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from events.help.models import MAX_NOTE, HelpCall


class HelpForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("What is it about?"),
        choices=HelpCall.Reason.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose a reason."),
            "invalid_choice": _("Choose one of the reasons listed."),
        },
    )
    note = forms.CharField(
        label=_("A note for the desk (optional)"),
        max_length=MAX_NOTE,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
