from django import forms
from django.utils.translation import gettext_lazy as _


class ShuffleboardSettingsForm(forms.Form):
    games = forms.IntegerField(
        label=_("Games per player"),
        min_value=1,
        max_value=50,
        initial=10,
        help_text=_("Usually 5, 10 or 20; the scores are summed."),
    )
    boards = forms.IntegerField(label=_("Boards"), min_value=1, max_value=200, initial=4)
    bonus_disc = forms.BooleanField(label=_("Bonus-disc rule"), required=False, initial=False)
