"""The words for the sjoelen rules' refusals, in the reader's language.

The rules module (``shuffleboard.rules``) speaks plain English and says what went wrong by a
code and its values (``InvalidResult.code``, ``.params``); the desk's forms, the services, the
phone's result page and the admin show this module's translation of it. A code without a
translation here shows the rules' English.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from shuffleboard import rules

RULE_MESSAGES = {
    "counts_not_a_list": _(
        "Enter the counts as four whole numbers, one for each gate (1, 2, 3, 4)."
    ),
    "wrong_number_of_counts": _(
        "Enter four counts, one for each gate (1, 2, 3, 4), not %(count)s."
    ),
    "count_not_whole": _(
        "The count for the %(gate)s-point gate must be a whole number, not %(value)s."
    ),
    "count_negative": _("The count for the %(gate)s-point gate cannot be negative (%(value)s)."),
    "too_many_discs": _("There are only %(discs)s discs, but these counts add up to %(total)s."),
    "no_sub_turns": _("Enter at least one sub-turn."),
    "too_many_sub_turns": _("A turn has at most %(most)s sub-turns, not %(count)s."),
    "sub_turn_more_than_left": _(
        "Sub-turn %(number)s puts %(landed)s discs in the gates, but only %(left)s were left "
        "to slide."
    ),
    "sub_turn_after_all_in": _(
        "All %(discs)s discs were in the gates after sub-turn %(done)s, so the turn was over; "
        "sub-turn %(number)s must stay empty."
    ),
    "score_not_whole": _("A game score must be a whole number, not %(value)s."),
    "score_negative": _("A game score cannot be negative (%(value)s)."),
    "score_out_of_range": _("A game score must be from 0 to %(maximum)s, not %(value)s."),
    "sub_turn_not_valid": _(
        "The sub-turn in which 148 was reached must be 1, 2 or 3, not %(value)s."
    ),
    "bonus_off": _("Bonus discs are not used in this competition."),
    "bonus_not_earned": _("Only a score of 148 earns bonus discs; these counts score %(score)s."),
    "bonus_too_many": _("This turn earned %(allowed)s bonus disc(s), but %(count)s are entered."),
    "sub_turns_differ": _(
        "The sub-turns add up to %(sub_turns)s, but the totals typed are %(totals)s. Clear the "
        "totals or correct them."
    ),
}
SUB_TURN = _("Sub-turn %(number)s: %(problem)s")


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def rule_message(exc: rules.InvalidResult) -> str:
    """The refusal as a person reads it, in the active language."""
    template = RULE_MESSAGES.get(exc.code)
    params = {name: _text(value) for name, value in exc.params.items()}
    if template is None:
        return str(exc)
    try:
        message = str(template) % params
    except (KeyError, TypeError, ValueError):  # a message without its values: the rules' words
        return str(exc)
    if "sub_turn" in params:
        return str(SUB_TURN) % {"number": params["sub_turn"], "problem": message}
    return message
