from django import forms
from django.utils.translation import gettext_lazy as _

from shuffleboard import rules

RANK_BY_TOTAL, RANK_BY_AVERAGE = "total", "average"
RANKING_CHOICES = [(RANK_BY_TOTAL, _("Total")), (RANK_BY_AVERAGE, _("Average per game played"))]
TIEBREAKS_FULL = "count_back"
# setting -> the leading part of rules.TIEBREAKS it stands for (A-SJ-02)
TIEBREAK_CHAINS = {"count_back": rules.TIEBREAKS, "best_game": rules.TIEBREAKS[:1], "none": ()}
TIEBREAK_CHOICES = [
    ("count_back", _("Best game, then the next-best games, then share the place")),
    ("best_game", _("Best game, then share the place")),
    ("none", _("Share the place")),
]


class SjoelenSettingsForm(forms.Form):
    games = forms.IntegerField(
        label=_("Games per player"),
        min_value=1,
        max_value=50,
        initial=10,
        help_text=_("Usually 5, 10 or 20; the scores are summed."),
    )
    boards = forms.IntegerField(label=_("Boards"), min_value=1, max_value=200, initial=4)
    bonus_disc = forms.BooleanField(
        label=_("Bonus-disc rule"),
        required=False,
        initial=False,
        help_text=_("148 before the last sub-turn earns discs back (up to 152 or 156)."),
    )
    ranking = forms.ChoiceField(
        label=_("Rank by"),
        choices=RANKING_CHOICES,
        required=False,
        initial=RANK_BY_TOTAL,
        help_text=_("Missing games count 0 for the total; the average counts games played."),
    )
    tiebreaks = forms.ChoiceField(
        label=_("Equal players"),
        choices=TIEBREAK_CHOICES,
        required=False,
        initial=TIEBREAKS_FULL,
    )

    def clean_ranking(self) -> str:
        return self.cleaned_data["ranking"] or RANK_BY_TOTAL

    def clean_tiebreaks(self) -> str:
        return self.cleaned_data["tiebreaks"] or TIEBREAKS_FULL


GATE_LABEL = _("%(value)s-point gate")
SUB_TURN_GATE_LABEL = _("sub-turn %(number)s, %(value)s-point gate")
COUNT_REQUIRED = _("Enter a count (0 if none).")
SUB_TURNS_DIFFER = _(
    "The sub-turns add up to %(sub_turns)s, but the totals typed are %(totals)s. "
    "Clear the totals or correct them."
)
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
        widget=forms.NumberInput(
            attrs={
                "inputmode": "numeric",
                "pattern": "[0-9]*",
                "min": 0,
                "max": most,
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


def _board_text(counts: tuple[int, ...]) -> str:
    return " ".join(f"{value}→{counts[value - 1]}" for value in rules.BOARD_ORDER)


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
        self.rows: list[tuple[int, int, int, int]] = []
        if games is not None:
            self.fields["number"] = forms.IntegerField(
                label=_("Game"),
                min_value=1,
                max_value=games,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "game-number"}),
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
        return self.is_bound and any(
            str(self.data.get(f"s{n}_gate{v}", "")).strip()
            for n in SUB_TURN_NUMBERS
            for v in rules.GATE_VALUES
        )

    @property
    def bonus_fields(self) -> list:
        return [self[f"bonus{value}"] for value in rules.BOARD_ORDER] if self.bonus else []

    def counts(self) -> tuple[int, int, int, int]:
        return self._counts

    def bonus_counts(self) -> tuple[int, int, int, int]:
        if not self.bonus:
            return (0, 0, 0, 0)
        data = self.cleaned_data
        b1, b2, b3, b4 = (data.get(f"bonus{value}") or 0 for value in rules.GATE_VALUES)
        return (b1, b2, b3, b4)

    def max_after(self) -> int | None:
        return self.cleaned_data.get("max_after") if self.bonus else None

    def _sub_turn_totals(self, data) -> tuple[int, int, int, int] | None:
        rows = []
        for number in SUB_TURN_NUMBERS:
            row = [data.get(f"s{number}_gate{value}") for value in rules.GATE_VALUES]
            rows.append(
                tuple(count or 0 for count in row) if any(c is not None for c in row) else None
            )
        while rows and rows[-1] is None:
            rows.pop()
        if not rows:
            return None
        self.rows = [row or (0, 0, 0, 0) for row in rows]
        totals = rules.sub_turns_total(self.rows)
        if self.bonus and data.get("max_after") is None:
            # Entered sub-turn by sub-turn, the form knows when 148 was reached.
            reached = rules.max_reached_after(self.rows)
            data["max_after"] = reached if reached and reached < rules.SUB_TURNS else None
        return totals

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            totals = self._sub_turn_totals(data)
            typed = [data.get(f"gate{value}") for value in rules.GATE_VALUES]
            if totals is None:
                for value, count in zip(rules.GATE_VALUES, typed, strict=True):
                    if count is None:
                        self.add_error(f"gate{value}", COUNT_REQUIRED)
                if self.errors:
                    return data
                c1, c2, c3, c4 = typed
                self._counts = (c1, c2, c3, c4)
            else:
                if any(c is not None for c in typed) and tuple(c or 0 for c in typed) != totals:
                    raise forms.ValidationError(
                        SUB_TURNS_DIFFER
                        % {
                            "sub_turns": _board_text(totals),
                            "totals": _board_text(tuple(c or 0 for c in typed)),
                        }
                    )
                self._counts = totals
            self.score = rules.turn_score_with_bonus(
                self._counts,
                self.bonus_counts(),
                reached_max_after=self.max_after(),
                bonus=self.bonus,
            )
        except rules.InvalidResult as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data


def _number(raw) -> int:
    raw = str(raw if raw is not None else "").strip()
    return int(raw) if raw.isdigit() and len(raw) < 4 else 0


def preview(data, *, bonus: bool = False) -> dict:
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
        result["score"] = rules.turn_score_with_bonus(
            counts,
            extra,
            reached_max_after=int(max_after) if bonus and max_after in ("1", "2") else None,
            bonus=bonus,
        )
    except rules.InvalidResult as exc:
        result["problem"] = str(exc)
    return result
