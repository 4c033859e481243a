"""The refusals the Blokus services share: what the desk reads is words, not rule ids."""

from __future__ import annotations

from django.utils.functional import Promise


def test_no_refusal_speaks_in_rule_codes():
    """Rule ids (A-BLK-11, R-BLK-07) are for the rule book and the code, not for the desk: the
    refusals say what happened in words (the refusal's ``code`` stays machine-readable)."""
    import re as _re

    from blokus.services import common, final, players, results, rounds, sessions

    for module in (common, final, players, results, rounds, sessions):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str | Promise):
                assert not _re.search(r"[AR]-BLK-\d", str(value)), f"{module.__name__}.{name}"
