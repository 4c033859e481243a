from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.common.forms import SettingsForm
from roundrobin import rules
from roundrobin.format import COLOURS_BERGER, COLOURS_RANDOM, RoundRobinSettings
from roundrobin.rules.leave import MAX_LEAVE_DAYS
from roundrobin.rules.turns import ALTERNATING, SIMULTANEOUS

DEFAULTS = RoundRobinSettings()
BAD_RESULT = _("Choose 1-0, ½-½ or 0-1.")
RESULT_BUTTONS = {"1-0": "1-0", "1/2-1/2": "½-½", "0-1": "0-1"}
# The desk's result buttons in words, from White's side (the stored result key).
RESULT_WORDS = {"1-0": _("White won"), "1/2-1/2": _("Draw"), "0-1": _("Black won")}


class RoundRobinSettingsForm(SettingsForm):
    """The settings of ``RoundRobinSettings``; its defaults are this form's initial values."""

    settings_class = RoundRobinSettings

    COLOURS = [(COLOURS_RANDOM, _("Random")), (COLOURS_BERGER, _("Balanced (Berger tables)"))]

    max_table_size = forms.IntegerField(label=_("Largest table"), min_value=3, max_value=20)
    hours_per_move = forms.IntegerField(
        label=_("Hours per move"),
        min_value=1,
        max_value=24 * 30,
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)
    colours = forms.ChoiceField(label=_("Colours"), choices=COLOURS)
    reminder_hours = forms.IntegerField(
        label=_("Reminder (hours before the deadline)"),
        min_value=0,
        max_value=24 * 30,
        required=False,
        help_text=_("E-mail players who have not moved this long before the deadline; 0 = never."),
    )
    share_mini_ties = forms.BooleanField(
        label=_("Share ties left after a mini round robin"),
        required=False,
        help_text=_("Otherwise two players still tied play a decider, three or more a replay."),
    )

    leave_days = forms.IntegerField(
        label=_("Leave days per player"),
        min_value=0,
        max_value=MAX_LEAVE_DAYS,
        required=False,
        help_text=_("Days a player may pause their clocks in total; 0 = no leave."),
    )

    turns = forms.ChoiceField(
        label=_("Turns"),
        choices=[
            (SIMULTANEOUS, _("Simultaneous: both players move in every turn")),
            (ALTERNATING, _("Alternating: one player to move at a time")),
        ],
        required=False,
        help_text=_(
            "Alternating: the clock runs per move for the player to move; two own moves missed "
            "in a row lose; a move pair both missed is a double timeout."
        ),
    )


class MoveForm(forms.Form):
    """A move on the private page: the game, the turn the player answers, the move's text."""

    game = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    turn = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    move = forms.CharField(label=_("Your move"), max_length=200, strip=True)


class ResultForm(forms.Form):
    """A game's result as the organiser enters it; ``revision`` is the game's revision the
    page was drawn from (stale edits are refused by the service)."""

    RESULTS = [(key, RESULT_BUTTONS[key]) for key in rules.RESULT_KEYS]

    result = forms.ChoiceField(
        label=_("Result"), choices=RESULTS, error_messages={"invalid_choice": BAD_RESULT}
    )
    revision = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)

    def clean_result(self) -> Any:
        result = self.cleaned_data["result"]
        try:
            rules.result_points(result)
        except rules.InvalidResult:
            raise forms.ValidationError(BAD_RESULT, code="bad_result") from None
        return result


# --- adjudicating a table (A-RR-15), leave days (L-RR) --------------------------------------

ADJUDICATIONS = [
    ("", _("leave open")),
    ("1-0", _("1-0 (White wins)")),
    ("1/2-1/2", _("½-½ (draw)")),
    ("0-1", _("0-1 (Black wins)")),
    ("unplayed", _("unplayed (cancelled, no points)")),
]


class AdjudicateForm(forms.Form):
    """The organiser's override for a table that will not finish (A-RR-15): a reason; the games'
    choices (``game-<id>``) and revisions (``revision-<id>``) are read by the view from the
    fields listed in the page, and checked by the service."""

    reason = forms.CharField(
        label=_("Why (shown in the correction trail)"),
        max_length=300,
        strip=True,
        error_messages={"required": _("Say why the games are adjudicated.")},
    )


class LeaveForm(forms.Form):
    """A leave: the first day (in the event's time zone; today = from now) and how many days."""

    start = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=MAX_LEAVE_DAYS)
    entry = forms.IntegerField(min_value=1, max_value=2**31 - 1, required=False)


def form_errors(form: forms.Form) -> str:
    """A form's errors as one line, for a message or a fragment's error."""
    return " ".join(str(message) for errors in form.errors.values() for message in errors)
