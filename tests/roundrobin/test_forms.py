"""Tests of roundrobin/forms.py: the forms of the desk, the private page and the settings."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("result", "valid"), [("1-0", True), ("1/2-1/2", True), ("2-0", False)])
def test_the_desk_form_checks_a_result_through_the_rules(result, valid):
    from roundrobin.forms import ResultForm

    form = ResultForm({"result": result, "revision": 0})
    assert form.is_valid() is valid
    if not valid:
        assert form.errors.as_data()["result"][0].code in ("bad_result", "invalid_choice")
