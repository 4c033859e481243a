"""Typed refusals (``events.errors``): a class per kind with its code and HTTP status, the
message built from a constant and its parameters, readable as one string."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from events.errors import (
    Conflict,
    Forbidden,
    Gone,
    Invalid,
    NotFound,
    Refused,
    ServiceError,
    Stale,
    http_status,
    refuse,
)


def test_each_kind_has_its_default_code_and_status():
    kinds = [Invalid, Refused, NotFound, Forbidden, Conflict, Stale, Gone]
    found = [(kind("x").code, http_status(kind("x"))) for kind in kinds]
    assert found == [
        ("invalid", 400),
        ("refused", 400),
        ("not_found", 404),
        ("forbidden", 403),
        ("conflict", 409),
        ("stale", 409),
        ("gone", 410),
    ]
    assert issubclass(Stale, Conflict) and issubclass(ServiceError, ValidationError)


def test_a_refusal_is_made_from_a_message_constant_with_its_case_named():
    error = refuse(
        "%(name)s has %(count)s tables.", error_class=Conflict, code="full", name="Ann", count=3
    )
    assert isinstance(error, Conflict)
    assert (error.code, error.text) == ("full", "Ann has 3 tables.")
    assert refuse("No.").code == "refused" and isinstance(refuse("No."), Refused)


def test_many_messages_read_as_one_text_and_keep_a_code():
    error = Invalid(["The name is missing.", "The club is too long."])
    assert error.text == "The name is missing. The club is too long."
    assert error.code == "invalid"
    by_field = Invalid({"name": ["The name is missing."]}, code="bad_row")
    assert by_field.code == "bad_row" and by_field.message_dict == {
        "name": ["The name is missing."]
    }
