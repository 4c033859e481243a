from django import forms
from django.utils.translation import gettext_lazy as _


class RoundRobinSettingsForm(forms.Form):
    COLOURS = [("random", _("Random")), ("berger", _("Balanced (Berger tables)"))]

    max_table_size = forms.IntegerField(
        label=_("Largest table"), min_value=3, max_value=20, initial=7
    )
    hours_per_move = forms.IntegerField(
        label=_("Hours per move"), min_value=1, max_value=24 * 30, initial=24
    )
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    colours = forms.ChoiceField(label=_("Colours"), choices=COLOURS, initial="random")
