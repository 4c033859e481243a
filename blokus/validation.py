"""The words for ``rules.check_hand``'s refusals, in the reader's language.

A hand is checked once, by ``rules.check_hand``, wherever it is entered: the result form, the
service and the admin (``Hand.clean``). The rules module speaks plain English; this maps its
refusal codes to translated messages for all three.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from blokus import rules

MONOMINO_WITH_SQUARES = _(
    "The monomino can count as the last piece only when every piece was placed (0 squares left)."
)

HAND_MESSAGES = {
    "squares_out_of_range": _("Squares left must be a whole number from 0 to 89."),
    "monomino_not_bool": _("Say yes or no for whether the monomino was placed last."),
    "monomino_with_squares": MONOMINO_WITH_SQUARES,
    "pieces_not_names": _("Pieces must be a list of piece names."),
    "unknown_piece": _("There is no Blokus piece called %(piece)s."),
    "duplicate_piece": _("The piece %(piece)s is listed twice; each colour has only one."),
    "pieces_do_not_add_up": _("The pieces tapped add up to %(n)s, not %(squares)s."),
    "dropped_out_squares": _("A player who dropped out has all 89 squares left."),
}


def hand_message(exc: rules.InvalidResult) -> str:
    """The refusal of a hand as a person reads it (the rules' English for an unknown code)."""
    template = HAND_MESSAGES.get(exc.code)
    if template is None:
        return str(exc)
    return str(template) % {name: str(value) for name, value in exc.params.items()}
