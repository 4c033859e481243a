from django import forms
from django.utils.translation import gettext_lazy as _

from blokus import rules


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


MONOMINO_WITH_SQUARES = _(
    "The monomino can count as the last piece only when every piece was placed (0 squares left)."
)


class SessionTimesForm(forms.Form):
    """One roll-call time per qualifying session (R-BLK-08), in the event's time zone."""

    def __init__(self, *args, count: int, **kwargs):
        super().__init__(*args, **kwargs)
        for number in range(1, count + 1):
            self.fields[f"session_{number}"] = forms.DateTimeField(
                label=_("Session %(number)s roll call") % {"number": number},
                required=False,
                widget=forms.DateTimeInput(
                    format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}
                ),
            )

    def roll_calls(self) -> list:
        return [self.cleaned_data[name] for name in self.fields]


class ResultForm(forms.Form):
    """One table's result: for each seat the squares left (typed, or added up from the pieces
    tapped), and whether the monomino went last."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    confirm = forms.BooleanField(
        required=False,
        label=_("Correct it anyway: later rounds were drawn with the old result."),
    )

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat_rows = list(seats)
        pieces = [(name, name) for name in rules.PIECE_SIZES]
        for row in self.seat_rows:
            pk = row.seat.pk
            self.fields[f"squares_{pk}"] = forms.IntegerField(
                label=_("Squares left"),
                min_value=0,
                max_value=rules.TOTAL_SQUARES,
                required=False,
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "class": "squares", "data-seat": pk}
                ),
            )
            self.fields[f"monomino_{pk}"] = forms.BooleanField(
                label=_("Monomino last"), required=False
            )
            self.fields[f"pieces_{pk}"] = forms.MultipleChoiceField(
                choices=pieces, required=False, widget=forms.CheckboxSelectMultiple
            )

    def bound_rows(self):
        for row in self.seat_rows:
            pk = row.seat.pk
            yield row, self[f"squares_{pk}"], self[f"monomino_{pk}"], self[f"pieces_{pk}"]

    def clean(self):
        data = super().clean()
        for row in self.seat_rows:
            pk = row.seat.pk
            squares = data.get(f"squares_{pk}")
            pieces = data.get(f"pieces_{pk}") or []
            mono = bool(data.get(f"monomino_{pk}"))
            if f"squares_{pk}" in self.errors:
                continue
            if squares is None and pieces:
                squares = data[f"squares_{pk}"] = rules.squares_of(pieces)
            if squares is None:
                self.add_error(f"squares_{pk}", _("Enter the squares left (0 if all placed)."))
                continue
            if pieces and rules.squares_of(pieces) != squares:
                self.add_error(
                    f"squares_{pk}",
                    _("The pieces tapped add up to %(n)s, not %(squares)s.")
                    % {"n": rules.squares_of(pieces), "squares": squares},
                )
            if mono and squares:
                self.add_error(f"monomino_{pk}", MONOMINO_WITH_SQUARES)
        return data

    def hands(self):
        from blokus.services import HandInput

        return [
            HandInput(
                seat_id=row.seat.pk,
                squares_left=self.cleaned_data[f"squares_{row.seat.pk}"],
                monomino_last=bool(self.cleaned_data.get(f"monomino_{row.seat.pk}")),
                pieces=tuple(self.cleaned_data.get(f"pieces_{row.seat.pk}") or ()),
            )
            for row in self.seat_rows
        ]
