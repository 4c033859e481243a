from django import forms
from django.utils.translation import gettext_lazy as _


class BlokusSettingsForm(forms.Form):
    qualifying_sessions = forms.IntegerField(
        label=_("Qualifying sessions"), min_value=1, max_value=10, initial=2
    )
    capacity = forms.IntegerField(
        label=_("Players per session"),
        min_value=4,
        max_value=64,
        initial=12,
        help_text=_("At most this many play; the rest checked in are reserves (a multiple of 4)."),
    )
    rounds_per_session = forms.IntegerField(
        label=_("Rounds per session"), min_value=1, max_value=10, initial=4
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"), min_value=1, max_value=180, initial=15
    )
    official_bonus = forms.BooleanField(
        label=_("Official bonus (+15 all placed, +20 with the monomino last)"),
        required=False,
        initial=False,
        help_text=_("Off: the LinCon rule, +5 for all placed with the monomino last."),
    )

    def clean_capacity(self) -> int:
        capacity = self.cleaned_data["capacity"]
        if capacity % 4:
            raise forms.ValidationError(_("Players per session must be a multiple of 4."))
        return capacity
