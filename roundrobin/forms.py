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
    reminder_hours = forms.IntegerField(
        label=_("Reminder (hours before the deadline)"),
        min_value=0,
        max_value=24 * 30,
        initial=6,
        required=False,
        help_text=_("E-mail players who have not moved this long before the deadline; 0 = never."),
    )


class MoveForm(forms.Form):
    """A move on the private page: the game, the turn the player answers, the move's text."""

    game = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    turn = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    move = forms.CharField(label=_("Your move"), max_length=200, strip=True)


class ResultForm(forms.Form):
    """A game's result as the organiser enters it; ``revision`` is the game's revision the
    page was drawn from (stale edits are refused by the service)."""

    RESULTS = [("1-0", "1-0"), ("1/2-1/2", "½-½"), ("0-1", "0-1")]

    result = forms.ChoiceField(
        label=_("Result"),
        choices=RESULTS,
        error_messages={"invalid_choice": _("Choose 1-0, ½-½ or 0-1.")},
    )
    revision = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
