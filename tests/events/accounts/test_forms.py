"""Accounts' forms (events/accounts/forms.py): the login's one field named for both of what it
takes, and the deletion's password kept as typed."""

from __future__ import annotations

from events.accounts.forms import AccountDeleteForm, LoginForm


def test_the_login_field_says_it_takes_a_name_or_an_address():
    assert str(LoginForm().fields["login"].label) == "Login name or e-mail address"


def test_the_deletion_keeps_the_password_as_typed_and_bounds_its_length():
    form = AccountDeleteForm({"password": "  spaces count  "})
    assert form.is_valid() and form.cleaned_data["password"] == "  spaces count  "
    assert not AccountDeleteForm({"password": "x" * 4097}).is_valid()
    assert not AccountDeleteForm({}).is_valid()
