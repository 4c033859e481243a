"""The sjoelen forms: a competition's settings, and one game's counts at the desk.

Both only parse what was typed; the rules decide: ``rules.check_game`` checks a game's result
here (the score post hands the services this result, ``TurnForm.result``, which they take as it
is), in the services for results that come in otherwise, and in ``Turn.clean`` alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.common.forms import SettingsForm
from shuffleboard import rules
from shuffleboard.format import (
    RANK_BY_AVERAGE,
    RANK_BY_TOTAL,
    TIES_BEST_GAME,
    TIES_COUNT_BACK,
    TIES_SHARE,
    SjoelenSettings,
)
from shuffleboard.validation import RULE_MESSAGES, rule_message

DEFAULTS = SjoelenSettings()
RANKING_CHOICES = [(RANK_BY_TOTAL, _("Total")), (RANK_BY_AVERAGE, _("Average per game played"))]
CLASS_ORDER = _("Class B must start below class A.")
TIEBREAK_CHOICES = [
    (TIES_COUNT_BACK, _("Best game, then the next-best games, then share the place")),
    (TIES_BEST_GAME, _("Best game, then share the place")),
    (TIES_SHARE, _("Share the place")),
]


class SjoelenSettingsForm(SettingsForm):
    """Validates a competition's settings; the defaults are ``SjoelenSettings``'s."""

    settings_class = SjoelenSettings

    games = forms.IntegerField(
        label=_("Games per player"),
        min_value=1,
        max_value=50,
        help_text=_("Usually 5, 10 or 20; the scores are summed."),
    )
    boards = forms.IntegerField(label=_("Boards"), min_value=1, max_value=200)
    bonus_disc = forms.BooleanField(
        label=_("Bonus-disc rule"),
        required=False,
        help_text=_("148 before the last sub-turn earns discs back (up to 152 or 156)."),
    )
    ranking = forms.ChoiceField(
        label=_("Rank by"),
        choices=RANKING_CHOICES,
        required=False,
        help_text=_("Missing games count 0 for the total; the average counts games played."),
    )
    tiebreaks = forms.ChoiceField(
        label=_("Equal players"),
        choices=TIEBREAK_CHOICES,
        required=False,
    )

    title_playoff = forms.BooleanField(
        label=_("Title play-off"),
        required=False,
        help_text=_(
            "When 1st place is shared once every game is in, the tied players play one more "
            "game each for the title, and one more while still tied, at most three rounds. Off: "
            "the title is shared."
        ),
    )
    classes = forms.BooleanField(
        label=_("Classes A, B, C"),
        required=False,
        help_text=_(
            "Group the standings in classes by average per game. A player keeps the class of "
            "their last finished sjoelen competition; a newcomer is classed by this one."
        ),
    )
    class_a = forms.IntegerField(
        label=_("Class A from average"),
        min_value=1,
        max_value=rules.MAX_SCORE,
        required=False,
    )
    class_b = forms.IntegerField(
        label=_("Class B from average"),
        min_value=0,
        max_value=rules.MAX_SCORE,
        required=False,
        help_text=_("Below it: class C."),
    )
    results_from_players = forms.BooleanField(
        label=_("Results from players"),
        required=False,
        help_text=_(
            "Players enter their own games on their phones with the board's code; another "
            "player at the board or the desk confirms them."
        ),
    )

    seating_apart = forms.ChoiceField(
        label=_("Keep clubs and groups apart"),
        required=False,  # settings stored before this option take the default: off
        choices=[
            ("off", _("Off: the boards in turn, by check-in order")),
            ("every_round", _("Every game: clubs and groups apart, fewest repeat board-mates")),
        ],
        help_text=_(
            "Players of one club, or of one group marked at the desk (a family), play at "
            "different boards where the boards allow it. Each player is placed as they check "
            "in, so a late arrival moves nobody."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        a, b = data.get("class_a"), data.get("class_b")
        if a is not None and b is not None and b >= a:
            self.add_error("class_b", CLASS_ORDER)
        return data


GATE_LABEL = _("%(value)s-point gate")
SUB_TURN_GATE_LABEL = _("sub-turn %(number)s, %(value)s-point gate")
COUNT_REQUIRED = _("Enter a count (0 if none).")
SUB_TURNS_DIFFER = RULE_MESSAGES["sub_turns_differ"]
MAX_AFTER_CHOICES = [
    ("", _("not reached")),
    ("1", _("after sub-turn 1")),
    ("2", _("after sub-turn 2")),
]
SUB_TURN_NUMBERS = range(1, rules.SUB_TURNS + 1)


def _count_field(label: str, aria: str, *, most: int = rules.DISCS) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=most,
        required=False,
        # Text, not type=number: a mouse wheel over a focused number field changes the count
        # silently. The server checks the range; the phone still shows its number pad.
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "pattern": "[0-9]*",
                "maxlength": 3,
                "autocomplete": "off",
                "aria-label": aria,
                "class": "gate",
            }
        ),
        error_messages={
            "invalid": _("Enter a whole number."),
            "min_value": _("Cannot be negative."),
            "max_value": _("At most %(limit_value)s."),
        },
    )


class TurnForm(forms.Form):
    """One game's counts, typed left to right as the gates stand on the board (2, 3, 4, 1).

    Either the four totals, or up to three sub-turn rows (the discs that landed in each gate in
    that sub-turn) which the rules add up (R-SJ-02..05). With the bonus rule, the sub-turn after
    which 148 stood and the bonus discs' gates (A-SJ-04).
    """

    def __init__(self, *args, games: int | None, bonus: bool = False, **kwargs):
        """``games=None`` leaves out the game number (a correction keeps its number)."""
        super().__init__(*args, **kwargs)
        self.bonus = bonus
        self.rows: list[tuple[int, ...]] = []
        if games is not None:
            self.fields["number"] = forms.IntegerField(
                label=_("Game"),
                min_value=1,
                max_value=games,
                widget=forms.TextInput(
                    attrs={
                        "inputmode": "numeric",
                        "pattern": "[0-9]*",
                        "maxlength": 3,
                        "autocomplete": "off",
                        "class": "game-number",
                    }
                ),
                error_messages={"invalid": _("Enter a whole number.")},
            )
        for value in rules.BOARD_ORDER:
            self.fields[f"gate{value}"] = _count_field(str(value), GATE_LABEL % {"value": value})
        for number in SUB_TURN_NUMBERS:
            for value in rules.BOARD_ORDER:
                self.fields[f"s{number}_gate{value}"] = _count_field(
                    str(value), SUB_TURN_GATE_LABEL % {"number": number, "value": value}
                )
        if bonus:
            self.fields["max_after"] = forms.TypedChoiceField(
                label=_("148 reached"),
                choices=MAX_AFTER_CHOICES,
                coerce=int,
                empty_value=None,
                required=False,
            )
            for value in rules.BOARD_ORDER:
                self.fields[f"bonus{value}"] = _count_field(
                    str(value), GATE_LABEL % {"value": value}, most=rules.SUB_TURNS - 1
                )

    @property
    def gate_fields(self) -> list:
        return [self[f"gate{value}"] for value in rules.BOARD_ORDER]

    @property
    def sub_turn_rows(self) -> list[tuple[int, list]]:
        return [
            (number, [self[f"s{number}_gate{value}"] for value in rules.BOARD_ORDER])
            for number in SUB_TURN_NUMBERS
        ]

    @property
    def uses_sub_turns(self) -> bool:
        source = self.data if self.is_bound else self.initial
        return any(
            str(source.get(f"s{n}_gate{v}", "")).strip()
            for n in SUB_TURN_NUMBERS
            for v in rules.GATE_VALUES
        )

    @property
    def bonus_fields(self) -> list:
        return [self[f"bonus{value}"] for value in rules.BOARD_ORDER] if self.bonus else []

    def counts(self) -> tuple[int, int, int, int]:
        return self.result.counts

    def bonus_counts(self) -> tuple[int, int, int, int]:
        return self.result.bonus_counts

    def max_after(self) -> int | None:
        return self.result.max_after

    def sub_turns(self) -> tuple[tuple[int, int, int, int], ...] | None:
        """The sub-turn rows typed, checked (A-SJ-15), or None when the totals were typed."""
        return self.result.sub_turns

    def _sub_turn_rows(self, data: dict[str, Any]) -> list[tuple[int, ...]] | None:
        """The sub-turn rows typed (blank cells 0, trailing blank rows dropped), or None."""
        rows: list[tuple[int, ...] | None] = []
        for number in SUB_TURN_NUMBERS:
            row = [data.get(f"s{number}_gate{value}") for value in rules.GATE_VALUES]
            typed = any(count is not None for count in row)
            rows.append(tuple(count or 0 for count in row) if typed else None)
        while rows and rows[-1] is None:
            rows.pop()
        self.rows = [row or (0, 0, 0, 0) for row in rows]
        return list(self.rows) or None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        rows = self._sub_turn_rows(data)
        typed = [data.get(f"gate{value}") for value in rules.GATE_VALUES]
        counts: tuple[int, ...] | None = None
        if rows is None:
            for value, count in zip(rules.GATE_VALUES, typed, strict=True):
                if count is None:
                    self.add_error(f"gate{value}", COUNT_REQUIRED)
            if self.errors:
                return data
            counts = tuple(count or 0 for count in typed)
        elif any(count is not None for count in typed):
            counts = tuple(count or 0 for count in typed)
        bonus = [data.get(f"bonus{value}") or 0 for value in rules.GATE_VALUES]
        try:
            self.result = rules.check_game(
                counts,
                sub_turns=rows,
                bonus_counts=bonus if self.bonus else rules.NO_BONUS,
                max_after=data.get("max_after") if self.bonus else None,
                bonus=self.bonus,
            )
        except rules.InvalidResult as exc:
            raise forms.ValidationError(rule_message(exc), code=exc.code) from exc
        self.score = self.result.score
        return data


def _number(raw: object) -> int:
    raw = str(raw if raw is not None else "").strip()
    return int(raw) if raw.isdigit() and len(raw) < 4 else 0


def preview(data: Mapping[str, Any], *, bonus: bool = False) -> dict[str, Any]:
    """What the typed counts add up to so far, for the live preview (never raises).

    Sub-turn rows, when any is typed, are added up; otherwise the four totals are used.
    """
    rows = [
        [_number(data.get(f"s{n}_gate{v}")) for v in rules.GATE_VALUES] for n in SUB_TURN_NUMBERS
    ]
    if any(any(row) for row in rows):
        counts = [sum(row[i] for row in rows) for i in range(len(rules.GATE_VALUES))]
    else:
        counts = [_number(data.get(f"gate{value}")) for value in rules.GATE_VALUES]
    extra = [_number(data.get(f"bonus{value}")) if bonus else 0 for value in rules.GATE_VALUES]
    discs = sum(counts)
    result = {"discs": discs, "too_many": discs > rules.DISCS, "score": None, "problem": ""}
    max_after = str(data.get("max_after", "")).strip()
    try:
        result["score"] = rules.check_game(
            counts,
            bonus_counts=extra,
            max_after=int(max_after) if max_after in ("1", "2") else None,
            bonus=bonus,
        ).score
    except rules.InvalidResult as exc:
        result["problem"] = rule_message(exc)
    return result


class _Numbers(forms.Form):
    def __init__(self, data: Mapping[str, Any], names: tuple[str, ...]) -> None:
        super().__init__(data)
        for name in names:
            self.fields[name] = forms.IntegerField(required=False, min_value=-1, max_value=2**31)


def optional_numbers(data: Mapping[str, Any], *names: str) -> list[int | None]:
    """Whole numbers from a query string or hidden fields (``?board=2``); a missing or garbled
    one is None, since a link or page may be old: the page then shows its default."""
    form = _Numbers(data, names)
    form.is_valid()
    return [form.cleaned_data.get(name) for name in names]
