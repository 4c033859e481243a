from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from blokus import rules
from blokus.format import BlokusSettings
from blokus.selectors import SeatRow
from blokus.services import HandInput
from blokus.validation import hand_message
from events.common.forms import SettingsForm

DEFAULTS = BlokusSettings()


class BlokusSettingsForm(SettingsForm):
    """Edits ``BlokusSettings``; its initial values are the dataclass's defaults."""

    settings_class = BlokusSettings

    qualifying_sessions = forms.IntegerField(
        label=_("Qualifying sessions"),
        min_value=1,
        max_value=10,
    )
    capacity = forms.IntegerField(
        label=_("Players per session"),
        min_value=4,
        max_value=64,
        help_text=_("At most this many play; the rest checked in are reserves (a multiple of 4)."),
    )
    rounds_per_session = forms.IntegerField(
        label=_("Rounds per session"),
        min_value=1,
        max_value=10,
    )
    round_minutes = forms.IntegerField(label=_("Minutes per round"), min_value=1, max_value=180)
    official_bonus = forms.BooleanField(
        label=_("Official bonus (+15 all placed, +20 with the monomino last)"),
        required=False,
        help_text=_("Off: the LinCon rule, +5 for all placed with the monomino last."),
    )
    results_from_players = forms.BooleanField(
        label=_("Results from players"),
        required=False,
        help_text=_(
            "Players enter their table's result on their phones with the table code; a second "
            "player at the table confirms it, or the desk accepts it."
        ),
    )

    final_replays = forms.IntegerField(
        label=_("Replays of a tied final"),
        required=False,  # settings stored before this option take the default
        min_value=0,
        max_value=5,
        help_text=_(
            "Players tied for first in the final play again, at most this many times; then "
            "the better qualifier wins. 0: the better qualifier wins at once."
        ),
    )
    three_handed_after_dropout = forms.BooleanField(
        label=_("Three-handed tables after a drop-out"),
        required=False,
        help_text=_(
            "Not recommended: after a drop-out, tables of three score qualifying points 2, 1 "
            "and 0 among their three players. Off: a drop-out stays at the table, passes, and "
            "is ranked last."
        ),
    )

    seating_apart = forms.ChoiceField(
        label=_("Keep clubs and groups apart"),
        required=False,  # settings stored before this option take the default: off
        choices=[
            ("off", _("Off: round 1 by lot (R-BLK-25), later rounds by points")),
            (
                "first_round",
                _("Round 1 only: a draw that seats clubs and groups apart (departs from R-BLK-25)"),
            ),
            (
                "every_round",
                _("Side event: every round drawn apart, fewest repeat table-mates, not by points"),
            ),
        ],
        help_text=_(
            "Players of one club, or of one group marked at the desk (a family), sit at "
            "different tables where the tables allow; the session desk says where they could not."
        ),
    )

    def clean_capacity(self) -> int:
        capacity = self.cleaned_data["capacity"]
        if capacity % 4:
            raise forms.ValidationError(_("Players per session must be a multiple of 4."))
        return capacity


ENTER_SQUARES = _("Enter the squares left (0 if all placed).")
# rules.check_hand's field names -> this form's field prefixes
HAND_FIELDS = {"squares_left": "squares", "monomino_last": "monomino", "pieces": "pieces"}


class SessionTimesForm(forms.Form):
    """One roll-call time per qualifying session (R-BLK-08), in the event's time zone."""

    def __init__(self, *args: Any, count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, count + 1):
            self.fields[f"session_{number}"] = forms.DateTimeField(
                label=_("Session %(number)s roll call") % {"number": number},
                required=False,
                widget=forms.DateTimeInput(
                    format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}
                ),
            )

    def roll_calls(self) -> list[dt.datetime | None]:
        return [self.cleaned_data[name] for name in self.fields]


class ResultForm(forms.Form):
    """One table's result: for each seat the squares left (typed, or added up from the pieces
    tapped), and whether the monomino went last."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    confirm = forms.BooleanField(
        required=False,
        label=_("Correct it anyway: later rounds were drawn with the old result."),
    )

    def __init__(self, *args: Any, seats: Sequence[SeatRow], **kwargs: Any) -> None:
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

    def bound_rows(self) -> Iterator[tuple[SeatRow, Any, Any, Any]]:
        for row in self.seat_rows:
            pk = row.seat.pk
            yield row, self[f"squares_{pk}"], self[f"monomino_{pk}"], self[f"pieces_{pk}"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for row in self.seat_rows:
            pk = row.seat.pk
            if f"squares_{pk}" in self.errors:
                continue
            squares = data.get(f"squares_{pk}")
            pieces = list(data.get(f"pieces_{pk}") or [])
            try:
                if squares is None and pieces:
                    squares = data[f"squares_{pk}"] = rules.squares_of(pieces)
                if squares is None:
                    self.add_error(f"squares_{pk}", ENTER_SQUARES)
                    continue
                rules.check_hand(
                    squares, bool(data.get(f"monomino_{pk}")), pieces, dropped_out=row.dropped
                )
            except rules.InvalidResult as exc:
                field = HAND_FIELDS.get(exc.field, "squares")
                self.add_error(
                    f"{field}_{pk}", forms.ValidationError(hand_message(exc), code=exc.code)
                )
        return data

    def hands(self) -> list[HandInput]:
        return [
            HandInput(
                seat_id=row.seat.pk,
                squares_left=self.cleaned_data[f"squares_{row.seat.pk}"],
                monomino_last=bool(self.cleaned_data.get(f"monomino_{row.seat.pk}")),
                pieces=tuple(self.cleaned_data.get(f"pieces_{row.seat.pk}") or ()),
            )
            for row in self.seat_rows
        ]
